# distutils: sources = mindrecord/tools/src/crc32c.cpp
# distutils: include_dirs = mindrecord/tools/src
"""CRC-32C for TFRecord framing (native; the GIL is released while bytes are summed)."""
from libc.stdint cimport uint8_t, uint32_t

cdef extern from "crc32c.h" namespace "mrtools":
    uint32_t crc32c_extend(uint32_t crc, const uint8_t* data, size_t size) nogil
    uint32_t crc32c_extend_portable(uint32_t crc, const uint8_t* data, size_t size) nogil
    uint32_t crc32c_mask(uint32_t crc) nogil


def crc32c(const unsigned char[::1] data not None, uint32_t crc=0):
    """CRC-32C of a bytes-like object (continuing from ``crc``)."""
    cdef size_t n = data.shape[0]
    cdef const uint8_t* p = &data[0] if n else NULL
    with nogil:
        crc = crc32c_extend(crc, p, n)
    return crc


def crc32c_portable(const unsigned char[::1] data not None, uint32_t crc=0):
    """CRC-32C by tables only (the path CPUs without SSE4.2 take)."""
    cdef size_t n = data.shape[0]
    cdef const uint8_t* p = &data[0] if n else NULL
    with nogil:
        crc = crc32c_extend_portable(crc, p, n)
    return crc


def masked_crc32c(const unsigned char[::1] data not None):
    """TFRecord's masked CRC-32C of a bytes-like object."""
    cdef size_t n = data.shape[0]
    cdef const uint8_t* p = &data[0] if n else NULL
    cdef uint32_t crc
    with nogil:
        crc = crc32c_mask(crc32c_extend(0, p, n))
    return crc
