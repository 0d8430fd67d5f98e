"""``mindspore.dataset.engine.datasets_user_defined``: sources of user-defined data."""
from minddata.compat_layout import reexport

reexport(globals(), ("GeneratorDataset", "NumpySlicesDataset", "PaddedDataset"))
