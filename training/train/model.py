"""`mindspore.train.model`: `Model` (training.model)."""
from training.model import Model  # noqa: F401
