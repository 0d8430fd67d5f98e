"""``Dataset.device_que()``: the logical node (minddata/graph/transfer.py) with the Dataset API
on it. As MindSpore's TransferDataset it answers its input's metadata (columns, size, shapes,
types) and cannot be iterated; feeding a device is training.Model's sink mode here, so
``send()`` says to use that."""
from ..dataset import Dataset
from ..graph.transfer import Transfer

_SINK = ("sending a pipeline to a device queue is MindSpore-device specific; use "
         "training.Model(..., dataset_sink_mode=True) instead")


class TransferDataset(Transfer, Dataset):
    def create_tuple_iterator(self, *args, **kwargs):
        raise RuntimeError("TransferDataset is not iterable.")

    def create_dict_iterator(self, *args, **kwargs):
        raise RuntimeError("TransferDataset is not iterable.")

    def get_dataset_size(self):
        return self.children[0].get_dataset_size()

    def _first_row(self):
        return self.children[0]._first_row()

    def send(self, num_epochs=-1):
        raise NotImplementedError(_SINK)
