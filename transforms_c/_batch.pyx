# distutils: sources = transforms_c/src/batch_engine.cpp transforms_c/src/row_plan.cpp transforms_c/src/jpeg_decoder.cpp transforms_c/src/resample_pass.cpp
# distutils: extra_compile_args = -ffp-contract=off
"""Cython binding of the native batch engine (src/batch_engine.h, src/row_plan.h): C++ threads
that run a fused plan over whole batches without the interpreter lock. The Python side
(transforms_c.native_batch) builds the plan from the ops' declarations and owns the buffers."""
from libc.stdint cimport uint8_t, uint64_t, int64_t, int8_t
from libcpp cimport bool as cbool
from libcpp.memory cimport unique_ptr
from libcpp.string cimport string
from libcpp.utility cimport move
from libcpp.vector cimport vector
from cpython.exc cimport PyErr_CheckSignals

import numpy as np
cimport numpy as cnp

cnp.import_array()


cdef extern from "row_plan.h" namespace "mdt":
    cdef cppclass Step:
        int kind
        int size_h, size_w, top, left, interp
        double scale_lo, scale_hi, ratio_lo, ratio_hi
        int max_attempts
        cbool approximate
        int axis
        double prob
        vector[float] a, b
    cdef cppclass RowInput:
        const uint8_t* data
        size_t size
        int height, width, channels
        Py_ssize_t stride
    cdef cppclass RowResult:
        int8_t status
        string message
    cdef cppclass RowPlan:
        RowPlan(vector[Step] steps, int input_kind, long long max_pixels) except +
    uint64_t row_seed(uint64_t base, uint64_t row) nogil


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


STEP_DECODE = 0
STEP_RANDOM_RESIZED_CROP = 1
STEP_RESIZE = 2
STEP_CROP = 3
STEP_CENTER_CROP = 4
STEP_RANDOM_CROP = 5
STEP_FLIP = 6
STEP_NORMALIZE = 7
STEP_RESCALE = 8
STEP_HWC2CHW = 9

INPUT_ENCODED = 0
INPUT_FILE = 1
INPUT_IMAGE = 2

ROW_OK = 0
ROW_FALLBACK = 1
ROW_ERROR = 2


cdef Step _step(dict d) except *:
    cdef Step s
    s.kind = d["kind"]
    s.size_h = d.get("size_h", 0)
    s.size_w = d.get("size_w", 0)
    s.top = d.get("top", 0)
    s.left = d.get("left", 0)
    s.interp = d.get("interp", 0)
    s.scale_lo, s.scale_hi = d.get("scale", (0.0, 0.0))
    s.ratio_lo, s.ratio_hi = d.get("ratio", (0.0, 0.0))
    s.max_attempts = d.get("max_attempts", 10)
    s.approximate = d.get("approximate", False)
    s.axis = d.get("axis", 0)
    s.prob = d.get("prob", 1.0)
    for v in d.get("a", ()):
        s.a.push_back(v)
    for v in d.get("b", ()):
        s.b.push_back(v)
    return s


cdef class BatchEngineHandle:
    """C++ threads running one plan (a list of step dicts) over submitted batches."""
    cdef BatchEngine* engine
    cdef int num_steps
    cdef dict _keep          # job id -> objects the C++ side points into

    def __cinit__(self, steps, int input_kind, long long max_pixels, int threads):
        cdef vector[Step] cs
        for d in steps:
            cs.push_back(_step(d))
        self.num_steps = len(steps)
        self._keep = {}
        self.engine = new BatchEngine(RowPlan(cs, input_kind, max_pixels), self.num_steps,
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
