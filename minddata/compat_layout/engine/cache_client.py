"""``mindspore.dataset.engine.cache_client``: the dataset cache."""
from minddata.compat_layout import reexport

reexport(globals(), ("DatasetCache",))
