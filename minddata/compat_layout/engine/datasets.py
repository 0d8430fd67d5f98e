"""``mindspore.dataset.engine.datasets``: the Dataset base classes and module-level names."""
from minddata.compat_layout import reexport

reexport(globals(), ("Dataset", "SourceDataset", "MappableDataset", "TextBaseDataset",
                     "VisionBaseDataset", "AudioBaseDataset", "UnionBaseDataset", "Schema",
                     "Shuffle", "BatchInfo", "zip"))


# The training dataset MindSpore's failover recovery resets (Model registers its iterator):
# MindSpore's module-level functions of the same names.
_train_dataset = None


def _set_training_dataset(dataset):
    """Set the iterator to reset when training recovers from a failure."""
    global _train_dataset
    _train_dataset = dataset


def _get_training_dataset():
    return _train_dataset


def _reset_training_dataset(global_step, dataset_size):
    """Continue the training iterator after ``global_step`` rows (``dataset_size`` per
    epoch)."""
    if _train_dataset is None:
        raise RuntimeError("Training dataset is not set.")
    _train_dataset._reset(global_step, dataset_size)  # pylint: disable=protected-access
