#include "crc32c.h"

#include <array>
#include <cstring>

namespace mrtools {
namespace {

constexpr uint32_t kPoly = 0x82f63b78u;  // reflected Castagnoli polynomial

struct Tables {
  std::array<std::array<uint32_t, 256>, 8> t{};
  Tables() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ kPoly : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i)
      for (int s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xffu];
  }
};

const Tables& tables() {
  static const Tables instance;  // thread-safe initialisation (C++11 magic statics)
  return instance;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// SSE4.2's crc32 instruction computes exactly CRC-32C: about ten times the table's speed.
__attribute__((target("sse4.2"))) uint32_t crc32c_sse42(uint32_t crc, const uint8_t* data,
                                                         size_t size) noexcept {
  uint64_t c = static_cast<uint32_t>(~crc);
  while (size >= 8) {
    uint64_t v;
    std::memcpy(&v, data, 8);
    c = __builtin_ia32_crc32di(c, v);
    data += 8;
    size -= 8;
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  while (size--) c32 = __builtin_ia32_crc32qi(c32, *data++);
  return ~c32;
}

bool have_sse42() noexcept {
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") != 0;
  }();
  return yes;
}
#define MRTOOLS_HAVE_SSE42_PATH 1
#endif

uint32_t crc32c_table(uint32_t crc, const uint8_t* data, size_t size) noexcept {
  const auto& t = tables().t;
  uint32_t c = ~crc;
  while (size >= 8) {
    uint32_t lo, hi;
    std::memcpy(&lo, data, 4);       // memcpy: no unaligned or aliasing UB
    std::memcpy(&hi, data + 4, 4);
    lo ^= c;                          // little-endian hosts only (x86-64, aarch64)
    c = t[7][lo & 0xffu] ^ t[6][(lo >> 8) & 0xffu] ^ t[5][(lo >> 16) & 0xffu] ^ t[4][lo >> 24] ^
        t[3][hi & 0xffu] ^ t[2][(hi >> 8) & 0xffu] ^ t[1][(hi >> 16) & 0xffu] ^ t[0][hi >> 24];
    data += 8;
    size -= 8;
  }
  while (size--) c = (c >> 8) ^ t[0][(c ^ *data++) & 0xffu];
  return ~c;
}

}  // namespace

uint32_t crc32c_extend(uint32_t crc, const uint8_t* data, size_t size) noexcept {
#ifdef MRTOOLS_HAVE_SSE42_PATH
  if (have_sse42()) return crc32c_sse42(crc, data, size);
#endif
  return crc32c_table(crc, data, size);
}

uint32_t crc32c_extend_portable(uint32_t crc, const uint8_t* data, size_t size) noexcept {
  return crc32c_table(crc, data, size);
}

}  // namespace mrtools
