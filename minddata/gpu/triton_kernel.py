"""What the GPU path's Triton kernels share (resample_kernel.py, ycbcr_to_rgb.py): Triton
imported only when a kernel is first wanted, whether a kernel runs on a device, and launches
one at a time that remember a kernel which did not compile.

Launches go one at a time: the first launch of each variant compiles it, and Triton's
interpreter (TRITON_INTERPRET=1: the tests, on the CPU) is not thread-safe; a launch is
microseconds of CPU beside a batch's milliseconds."""
import os
import threading


class KernelUnavailable(RuntimeError):
    """The kernel did not compile here (Triton without a working compiler or driver for this
    GPU); the cause is chained. The caller does the work with torch operations instead."""


class TritonKernel:
    def __init__(self, what, make):
        """``what``: the kernel in words (for the errors); ``make(triton, tl)``: the jitted
        kernel, called once, when first wanted."""
        self.what, self._make = what, make
        self._lock = threading.Lock()
        self._jitted = None
        self.launched = set()       # variants (the caller's keys) that compiled and ran
        self.failure = None         # why the kernel could not be compiled, once it could not

    def jitted(self):
        """The jitted kernel, or None where Triton does not import."""
        if self._jitted is None:
            try:
                import triton
                import triton.language as tl
            except Exception:       # absent, or built for another torch
                self._jitted = False
            else:
                self._jitted = self._make(triton, tl)
        return self._jitted or None

    def runs_on(self, device):
        """Whether the kernel runs on ``device``: CUDA with Triton installed, or any device
        under Triton's interpreter; not once it failed to compile."""
        interpreted = os.environ.get("TRITON_INTERPRET") == "1"
        return (device.type == "cuda" or interpreted) and self.failure is None \
            and self.jitted() is not None

    def launch(self, grid, variant, *args, **constants):
        """Runs the kernel over ``grid``. A failure of a ``variant`` that never ran is taken
        for a compiler that does not work here: KernelUnavailable, now and for every later
        launch; a variant that ran before raises its failure as it is (a real error of this
        launch)."""
        with self._lock:
            if self.failure is not None:
                raise KernelUnavailable(self.failure)
            try:
                self.jitted()[grid](*args, **constants)
            except Exception as exc:
                if variant in self.launched:
                    raise
                self.failure = f"the {self.what} did not compile: {type(exc).__name__}: {exc}"
                raise KernelUnavailable(self.failure) from exc
            self.launched.add(variant)


__all__ = ["KernelUnavailable", "TritonKernel"]
