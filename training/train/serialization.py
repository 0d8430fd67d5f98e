"""`mindspore.train.serialization`: checkpoint saving and loading (training.checkpoint)."""
from training.checkpoint import (count_params, load_checkpoint, load_param_into_net,  # noqa: F401
                                 save_checkpoint)


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.train.serialization", name)
