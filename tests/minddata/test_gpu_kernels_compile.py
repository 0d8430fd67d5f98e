"""The GPU path's Triton kernels compile for the GPUs the project is measured on (Hopper: H100,
H200; and Ampere's A100), down to the cubin, on this machine without a GPU: Triton's wheel
brings its compiler and ptxas. The interpreter tests check what the kernels compute; this
checks what only a compiler sees (types of loop bounds, of scalars mixed with vectors, of
shifts), which the interpreter's numpy accepts."""
import importlib.util

import pytest

pytest.importorskip("torch")

from minddata.gpu import resample_kernel, ycbcr_to_rgb                     # noqa: E402


def _compiler():
    """(triton, GPUTarget, ASTSource), or a skip where this Triton lacks them."""
    if importlib.util.find_spec("triton") is None:
        pytest.skip("Triton is not installed (pip install triton)")
    import triton
    try:
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
    except ImportError as exc:
        pytest.skip(f"this Triton compiles ahead of time otherwise ({exc})")
    return triton, GPUTarget, ASTSource


def _compile(kernel, signature, constants, arch):
    triton, target, source = _compiler()
    signature = dict(signature, **{name: "constexpr" for name in constants})
    try:
        compiled = triton.compile(source(fn=kernel.jitted(), signature=signature,
                                         constexprs=constants), target=target("cuda", arch, 32))
    except RuntimeError as exc:
        if "ptxas" in str(exc) and "not found" in str(exc):
            pytest.skip(f"no ptxas here ({exc})")
        raise
    assert compiled.asm.get("cubin"), "no cubin"
    return compiled


@pytest.mark.parametrize("arch", [90, 80])
def test_the_ycbcr_conversion_compiles(arch):
    constants = {"CR_R": ycbcr_to_rgb._CR_R, "CB_B": ycbcr_to_rgb._CB_B,
                 "CB_G": ycbcr_to_rgb._CB_G, "CR_G": ycbcr_to_rgb._CR_G,
                 "HALF": ycbcr_to_rgb._HALF, "COLUMNS": ycbcr_to_rgb.LAYOUT_COLUMNS,
                 "PROGRAMS": ycbcr_to_rgb.PROGRAMS,
                 "BLOCK": ycbcr_to_rgb.BLOCK}
    _compile(ycbcr_to_rgb.KERNEL, {"src": "*u8", "layout": "*i64", "out": "*u8"}, constants,
             arch)


@pytest.mark.parametrize("exact, inside, flip, points", [
    (False, True, True, 2),         # the train map: RandomResizedCrop, flip, Normalize
    (True, False, False, 0),        # a CenterCrop wider than some images, uint8 out
])
def test_the_fused_resample_compiles(exact, inside, flip, points):
    out = "*fp32" if points else "*u8"
    signature = {"src": "*u8", "meta": "*i64", "scales": "*fp32", "flips": "*i32",
                 "points": "*fp32", "out": out, "out_h": "i32", "out_w": "i32"}
    constants = {"CHANNELS": 3, "EXACT": exact, "INSIDE": inside, "FLIP": flip,
                 "POINTS": points, "BLOCK": resample_kernel.BLOCK}
    _compile(resample_kernel.KERNEL, signature, constants, 90)
