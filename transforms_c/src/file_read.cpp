#include "file_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace mdt {

int read_file_into(const std::string& path, const std::function<uint8_t*(size_t)>& place,
                   size_t* size) {
    *size = 0;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    int err = 0;
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        err = errno;
    } else if (S_ISDIR(st.st_mode)) {
        err = EISDIR;
    } else if (!S_ISREG(st.st_mode) || st.st_size < 0) {
        err = EINVAL;
    } else {
        *size = static_cast<size_t>(st.st_size);
        uint8_t* dest = place(*size);
        size_t done = 0;
        while (dest != nullptr && done < *size) {
            const ssize_t got = ::read(fd, dest + done, *size - done);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) {
                err = errno;
                break;
            }
            if (got == 0) {     // the file shrank while being read
                err = EIO;
                break;
            }
            done += static_cast<size_t>(got);
        }
    }
    ::close(fd);
    return err;
}

int64_t read_files(const uint64_t* paths, const int64_t* path_sizes, int64_t n, uint8_t* out,
                   int64_t capacity, int64_t* offsets, int32_t* errors) {
    int64_t at = 0;
    offsets[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
        const std::string path(reinterpret_cast<const char*>(paths[i]),
                               static_cast<size_t>(path_sizes[i]));
        size_t size = 0;
        const int err = read_file_into(
            path,
            [&](size_t bytes) -> uint8_t* {
                return static_cast<int64_t>(bytes) <= capacity - at ? out + at : nullptr;
            },
            &size);
        errors[i] = err;
        if (err == 0) at += static_cast<int64_t>(size);
        offsets[i + 1] = at;
    }
    return at;
}

}  // namespace mdt
