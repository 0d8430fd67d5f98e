// Reading image files whole, without Python: the native batch engine's rows (row_plan.cpp) and
// a GPU batch's files (read_files, bound in _native.pyx), each file with one open, one fstat
// and (usually) one read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace mdt {

// Reads the regular file `path` whole: `place(size)` (size from fstat) says where its bytes go,
// or nullptr to only learn its size. Returns 0, or the errno why it could not be opened as a
// regular file or read whole (EISDIR for a directory, EIO when it shrank while being read).
int read_file_into(const std::string& path, const std::function<uint8_t*(size_t)>& place,
                   size_t* size);

// The n files named by paths[i] (path_sizes[i] bytes, not NUL-terminated) one after another
// into out[0, capacity): offsets[i]..offsets[i + 1] is file i's place (empty for a file that
// could not be read: errors[i] its errno, else 0). Returns the bytes all the readable files
// need; when that exceeds capacity, the files past it are not read (errors 0, slots reserved)
// and the caller calls again with a buffer that large.
int64_t read_files(const uint64_t* paths, const int64_t* path_sizes, int64_t n, uint8_t* out,
                   int64_t capacity, int64_t* offsets, int32_t* errors);

}  // namespace mdt
