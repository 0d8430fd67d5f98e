"""``mindspore.dataset.engine.datasets``: the Dataset base classes and module-level names."""
from minddata.compat_layout import reexport

reexport(globals(), ("Dataset", "SourceDataset", "MappableDataset", "TextBaseDataset",
                     "VisionBaseDataset", "AudioBaseDataset", "UnionBaseDataset", "Schema",
                     "Shuffle", "BatchInfo", "zip"))
