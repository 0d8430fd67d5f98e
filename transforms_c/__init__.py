"""Native transforms: C++ kernels (src/) bound with Cython, op classes in `vision` and
`transforms`, and the plan compiler that fuses runs of native ops (`compile_operations`).
Never imports minddata: configuration (such as the eager seed) is passed in."""
from transforms_c import settings
from transforms_c._rng import derive_seed
from transforms_c.fusion import FusedPlan, compile_operations

__all__ = ["compile_operations", "FusedPlan", "derive_seed", "settings", "vision", "transforms"]


def __getattr__(name):
    # vision and transforms load on first use (keeps `import transforms_c` light).
    if name in ("vision", "transforms"):
        import importlib
        return importlib.import_module(f"transforms_c.{name}")
    raise AttributeError(f"module 'transforms_c' has no attribute {name!r}")
