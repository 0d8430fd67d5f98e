# distutils: sources = transforms_c/src/jpeg_decoder.cpp transforms_c/src/resample_pass.cpp transforms_c/src/file_read.cpp
# distutils: extra_compile_args = -ffp-contract=off
"""Cython bindings of the C++ kernels (transforms_c/src). Every loop over pixels or bytes runs
with the GIL released. Arguments are checked here or in the kernels before any memory is touched;
callers (the op classes and the fusion plans) pass already-validated shapes."""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t, uintptr_t
from libc.string cimport memcpy
from libcpp cimport bool as cbool
from libcpp.vector cimport vector

import numpy as np
cimport numpy as cnp

cnp.import_array()


cdef extern from "jpeg_decoder.h" namespace "mdt":
    cdef cppclass JpegHeader:
        int width
        int height
        int components
        int color_space
        int precision
    cbool jpeg_read_info(const uint8_t* data, size_t size, JpegHeader* header, char* err,
                        size_t err_len) nogil
    void jpeg_scaled_size(int width, int height, int denom, int* out_width,
                          int* out_height) nogil
    cbool jpeg_decode_region(const uint8_t* data, size_t size, int denom, int x, int y, int w,
                            int h, uint8_t* out, Py_ssize_t out_stride, long long max_pixels,
                            char* err, size_t err_len) nogil
    cbool jpeg_decode_region(const uint8_t* data, size_t size, int denom, int x, int y, int w,
                            int h, uint8_t* out, Py_ssize_t out_stride, long long max_pixels,
                            char* err, size_t err_len, int room, int* first_col) nogil
    cbool jpeg_decode_region(const uint8_t* data, size_t size, int denom, int x, int y, int w,
                            int h, uint8_t* out, Py_ssize_t out_stride, long long max_pixels,
                            char* err, size_t err_len, int room, int* first_col,
                            int cmyk_rule, cbool gray) nogil
    const int kJpegCropRoom
    cdef cppclass JpegPlanes:
        int components
        int heights[4]
        int widths[4]
        int factors[4]
    cbool jpeg_read_planes(const uint8_t* data, size_t size, JpegPlanes* planes,
                          long long max_pixels, char* err, size_t err_len) nogil
    cbool jpeg_decode_planes(const uint8_t* data, size_t size, const JpegPlanes& planes,
                            uint8_t* const out[4], long long max_pixels, char* err,
                            size_t err_len) nogil


cdef extern from "jconfig.h":   # of the libjpeg-turbo linked in statically (setup.py)
    int LIBJPEG_TURBO_VERSION_NUMBER


cdef extern from "resample_pass.h" namespace "mdt":
    cdef cppclass PassSpec:
        const uint8_t* src
        Py_ssize_t src_stride
        int box_w, box_h, channels
        int virt_w, virt_h
        double scale_x, scale_y, offset_x, offset_y
        int interp
        int win_x, win_y, out_w, out_h
        cbool hflip, vflip
        int point_op
        const float* p0
        const float* p1
        const float* p2
        const float* p3
        cbool chw
        void* out
    const char* run_pass(const PassSpec& spec) nogil
    uint8_t* thread_scratch(size_t nbytes) nogil

INTERP_COPY = 0
INTERP_NEAREST = 1
INTERP_LINEAR = 2
INTERP_CUBIC = 3
INTERP_AREA = 4
INTERP_PILCUBIC = 5
POINT_NONE = 0
POINT_NORMALIZE = 1
POINT_RESCALE = 2
POINT_RESCALE_NORMALIZE = 3
POINT_TABLE = 4

DEF ERR_LEN = 256
# Decoded regions up to this size reuse a per-thread scratch buffer (about 2300x2300 RGB).
DEF _SCRATCH_LIMIT = 16 * 1024 * 1024


def libjpeg_turbo_version():
    """LIBJPEG_TURBO_VERSION_NUMBER of the libjpeg-turbo compiled in (3001000 for 3.1.0)."""
    return LIBJPEG_TURBO_VERSION_NUMBER


def jpeg_info(const uint8_t[::1] data):
    """(width, height, components) from a JPEG header; RuntimeError if it cannot be parsed."""
    cdef JpegHeader header
    cdef char err[ERR_LEN]
    cdef cbool ok
    err[0] = 0
    if data.shape[0] == 0:
        raise RuntimeError("image data is empty (0 bytes)")
    with nogil:
        ok = jpeg_read_info(&data[0], data.shape[0], &header, err, ERR_LEN)
    if not ok:
        raise RuntimeError("invalid JPEG: " + err.decode("utf-8", "replace"))
    return header.width, header.height, header.components


def jpeg_planes(const uint8_t[::1] data, long long max_pixels):
    """The JPEG's planes as coded (libjpeg-turbo's raw decode: no chroma upsampling, no colour
    conversion; for a YCbCr file Y, Cb, Cr), with each one's sampling: (planes, factors),
    ``planes`` a list of (h, w) uint8 arrays, ``factors`` the (horizontal, vertical) factor
    each plane is subsampled by ((2, 2) for 4:2:0 chroma). What a GPU decoder asked for YUV
    output gives, to check the conversion to RGB against the CPU decode (minddata/gpu).
    RuntimeError for a file it cannot decode."""
    cdef JpegPlanes planes
    cdef char err[ERR_LEN]
    cdef cbool ok
    cdef uint8_t* out[4]
    cdef uint8_t[:, ::1] view
    err[0] = 0
    if data.shape[0] == 0:
        raise RuntimeError("image data is empty (0 bytes)")
    with nogil:
        ok = jpeg_read_planes(&data[0], data.shape[0], &planes, max_pixels, err, ERR_LEN)
    if not ok:
        raise RuntimeError("invalid JPEG: " + err.decode("utf-8", "replace"))
    arrays = [np.empty((planes.heights[c], planes.widths[c]), np.uint8)
              for c in range(planes.components)]
    for c in range(4):
        out[c] = NULL
    for c in range(planes.components):
        view = arrays[c]
        out[c] = &view[0, 0]
    with nogil:
        ok = jpeg_decode_planes(&data[0], data.shape[0], planes, out, max_pixels, err,
                                ERR_LEN)
    if not ok:
        raise RuntimeError("invalid JPEG: " + err.decode("utf-8", "replace"))
    factors = [(planes.factors[c] // 16, planes.factors[c] % 16)
               for c in range(planes.components)]
    return arrays, factors


ctypedef const uint8_t* encoded_ptr


cdef const uint8_t* _encoded_bytes(object data, Py_ssize_t* size):
    """The bytes of one encoded row, a C-contiguous 1-D uint8 array or a bytes array of one
    element and at most one dimension (|S<n>, a MindRecord bytes field: what encoded_bytes in
    vision/decode.py takes as the same memory); NULL (``size`` 0) for anything else."""
    size[0] = 0
    if not isinstance(data, np.ndarray):
        return NULL
    cdef cnp.ndarray arr = <cnp.ndarray>data
    if not cnp.PyArray_IS_C_CONTIGUOUS(arr):
        return NULL
    if not ((arr.ndim == 1 and cnp.PyArray_TYPE(arr) == cnp.NPY_UINT8)
            or (arr.ndim <= 1 and cnp.PyArray_TYPE(arr) == cnp.NPY_STRING
                and cnp.PyArray_SIZE(arr) == 1)):
        return NULL
    size[0] = cnp.PyArray_NBYTES(arr)
    return <const uint8_t*>cnp.PyArray_DATA(arr)


# libjpeg's J_COLOR_SPACE values of the files every JPEG decoder reads alike
DEF JCS_GRAYSCALE = 1
DEF JCS_YCbCr = 3


def encoded_addresses(list datas):
    """Where each encoded row's bytes lie (see _encoded_bytes): (N,) uint64 addresses and
    (N,) int64 sizes, address 0 for a row of another type. Valid while ``datas`` lives
    unchanged."""
    cdef Py_ssize_t n = len(datas), i, size
    addresses = np.zeros(n, np.uint64)
    sizes = np.zeros(n, np.int64)
    cdef uint64_t[::1] at = addresses
    cdef int64_t[::1] lengths = sizes
    for i in range(n):
        at[i] = <uint64_t><uintptr_t>_encoded_bytes(datas[i], &size)
        lengths[i] = size
    return addresses, sizes


cdef void _check_rows(const uint64_t[::1] addresses, const int64_t[::1] sizes,
                      str call) except *:
    cdef Py_ssize_t i
    if addresses.shape[0] != sizes.shape[0]:
        raise ValueError(f"{call}: {addresses.shape[0]} addresses and {sizes.shape[0]} sizes")
    for i in range(sizes.shape[0]):
        if sizes[i] < 0 or (sizes[i] > 0 and addresses[i] == 0):
            raise ValueError(f"{call}: row {i} has {sizes[i]} bytes at address "
                             f"{addresses[i]}")


cdef void _check_room(int64_t total, Py_ssize_t room, str call) except *:
    if total > room:
        raise ValueError(f"{call}: the rows hold {total} bytes, more than the {room} of the "
                         f"buffer")


cdef void _jpeg_row_size(const uint8_t* data, Py_ssize_t size, int64_t* width,
                        int64_t* height) noexcept nogil:
    """The (width, height) jpeg_headers gives one row of ``size`` bytes at ``data``; (0, 0)
    for a row it leaves to the CPU path."""
    cdef JpegHeader header
    cdef char err[ERR_LEN]
    width[0] = 0
    height[0] = 0
    if size < 5 or data[0] != 0xFF or data[1] != 0xD8 or data[2] != 0xFF \
            or data[size - 2] != 0xFF or data[size - 1] != 0xD9:
        return
    if jpeg_read_info(data, size, &header, err, ERR_LEN) and header.precision == 8 \
            and ((header.components == 1 and header.color_space == JCS_GRAYSCALE)
            or (header.components == 3 and header.color_space == JCS_YCbCr)):
        width[0] = header.width
        height[0] = header.height


def jpeg_headers(const uint64_t[::1] addresses, const int64_t[::1] sizes):
    """(N, 3) int64 rows of (width, height, bytes) of a batch of encoded rows at
    ``addresses`` (encoded_addresses; 0: not encoded bytes), for a batch decoder on another
    device: width and height from the header of each JPEG (FF D8 FF) whose header parses,
    that ends with its EOI marker (FF D9), has 8 bits per sample and colours coded as YCbCr or
    grey; 0 for every other row (not a JPEG, a broken header, another type, a file cut short
    or with bytes after its end, 12 bits, RGB-, CMYK- or YCCK-coded colours). Those rows go to
    the CPU path's Decode, which raises for a cut file (a GPU decoder may fill the missing
    part instead) and for 12 bits, and converts the other colour codings (a GPU decoder may
    read them as YCbCr): never a wrong image without an error, and the same errors as on the
    CPU. The headers are read with the GIL released; the rows must not change meanwhile."""
    _check_rows(addresses, sizes, "jpeg_headers")
    cdef Py_ssize_t n = sizes.shape[0], i
    out = np.zeros((n, 3), np.int64)
    cdef int64_t[:, ::1] rows = out
    for i in range(n):
        rows[i, 2] = sizes[i] if addresses[i] else 0
    with nogil:
        for i in range(n):
            _jpeg_row_size(<const uint8_t*><uintptr_t>addresses[i], rows[i, 2], &rows[i, 0],
                           &rows[i, 1])
    return out


def stage_jpegs(const uint64_t[::1] addresses, const int64_t[::1] sizes, uint8_t[::1] out,
                long long max_pixels):
    """A whole batch of encoded rows at ``addresses`` (encoded_addresses) staged for a batch
    decoder, with the GIL released once: each row that is encoded bytes copied into ``out``,
    one after another (a row of address 0 takes no room), and its header read there as
    jpeg_headers reads it. Returns (offsets (N + 1,) int64: row i is ``out[offsets[i]:
    offsets[i + 1]]``, hw (N, 2) int64: the (height, width) of the rows a batch decoder can
    take, of 1 to ``max_pixels`` pixels, (0, 0) for the others). ValueError, before anything
    is copied, when ``out`` is too small."""
    _check_rows(addresses, sizes, "stage_jpegs")
    cdef Py_ssize_t n = sizes.shape[0], i
    cdef int64_t total = 0, width, height
    offsets = np.zeros(n + 1, np.int64)
    hw = np.zeros((n, 2), np.int64)
    cdef int64_t[::1] at = offsets
    cdef int64_t[:, ::1] rows = hw
    for i in range(n):
        if addresses[i]:
            total += sizes[i]
        at[i + 1] = total
    _check_room(total, out.shape[0], "stage_jpegs")
    if total == 0:
        return offsets, hw
    cdef uint8_t* dst = &out[0]
    with nogil:
        for i in range(n):
            if at[i + 1] == at[i]:
                continue
            memcpy(dst + at[i], <const uint8_t*><uintptr_t>addresses[i], at[i + 1] - at[i])
            _jpeg_row_size(dst + at[i], at[i + 1] - at[i], &width, &height)
            if width > 0 and height > 0 and width * height <= max_pixels:
                rows[i, 0] = height
                rows[i, 1] = width
    return offsets, hw


def gather_encoded(const uint64_t[::1] addresses, const int64_t[::1] sizes,
                   const int64_t[::1] picked, uint8_t[::1] out):
    """Copies the encoded rows ``picked[k]`` of those at ``addresses`` (encoded_addresses)
    one after another into ``out`` (the GIL released for the copies); returns their
    (len(picked) + 1,) int64 offsets in ``out``. ValueError, before anything is copied, for a
    row that is not encoded bytes (address 0) or when ``out`` is too small."""
    _check_rows(addresses, sizes, "gather_encoded")
    cdef Py_ssize_t n = picked.shape[0], rows = sizes.shape[0], k, row, total = 0
    offsets = np.zeros(n + 1, np.int64)
    cdef int64_t[::1] at = offsets
    cdef vector[encoded_ptr] ptrs = vector[encoded_ptr](n)
    for k in range(n):
        row = picked[k]
        if row < 0 or row >= rows:
            raise ValueError(f"gather_encoded: row {row} is outside the batch of {rows}")
        if addresses[row] == 0:
            raise ValueError(f"gather_encoded: row {row} is not a contiguous uint8 or bytes "
                             f"array")
        ptrs[k] = <encoded_ptr><uintptr_t>addresses[row]
        total += sizes[row]
        at[k + 1] = total
    _check_room(total, out.shape[0], "gather_encoded")
    if total == 0:
        return offsets
    cdef uint8_t* dst = &out[0]
    with nogil:
        for k in range(n):
            memcpy(dst + at[k], ptrs[k], at[k + 1] - at[k])
    return offsets


cdef extern from "file_read.h" namespace "mdt":
    int64_t c_read_files "mdt::read_files"(const uint64_t* paths, const int64_t* path_sizes,
                                           int64_t n, uint8_t* out, int64_t capacity,
                                           int64_t* offsets, int32_t* errors) nogil


def read_files(const uint64_t[::1] paths, const int64_t[::1] path_sizes, uint8_t[::1] out):
    """Reads the files whose names lie at ``paths`` (``path_sizes`` bytes each, not
    NUL-terminated: sources/native_access.ImageFiles.locate) whole, one after another into
    ``out``, with the GIL released once for all of them: (offsets (N + 1,) int64, errors (N,)
    int32, needed). File i's bytes are ``out[offsets[i]:offsets[i + 1]]``; ``errors[i]`` is
    the errno why it could not be read (its place then empty), else 0; ``needed`` is the bytes
    all the readable files take: more than ``out`` holds, and the files past its end were not
    read (call again with a buffer that large)."""
    _check_rows(paths, path_sizes, "read_files")
    cdef int64_t n = path_sizes.shape[0], needed, i
    offsets = np.zeros(n + 1, np.int64)
    errors = np.zeros(n, np.int32)
    cdef int64_t[::1] at = offsets
    cdef int32_t[::1] err = errors
    cdef uint8_t* dst = &out[0] if out.shape[0] else NULL
    for i in range(n):
        if path_sizes[i] == 0:
            raise ValueError(f"read_files: row {i} has an empty file name")
    with nogil:
        needed = c_read_files(&paths[0] if n else NULL, &path_sizes[0] if n else NULL, n, dst,
                              out.shape[0], &at[0], &err[0] if n else NULL)
    return offsets, errors, needed


# nvJPEG's nvjpegGetImageInfo (nvjpeg.h), called through an address ctypes gives
ctypedef int (*image_info_fn)(void* handle, const uint8_t* data, size_t length,
                              int* components, int* subsampling, int* widths,
                              int* heights) noexcept nogil


def nvjpeg_image_sizes(uintptr_t image_info, uintptr_t handle, const uint64_t[::1] data,
                       const uint64_t[::1] lengths, int64_t[:, ::1] out):
    """Calls nvJPEG's ``nvjpegGetImageInfo`` (its address ``image_info``, the library handle
    ``handle``) on each image (address ``data[k]``, ``lengths[k]`` bytes) with the GIL
    released once for the whole batch (not once per image: beside a training loop each
    re-take of the GIL may wait up to Python's switch interval), writing each image's (height,
    width) of its first component into ``out[k]``; with six columns also its number of
    components, its chroma subsampling (nvjpegChromaSubsampling_t) and its second component's
    (height, width) (0, 0 without one). Returns (-1, 0), or (k, status) for the first image
    whose call did not return 0 (``out`` rows from k on unwritten)."""
    cdef Py_ssize_t n = data.shape[0], k, failed = -1
    cdef int status = 0, components, subsampling
    cdef int widths[4]
    cdef int heights[4]
    cdef bint chroma = out.shape[1] == 6
    if lengths.shape[0] != n or out.shape[0] != n or out.shape[1] not in (2, 6):
        raise ValueError(f"nvjpeg_image_sizes: {n} images, {lengths.shape[0]} lengths and "
                         f"an out of shape ({out.shape[0]}, {out.shape[1]}): expected "
                         f"({n}, 2) or ({n}, 6)")
    if image_info == 0 or handle == 0:
        raise ValueError("nvjpeg_image_sizes: a null function or handle")
    cdef image_info_fn call = <image_info_fn>image_info
    with nogil:
        for k in range(n):
            status = call(<void*>handle, <const uint8_t*>data[k], lengths[k], &components,
                          &subsampling, widths, heights)
            if status != 0:
                failed = k
                break
            out[k, 0] = heights[0]
            out[k, 1] = widths[0]
            if chroma:
                out[k, 2] = components
                out[k, 3] = subsampling
                out[k, 4] = heights[1] if components > 1 else 0
                out[k, 5] = widths[1] if components > 1 else 0
    return int(failed), int(status)


def jpeg_scaled(int width, int height, int denom):
    """Size of a JPEG decoded at 1/denom: (width, height)."""
    cdef int w, h
    jpeg_scaled_size(width, height, denom, &w, &h)
    return w, h


def jpeg_decode_into(const uint8_t[::1] data, int denom, int x, int y,
                     uint8_t[:, :, ::1] out, long long max_pixels, int cmyk_rule=0):
    """Decodes the region of `out`'s size at (x, y) of the 1/denom-scaled image into `out` (RGB,
    or with one channel OpenCV imread's grey, MindSpore's read_image GRAYSCALE); a CMYK or YCCK
    file's colours converted as MindSpore's Decode does (cmyk_rule 0) or as OpenCV's imread (1:
    MindSpore's read_image)."""
    cdef char err[ERR_LEN]
    cdef cbool ok, gray
    err[0] = 0
    if data.shape[0] == 0:
        raise RuntimeError("image data is empty (0 bytes)")
    if out.shape[2] != 3 and out.shape[2] != 1:
        raise ValueError("JPEG output must have 3 channels (RGB) or 1 (grey)")
    gray = out.shape[2] == 1
    with nogil:
        ok = jpeg_decode_region(&data[0], data.shape[0], denom, x, y, <int>out.shape[1],
                                <int>out.shape[0], &out[0, 0, 0], out.strides[0], max_pixels,
                                err, ERR_LEN, 0, NULL, cmyk_rule, gray)
    if not ok:
        raise RuntimeError("invalid JPEG: " + err.decode("utf-8", "replace"))


cdef int _fill_spec(PassSpec* spec, const uint8_t[:, :, :] src, int virt_w, int virt_h,
                    double scale_x, double scale_y, double offset_x, double offset_y,
                    int interp, int win_x, int win_y, cbool hflip, cbool vflip, int point_op,
                    const float[::1] p0, const float[::1] p1, const float[::1] p2,
                    const float[::1] p3, cbool chw, object out) except -1:
    cdef int channels = <int>src.shape[2]
    if src.shape[0] == 0 or src.shape[1] == 0 or channels == 0:
        raise ValueError("source image is empty")
    if (channels > 1 and src.strides[2] != 1) or src.strides[1] != channels:
        raise ValueError("source pixels must be contiguous (HWC)")
    cdef cnp.ndarray arr = out
    if not cnp.PyArray_IS_C_CONTIGUOUS(arr):
        raise ValueError("output array must be C-contiguous")
    if point_op == POINT_NONE:
        if arr.dtype != np.uint8:
            raise ValueError("output must be uint8 without a pointwise op")
    elif arr.dtype != np.float32:
        raise ValueError("output must be float32 with a pointwise op")
    if point_op == POINT_TABLE:
        if p0.shape[0] < channels * 256:
            raise ValueError("a pointwise table needs 256 entries per channel")
    elif point_op != POINT_NONE and (p0.shape[0] < channels or p1.shape[0] < channels):
        raise ValueError("pointwise values need one entry per channel")
    if point_op == POINT_RESCALE_NORMALIZE and (p2.shape[0] < channels or p3.shape[0] < channels):
        raise ValueError("pointwise values need one entry per channel (p0..p3)")
    cdef int out_h, out_w
    if chw:
        if arr.ndim != 3 or arr.shape[0] != channels:
            raise ValueError("CHW output must have shape (channels, h, w)")
        out_h = <int>arr.shape[1]
        out_w = <int>arr.shape[2]
    else:
        if arr.ndim != 3 or arr.shape[2] != channels:
            raise ValueError("HWC output must have shape (h, w, channels)")
        out_h = <int>arr.shape[0]
        out_w = <int>arr.shape[1]
    spec.src = &src[0, 0, 0]
    spec.src_stride = src.strides[0]
    spec.box_w = <int>src.shape[1]
    spec.box_h = <int>src.shape[0]
    spec.channels = channels
    spec.virt_w = virt_w
    spec.virt_h = virt_h
    spec.scale_x = scale_x
    spec.scale_y = scale_y
    spec.offset_x = offset_x
    spec.offset_y = offset_y
    spec.interp = interp
    spec.win_x = win_x
    spec.win_y = win_y
    spec.out_w = out_w
    spec.out_h = out_h
    spec.hflip = hflip
    spec.vflip = vflip
    spec.point_op = point_op
    spec.p0 = &p0[0] if p0.shape[0] else NULL
    spec.p1 = &p1[0] if p1.shape[0] else NULL
    spec.p2 = &p2[0] if p2.shape[0] else NULL
    spec.p3 = &p3[0] if p3.shape[0] else NULL
    spec.chw = chw
    spec.out = cnp.PyArray_DATA(arr)
    return 0


_EMPTY = np.zeros(1, np.float32)


cdef double _plain_scale(Py_ssize_t box, int virt, int interp):
    if virt <= 0:
        return 1.0
    if interp == INTERP_PILCUBIC:
        return <double>box / virt
    return 1.0 / (<double>virt / box)


def resample(const uint8_t[:, :, :] src, object out, int virt_w, int virt_h, int interp,
             double scale_x=0.0, double scale_y=0.0, double offset_x=0.0, double offset_y=0.0,
             int win_x=0, int win_y=0, cbool hflip=False, cbool vflip=False, int point_op=0,
             const float[::1] p0=_EMPTY, const float[::1] p1=_EMPTY, cbool chw=False,
             const float[::1] p2=_EMPTY, const float[::1] p3=_EMPTY):
    """One pass src (H, W, C uint8, rows may be strided) -> out; see resample_pass.h.
    scale 0 means a plain resize of src: cv2's 1 / (virtual size / box size), or box size /
    virtual size for INTERP_PILCUBIC. p2, p3 are POINT_RESCALE_NORMALIZE's mean and std."""
    cdef PassSpec spec
    if scale_x == 0.0:
        scale_x = _plain_scale(src.shape[1], virt_w, interp)
    if scale_y == 0.0:
        scale_y = _plain_scale(src.shape[0], virt_h, interp)
    _fill_spec(&spec, src, virt_w, virt_h, scale_x, scale_y, offset_x, offset_y, interp,
               win_x, win_y, hflip, vflip, point_op, p0, p1, p2, p3, chw, out)
    cdef const char* message
    with nogil:
        message = run_pass(spec)
    if message != NULL:
        raise ValueError("resample: " + message.decode("utf-8"))
    return out


def decode_resample(const uint8_t[::1] data, int denom, int x, int y, int w, int h,
                    object out, int virt_w, int virt_h, int interp,
                    double scale_x, double scale_y, double offset_x, double offset_y,
                    int win_x, int win_y, cbool hflip, cbool vflip, int point_op,
                    const float[::1] p0, const float[::1] p1, cbool chw,
                    long long max_pixels, const float[::1] p2=_EMPTY, const float[::1] p3=_EMPTY):
    """Region/scaled JPEG decode of (x, y, w, h) at 1/denom followed by one resample pass, all
    without the GIL. The decoded region is the pass's source region."""
    if data.shape[0] == 0:
        raise RuntimeError("image data is empty (0 bytes)")
    if w <= 0 or h <= 0:
        raise ValueError("decode region is empty")
    # The decoded region lives in a per-thread scratch buffer reused across rows; a tiny numpy
    # view only carries the shape through the checks.
    cdef uint8_t[:, :, ::1] shape_probe = _PROBE
    cdef PassSpec spec
    _fill_spec(&spec, shape_probe, virt_w, virt_h, scale_x, scale_y, offset_x, offset_y,
               interp, win_x, win_y, hflip, vflip, point_op, p0, p1, p2, p3, chw, out)
    spec.box_w = w
    spec.box_h = h
    # Rows with room for libjpeg's cropped rows, decoded in place (see jpeg_decoder.h).
    cdef int room = w + kJpegCropRoom
    cdef int first_col = 0
    spec.src_stride = <Py_ssize_t>room * 3
    cdef char err[ERR_LEN]
    cdef cbool ok = False
    cdef const char* message = NULL
    cdef uint8_t* region = NULL
    cdef size_t nbytes = <size_t>room * <size_t>h * 3
    cdef uint8_t[::1] large
    err[0] = 0
    if nbytes > _SCRATCH_LIMIT:  # rare huge regions: a temporary, so no thread keeps it
        large = np.empty(nbytes, np.uint8)
        region = &large[0]
    with nogil:
        if region == NULL:
            region = thread_scratch(nbytes)
        if region != NULL:
            ok = jpeg_decode_region(&data[0], data.shape[0], denom, x, y, w, h, region,
                                    spec.src_stride, max_pixels, err, ERR_LEN, room,
                                    &first_col)
            if ok:
                spec.src = region + <Py_ssize_t>first_col * 3
                message = run_pass(spec)
    if region == NULL:
        raise MemoryError(f"cannot allocate {w}x{h} pixels for a decoded JPEG region")
    if not ok:
        raise RuntimeError("invalid JPEG: " + err.decode("utf-8", "replace"))
    if message != NULL:
        raise ValueError("resample: " + message.decode("utf-8"))
    return out


_PROBE = np.zeros((1, 1, 3), np.uint8)


# ---- splitmix64 randomness (see transforms_c/_rng.py) ----------------------------------------
from libc.stdint cimport uint64_t
from libc.math cimport log, exp, sqrt, cos

cdef uint64_t _GOLDEN = 0x9E3779B97F4A7C15ULL


cdef inline uint64_t _mix64(uint64_t z) nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


def splitmix64(value):
    """First splitmix64 output of a generator seeded with `value` (taken modulo 2**64)."""
    cdef uint64_t v = <uint64_t>(int(value) & 0xFFFFFFFFFFFFFFFF)
    return _mix64(v + _GOLDEN)


def derive_seed(seed, index):
    """Seed of the index-th op inside a composed or fused run seeded with `seed`."""
    cdef uint64_t s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    cdef uint64_t i = <uint64_t>(int(index) & 0xFFFFFFFFFFFFFFFF)
    return _mix64((s ^ _mix64(i + 1 + _GOLDEN)) + _GOLDEN)


cdef inline uint64_t _next_u64(uint64_t* state) noexcept nogil:
    """The next output of the splitmix64 stream whose state is *state."""
    state[0] += _GOLDEN
    return _mix64(state[0])


cdef inline double _next_unit(uint64_t* state) noexcept nogil:
    """A uniform double in [0, 1) from the stream's next output (its top 53 bits)."""
    return (_next_u64(state) >> 11) * (1.0 / 9007199254740992.0)


cdef class Rng:
    """splitmix64 stream: uniform doubles in [0, 1) and bounded integers."""
    cdef uint64_t _state

    def __init__(self, seed):
        self._state = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)

    cpdef uint64_t next_u64(self):
        return _next_u64(&self._state)

    cpdef double random(self):
        return _next_unit(&self._state)

    cpdef double uniform(self, double low, double high):
        return low + (high - low) * self.random()

    def randint(self, low, high):
        """Integer in [low, high], both ends included."""
        if high <= low:
            return int(low)
        return int(low) + int(self.next_u64() % <uint64_t>(int(high) - int(low) + 1))

    cpdef double log_uniform(self, double low, double high):
        return exp(self.uniform(log(low), log(high)))

    cpdef double gauss(self):
        """Standard normal (Box-Muller, one output per two uniforms)."""
        cdef double u1 = self.random()
        cdef double u2 = self.random()
        if u1 < 1e-300:
            u1 = 1e-300
        return sqrt(-2.0 * log(u1)) * cos(2.0 * 3.141592653589793 * u2)

    cpdef double gamma(self, double shape):
        """Gamma(shape, 1) (Marsaglia-Tsang)."""
        cdef double d, c, x, v, u
        if shape < 1.0:
            return self.gamma(shape + 1.0) * self.random() ** (1.0 / shape)
        d = shape - 1.0 / 3.0
        c = 1.0 / sqrt(9.0 * d)
        while True:
            x = self.gauss()
            v = (1.0 + c * x) ** 3
            if v <= 0:
                continue
            u = self.random()
            if u < 1e-300:
                u = 1e-300
            if log(u) < 0.5 * x * x + d - d * v + d * log(v):
                return d * v

    cpdef double beta(self, double a, double b):
        """Beta(a, b) through two gamma draws."""
        cdef double x = self.gamma(a)
        cdef double y = self.gamma(b)
        return x / (x + y) if x + y > 0 else 0.5


# ---- the draws of a whole batch, with the GIL released (the GPU batch node's rows) --------------
from libc.stdint cimport int64_t
from libc.math cimport floor


cdef inline int64_t _randint(uint64_t* state, int64_t low, int64_t high) noexcept nogil:
    """Rng.randint(low, high) for bounds within int64."""
    if high <= low:
        return low
    return low + <int64_t>(_next_u64(state) % <uint64_t>(high - low + 1))


cdef void _resized_crop_box(int64_t height, int64_t width, uint64_t seed, double scale_lo,
                            double scale_hi, double log_lo, double log_hi, double ratio_lo,
                            double ratio_hi, int max_attempts, int64_t* box) noexcept nogil:
    """transforms_c.vision.resized_crop.random_resized_crop_box, step for step in the same
    double arithmetic (-ffp-contract=off: no fused multiply-add). Sizes stay doubles until they
    are known to fit the image: a tiny ratio can make a window far beyond int64."""
    cdef uint64_t state = seed
    # the product rounded once, as Python's float(height * width); no int64 overflow
    cdef double area = <double>height * <double>width
    cdef double target, aspect, crop_w, crop_h
    cdef int attempt
    for attempt in range(max_attempts):
        target = (scale_lo + (scale_hi - scale_lo) * _next_unit(&state)) * area
        aspect = exp(log_lo + (log_hi - log_lo) * _next_unit(&state))
        crop_w = floor(sqrt(target * aspect) + 0.5)
        if crop_w < 1.0:
            crop_w = 1.0
        crop_h = floor(crop_w / aspect + 0.5)
        if crop_h < 1.0:
            crop_h = 1.0
        if crop_w <= width and crop_h <= height:
            box[1] = _randint(&state, 0, width - <int64_t>crop_w)
            box[0] = _randint(&state, 0, height - <int64_t>crop_h)
            box[2] = <int64_t>crop_h
            box[3] = <int64_t>crop_w
            return
    # no attempt fitted: the centred largest window with its ratio clamped into [lo, hi]
    cdef double in_ratio = <double>width / <double>height
    crop_w = width
    crop_h = height
    if in_ratio < ratio_lo:
        crop_h = floor(crop_w / ratio_lo + 0.5)
        crop_h = min(<double>height, max(1.0, crop_h))
    elif in_ratio > ratio_hi:
        crop_w = floor(crop_h * ratio_hi + 0.5)
        crop_w = min(<double>width, max(1.0, crop_w))
    box[2] = <int64_t>crop_h
    box[3] = <int64_t>crop_w
    box[0] = (height - box[2] + 1) // 2
    box[1] = (width - box[3] + 1) // 2


def random_resized_crop_boxes(const int64_t[::1] heights, const int64_t[::1] widths,
                              const uint64_t[::1] seeds, scale, ratio, int max_attempts):
    """(N, 4) int64 (top, left, crop_h, crop_w): random_resized_crop_box(heights[i],
    widths[i], scale, ratio, max_attempts, Rng(seeds[i])) for every row, with the GIL released.
    Heights and widths must be positive (image sizes)."""
    cdef Py_ssize_t n = heights.shape[0], i
    if widths.shape[0] != n or seeds.shape[0] != n:
        raise ValueError(f"heights, widths and seeds must have one entry per row, but got "
                         f"{n}, {widths.shape[0]} and {seeds.shape[0]}")
    for i in range(n):
        if heights[i] < 1 or widths[i] < 1:
            raise ValueError(f"row {i}: image size {heights[i]}x{widths[i]} is not positive")
    cdef double scale_lo = float(scale[0]), scale_hi = float(scale[1])
    cdef double ratio_lo = float(ratio[0]), ratio_hi = float(ratio[1])
    cdef double log_lo = log(ratio_lo), log_hi = log(ratio_hi)
    out = np.empty((n, 4), np.int64)
    cdef int64_t[:, ::1] boxes = out
    with nogil:
        for i in range(n):
            _resized_crop_box(heights[i], widths[i], seeds[i], scale_lo, scale_hi, log_lo, log_hi,
                              ratio_lo, ratio_hi, max_attempts, &boxes[i, 0])
    return out


def coin_flips(const uint64_t[::1] seeds, double prob):
    """Rng(seed).random() < prob for every seed (a random flip's draw), as a bool array."""
    cdef Py_ssize_t n = seeds.shape[0], i
    out = np.empty(n, np.bool_)
    cdef cnp.npy_bool[::1] flips = out.view(np.uint8)
    cdef uint64_t state
    with nogil:
        for i in range(n):
            state = seeds[i]
            flips[i] = _next_unit(&state) < prob
    return out
