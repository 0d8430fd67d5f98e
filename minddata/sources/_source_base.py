"""Where the file sources get the engine core's base classes and the Shuffle enum.

``RowSource`` (minddata/sources/base.py), ``SourceDataset`` (minddata/ops/source.py) and
``Shuffle`` (minddata/samplers.py) belong to the engine core (docs/internals.md); importing them
through this one module keeps every source module's imports the same if the core moves them.
"""
from ..ops.source import SourceDataset  # noqa: F401
from ..samplers import Sampler, Shuffle  # noqa: F401
from .base import RowSource  # noqa: F401
