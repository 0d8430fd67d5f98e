// CRC-32C (Castagnoli), as TFRecord framing uses it. Table-driven, slicing by 8 bytes.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mrtools {

// CRC-32C of data[0..size), continuing from `crc` (0 for a fresh checksum). Uses the SSE4.2
// crc32 instruction when the CPU has it, else tables.
uint32_t crc32c_extend(uint32_t crc, const uint8_t* data, size_t size) noexcept;

// The table-driven version alone (tests compare the two).
uint32_t crc32c_extend_portable(uint32_t crc, const uint8_t* data, size_t size) noexcept;

// TFRecord's "masked" CRC: rotate right by 15 bits and add a constant, so that a CRC stored
// inside checksummed data does not make the outer checksum degenerate.
inline uint32_t crc32c_mask(uint32_t crc) noexcept {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

}  // namespace mrtools
