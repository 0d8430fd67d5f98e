# distutils: sources = transforms_c/src/batch_engine.cpp transforms_c/src/row_plan.cpp transforms_c/src/file_read.cpp transforms_c/src/native_step.cpp transforms_c/src/jpeg_decoder.cpp transforms_c/src/resample_pass.cpp transforms_c/src/steps/decode.cpp transforms_c/src/steps/crop.cpp transforms_c/src/steps/resize.cpp transforms_c/src/steps/resized_crop.cpp transforms_c/src/steps/flip.cpp transforms_c/src/steps/normalize.cpp
# distutils: extra_compile_args = -ffp-contract=off
"""Cython binding of the native row plan (src/row_plan.h) and batch engine (src/batch_engine.h):
C++ threads that run a fused plan over whole batches without the interpreter lock
(BatchEngineHandle; the Python side, minddata.engine.native_batch, builds the plan from the ops'
declarations and owns the buffers), and the same plan run on one row in the calling thread
(RowPlanHandle: the per-row path of transforms_c.fusion.FusedPlan and the device tail's CPU
pass), so a fused run of native ops is folded in one place, the C++ steps.

A plan is a list of step dicts, one per op, as each op's native_step() declares it: "kind" names
a native step registered by its own unit in src/steps/ (listed in the sources directive above,
one file per op module), every other key is a number or a list of numbers the step reads when
the plan is built. Each kind's parameters (types, ranges, counts) are declared by its op's schema
(transforms_c/schema.py), which registers them here when the op class is defined
(register_step_schema); a plan's steps are checked against them when it is built: an unknown
kind, or a missing, unknown, malformed or out-of-range parameter, is a ValueError then."""
from libc.stdint cimport uint8_t, uint64_t, int64_t, int8_t
from libcpp cimport bool as cbool
from libcpp.map cimport map as cmap
from libcpp.memory cimport unique_ptr
from libcpp.string cimport string
from libcpp.utility cimport move, pair
from libcpp.vector cimport vector
from cpython.exc cimport PyErr_CheckSignals

import numpy as np
cimport numpy as cnp

cnp.import_array()


cdef extern from "native_step.h" namespace "mdt":
    cdef cppclass StepArgs:
        StepArgs()
        StepArgs(string kind, cmap[string, vector[double]] values)
    cdef cppclass ParamSpec:
        int type
        cbool has_low, has_high
        double low, high
        cbool low_open, high_open
        int length
    void c_register_step_schema "mdt::register_step_schema"(
        const string& kind, const cmap[string, ParamSpec]& schema) except +
    cmap[string, cmap[string, ParamSpec]] c_step_schemas "mdt::step_schemas"()
    cdef cppclass ImageShape:
        int height, width, channels
        cbool float_output, chw


cdef extern from "row_plan.h" namespace "mdt":
    cdef cppclass RowInput:
        const uint8_t* data
        size_t size
        int height, width, channels
        Py_ssize_t stride
    cdef cppclass RowResult:
        int8_t status
        string message
    cdef cppclass RowPlan:
        RowPlan()
        RowPlan(const vector[StepArgs]& steps, int input_kind, long long max_pixels) except +
        ImageShape output_shape(ImageShape input)
        RowResult run(const RowInput& input, const uint64_t* seeds, void* out, int out_h,
                      int out_w, int out_c, vector[uint8_t]* file_buffer) nogil
    uint64_t row_seed(uint64_t base, uint64_t row) nogil


cdef extern from "jpeg_decoder.h" namespace "mdt":
    cdef cppclass JpegHeader:
        int width, height, components
    cbool jpeg_read_info(const uint8_t* data, size_t size, JpegHeader* header, char* err,
                         size_t err_len) nogil


cdef extern from "batch_engine.h" namespace "mdt":
    cdef cppclass BatchJob:
        int64_t id
        vector[RowInput] inputs
        vector[uint64_t] seeds
        uint8_t* out
        size_t row_bytes
        int out_h, out_w, out_c
        vector[RowResult] results
    cdef cppclass BatchEngine:
        BatchEngine(RowPlan plan, int num_steps, int threads) except +
        int64_t submit(unique_ptr[BatchJob] job)
        unique_ptr[BatchJob] wait(int64_t id, int timeout_ms, cbool* timed_out) nogil
        void stop() nogil


INPUT_ENCODED = 0
INPUT_FILE = 1
INPUT_IMAGE = 2

ROW_OK = 0
ROW_FALLBACK = 1
ROW_ERROR = 2


_PARAM_TYPES = ("int", "float", "bool")     # ParamSpec::Type, in order


def register_step_schema(kind, params):
    """Declares the parameters of native step `kind`: {name: (type, low, high, low_open,
    high_open, length)}, type "int", "float" or "bool", low/high None when unbounded, length the
    number of values (0: one or more). Every plan's steps of that kind are checked against it
    when the plan is built. ValueError when no step of that kind is compiled in, or when the kind
    already has other parameters."""
    cdef cmap[string, ParamSpec] schema
    cdef ParamSpec spec
    for name, (kind_of, low, high, low_open, high_open, length) in params.items():
        if kind_of not in _PARAM_TYPES:
            raise ValueError(f"native step {kind!r}: parameter {name!r} has type {kind_of!r}, "
                             f"expected one of {_PARAM_TYPES}")
        spec.type = _PARAM_TYPES.index(kind_of)
        spec.has_low = low is not None
        spec.low = 0.0 if low is None else float(low)
        spec.has_high = high is not None
        spec.high = 0.0 if high is None else float(high)
        spec.low_open = bool(low_open)
        spec.high_open = bool(high_open)
        spec.length = int(length)
        schema[str(name).encode()] = spec
    c_register_step_schema(str(kind).encode(), schema)


def step_schemas():
    """The registered step schemas: {kind: {name: (type, low, high, low_open, high_open,
    length)}} (as register_step_schema takes them)."""
    cdef cmap[string, cmap[string, ParamSpec]] registered
    cdef pair[string, cmap[string, ParamSpec]] kind_item
    cdef pair[string, ParamSpec] param_item
    cdef ParamSpec spec
    _load_schemas()
    registered = c_step_schemas()
    out = {}
    for kind_item in registered:
        params = {}
        for param_item in kind_item.second:
            spec = param_item.second
            params[param_item.first.decode()] = (
                _PARAM_TYPES[spec.type], spec.low if spec.has_low else None,
                spec.high if spec.has_high else None, spec.low_open, spec.high_open, spec.length)
        out[kind_item.first.decode()] = params
    return out


_schemas_loaded = False


def _load_schemas():
    """The ops' schemas register their steps when their classes are defined: a plan built
    before transforms_c.vision was imported imports it first."""
    global _schemas_loaded
    if not _schemas_loaded:
        import transforms_c.vision  # noqa: F401  (registers the step schemas)
        _schemas_loaded = True


cdef vector[StepArgs] _step_args(steps) except *:
    """The C++ form of a plan's step dicts (checked by RowPlan when it builds the steps)."""
    cdef vector[StepArgs] out
    cdef cmap[string, vector[double]] values
    cdef vector[double] numbers
    _load_schemas()
    for d in steps:
        kind = d.get("kind")
        if not isinstance(kind, str):
            raise TypeError(f"native step {d!r}: 'kind' must be a str naming the step")
        values.clear()
        for key, value in d.items():
            if key == "kind":
                continue
            numbers.clear()
            try:
                for v in (value if isinstance(value, (list, tuple)) else (value,)):
                    numbers.push_back(float(v))
            except (TypeError, ValueError):
                raise TypeError(f"native step {kind!r}: parameter {key!r} must be a number or a "
                                f"list of numbers, got {value!r}") from None
            values[str(key).encode()] = numbers
        out.push_back(StepArgs(kind.encode(), values))
    return out


def row_layout(steps, image_shape):
    """((height, width, channels), float_output, chw) of the rows a plan writes, for input
    images of `image_shape` (h, w, c; None when each row's encoded image decides), or None when
    the output size depends on the image. Builds the plan's steps (a ValueError for a bad one)."""
    cdef RowPlan plan = RowPlan(_step_args(steps), INPUT_ENCODED, 0)
    cdef ImageShape shape
    if image_shape is not None:
        shape.height, shape.width, shape.channels = image_shape[:3]
    shape = plan.output_shape(shape)
    if shape.height < 0 or shape.width < 0:
        return None
    return (shape.height, shape.width, shape.channels), shape.float_output, shape.chw


cdef class BatchEngineHandle:
    """C++ threads running one plan (a list of step dicts) over submitted batches."""
    cdef BatchEngine* engine
    cdef int num_steps
    cdef dict _keep          # job id -> objects the C++ side points into

    def __cinit__(self, steps, int input_kind, long long max_pixels, int threads):
        cdef vector[StepArgs] args = _step_args(steps)
        self.num_steps = len(steps)
        self._keep = {}
        self.engine = new BatchEngine(RowPlan(args, input_kind, max_pixels), self.num_steps,
                                      threads)

    def __dealloc__(self):
        if self.engine != NULL:
            with nogil:
                self.engine.stop()
            del self.engine
            self.engine = NULL

    def stop(self):
        """Stops the threads (rows being run finish first); later waits return None."""
        if self.engine != NULL:
            with nogil:
                self.engine.stop()
        self._keep.clear()

    def submit(self, const uint64_t[::1] addresses, const int64_t[::1] sizes,
               const uint64_t[::1] bases, uint64_t first_row, cnp.ndarray out, row_hwc,
               keepalive, image_shape=None):
        """Queues one batch: row i reads `sizes[i]` bytes at `addresses[i]` (or a decoded image
        of `image_shape` (h, w, c, row stride) there), is seeded row_seed(bases[k], first_row +
        i) for step k, and is written into out[i], whose (height, width, channels) are `row_hwc`
        (in CHW or HWC layout, as the plan says). Returns the job id."""
        if self.engine == NULL:
            raise RuntimeError("the native batch engine is stopped")
        cdef Py_ssize_t n = addresses.shape[0]
        cdef Py_ssize_t k, i
        if sizes.shape[0] != n or bases.shape[0] != self.num_steps:
            raise ValueError("addresses, sizes and bases do not match the plan")
        out_h, out_w, out_c = row_hwc
        if (out.ndim < 2 or out.shape[0] < n or not cnp.PyArray_IS_C_CONTIGUOUS(out)
                or out.strides[0] != out_h * out_w * out_c * out.itemsize):
            raise ValueError("out must be a C-contiguous array with one slot of row_hwc per row")
        cdef unique_ptr[BatchJob] job = unique_ptr[BatchJob](new BatchJob())
        cdef BatchJob* j = job.get()
        cdef RowInput rin
        cdef int h = 0, w = 0, c = 0
        cdef Py_ssize_t stride = 0
        if image_shape is not None:
            h, w, c, stride = image_shape
        j.inputs.resize(n)
        j.seeds.resize(n * self.num_steps)
        for i in range(n):
            rin.data = <const uint8_t*><size_t>addresses[i]
            rin.size = <size_t>sizes[i]
            rin.height = h
            rin.width = w
            rin.channels = c
            rin.stride = stride
            j.inputs[i] = rin
            for k in range(self.num_steps):
                j.seeds[i * self.num_steps + k] = row_seed(bases[k], first_row + <uint64_t>i)
        j.out = <uint8_t*>cnp.PyArray_DATA(out)
        j.row_bytes = <size_t>out.strides[0]
        j.out_h, j.out_w, j.out_c = out_h, out_w, out_c
        # Submitting only queues the batch (a mutex the threads hold for a few instructions):
        # keeping the GIL here saves a hand-over of it per batch, which a busy Python thread
        # beside the pipeline (a training loop) would make cost up to one switch interval.
        cdef int64_t job_id = self.engine.submit(move(job))
        self._keep[job_id] = (out, keepalive)
        return job_id

    def wait(self, int64_t job_id):
        """Blocks (without the GIL) until batch `job_id` ran; returns (statuses, messages):
        an int8 array (ROW_OK, ROW_FALLBACK, ROW_ERROR per row) and {row: message} for errors.
        None when the engine was stopped."""
        if self.engine == NULL:
            return None
        cdef unique_ptr[BatchJob] job
        cdef cbool timed_out = True
        while timed_out:
            with nogil:
                job = self.engine.wait(job_id, 100, &timed_out)
            if timed_out:
                # Back in the interpreter every 100 ms: Ctrl-C (and other signals) are handled
                # while a slow batch runs; the rows in flight finish, nothing is left behind.
                PyErr_CheckSignals()
        self._keep.pop(job_id, None)
        if job.get() == NULL:
            return None
        cdef Py_ssize_t n = job.get().results.size()
        statuses = np.empty(n, np.int8)
        cdef int8_t[::1] st = statuses
        messages = {}
        cdef Py_ssize_t i
        for i in range(n):
            st[i] = job.get().results[i].status
            if st[i] == ROW_ERROR:
                messages[i] = job.get().results[i].message.decode("utf-8", "replace")
        return statuses, messages


cdef class RowPlanHandle:
    """One plan (a list of step dicts) run on one row at a time, synchronously in the calling
    thread with the GIL released (no engine threads): the per-row path of a fused plan of native
    ops. `input_kind` is INPUT_ENCODED (a row is a 1-D uint8 array of encoded bytes; only JPEG
    folds, other formats are ROW_FALLBACK) or INPUT_IMAGE (a row is a decoded (H, W[, C]) uint8
    image). Safe to use from several threads at once (the plan is read-only)."""
    cdef RowPlan plan
    cdef int num_steps
    cdef int input_kind

    def __cinit__(self, steps, int input_kind, long long max_pixels):
        if input_kind != INPUT_ENCODED and input_kind != INPUT_IMAGE:
            raise ValueError(f"input_kind must be INPUT_ENCODED ({INPUT_ENCODED}) or "
                             f"INPUT_IMAGE ({INPUT_IMAGE}), got {input_kind}")
        cdef vector[StepArgs] args = _step_args(steps)
        self.plan = RowPlan(args, input_kind, max_pixels)
        self.num_steps = len(steps)
        self.input_kind = input_kind

    def output_layout(self, int height, int width, int channels):
        """((height, width, channels), float_output, chw) of the row the plan writes for an
        input image of that size (RowPlan::output_shape), or None when it cannot tell."""
        cdef ImageShape shape
        shape.height, shape.width, shape.channels = height, width, channels
        shape = self.plan.output_shape(shape)
        if shape.height < 0 or shape.width < 0:
            return None
        return (shape.height, shape.width, shape.channels), shape.float_output, shape.chw

    def run_row(self, data, seeds, out=None, image_size=None):
        """Runs the plan on one row with one seed per step (Python ints, taken modulo 2**64).
        `data`: the row (see the class doc); `image_size`: (width, height) an encoded JPEG's
        header declares, when the caller read it already. Returns the output array (float32
        when the plan ends in a pointwise step, else uint8; (C, H, W) when it lays out CHW; a
        2-D input image gives a 2-D output when the layout keeps H, W) written into `out` when
        given (a C-contiguous array of that size and dtype), or None when the plan leaves the
        row to the ops one by one: a row that does not fold (ROW_FALLBACK) or that failed
        (ROW_ERROR: the ops' own path then gives the error)."""
        if len(seeds) != self.num_steps:
            raise ValueError(f"expected {self.num_steps} seeds, got {len(seeds)}")
        cdef vector[uint64_t] row_seeds
        for seed in seeds:
            row_seeds.push_back(<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
        cdef RowInput rin
        cdef ImageShape shape
        cdef JpegHeader header
        cdef char err[256]
        cdef cnp.ndarray src = data
        cdef bint flat = False
        if src.dtype != np.uint8:
            raise TypeError(f"the row must be a uint8 array, got {src.dtype}")
        if self.input_kind == INPUT_ENCODED:
            if src.ndim != 1 or not cnp.PyArray_IS_C_CONTIGUOUS(src):
                raise ValueError("an encoded row must be a 1-D C-contiguous uint8 array")
            rin.data = <const uint8_t*>cnp.PyArray_DATA(src)
            rin.size = <size_t>src.shape[0]
            if image_size is None:
                with nogil:
                    ok = jpeg_read_info(rin.data, rin.size, &header, err, 256)
                if not ok:
                    return None
                shape.width, shape.height = header.width, header.height
            else:
                shape.width, shape.height = image_size
            shape.channels = 3
        else:
            if src.ndim == 2:
                flat = True
                src = src[:, :, None]
            elif src.ndim != 3:
                raise ValueError(f"an image row must be (H, W) or (H, W, C), got shape "
                                 f"{data.shape}")
            if (src.shape[2] > 1 and src.strides[2] != 1) or src.strides[1] != src.shape[2] \
                    or src.strides[0] < 0:
                src = np.ascontiguousarray(src)
            rin.data = <const uint8_t*>cnp.PyArray_DATA(src)
            rin.height, rin.width, rin.channels = src.shape[0], src.shape[1], src.shape[2]
            rin.stride = src.strides[0]
            shape.height, shape.width, shape.channels = rin.height, rin.width, rin.channels
            if src.size == 0:
                return None
        shape = self.plan.output_shape(shape)
        if shape.height <= 0 or shape.width <= 0:
            return None
        dims = ((shape.channels, shape.height, shape.width) if shape.chw
                else (shape.height, shape.width, shape.channels))
        dtype = np.float32 if shape.float_output else np.uint8
        cdef cnp.ndarray result
        if out is None:
            result = np.empty(dims, dtype)
        else:
            result = out
            if (result.dtype != dtype or not cnp.PyArray_IS_C_CONTIGUOUS(result)
                    or result.size != shape.height * shape.width * shape.channels):
                raise ValueError(f"out must be a C-contiguous {np.dtype(dtype)} array of "
                                 f"{dims}, got {out.dtype} {out.shape}")
        cdef void* out_ptr = cnp.PyArray_DATA(result)
        cdef vector[uint8_t] file_buffer
        cdef RowResult status
        with nogil:
            status = self.plan.run(rin, row_seeds.data(), out_ptr, shape.height, shape.width,
                                   shape.channels, &file_buffer)
        if status.status != ROW_OK:
            return None
        if out is not None:
            return out
        if flat:
            return result.reshape(dims[1:] if shape.chw else dims[:2])
        return result
