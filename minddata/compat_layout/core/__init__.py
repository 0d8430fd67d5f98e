"""``mindspore.dataset.core``: the config module and the data type conversions."""
from minddata import config  # noqa: F401
from minddata.compat_layout.core import datatypes  # noqa: F401

__all__ = ["config", "datatypes"]
