"""Helpers for the training tests: small datasets (minddata's NumpySlicesDataset when it works,
else a duck-typed stand-in with the same public methods), small networks, an event recorder."""
import numpy as np
import pytest

from training import context, nn
from training.callbacks import Callback


class DuckDataset:
    """The part of the dataset API training uses (docs/internals.md "minddata -> training")."""

    def __init__(self, columns, batch_size, names=None):
        self.columns = [np.asarray(c) for c in columns]
        self.batch_size = batch_size
        self.names = names or [f"c{i}" for i in range(len(columns))]

    def get_dataset_size(self):
        return -(-len(self.columns[0]) // self.batch_size)

    def get_col_names(self):
        return list(self.names)

    def get_batch_size(self):
        return self.batch_size

    def create_tuple_iterator(self, num_epochs=-1, output_numpy=False):
        return _DuckIterator(self, num_epochs)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False):
        return ({n: v for n, v in zip(self.names, row)} for row in _DuckIterator(self, num_epochs))


class _DuckIterator:
    def __init__(self, ds, num_epochs):
        self.ds, self.left = ds, num_epochs

    def __iter__(self):
        if self.left == 0:
            return iter(())
        self.left -= 1
        n = len(self.ds.columns[0])
        return iter([tuple(c[i:i + self.ds.batch_size] for c in self.ds.columns)
                     for i in range(0, n, self.ds.batch_size)])


def make_dataset(columns, batch_size, names=None):
    names = names or [f"c{i}" for i in range(len(columns))]
    try:
        import minddata
        ds = minddata.NumpySlicesDataset(tuple(columns), column_names=names, shuffle=False)
        return ds.batch(batch_size)
    except Exception:  # minddata absent or broken: the stand-in keeps these tests independent
        return DuckDataset(columns, batch_size, names)


def regression_data(n=48, features=4, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, features)).astype(np.float32)
    y = (x @ rng.standard_normal((features, 1)) + 0.5).astype(np.float32)
    return x, y


def classification_data(n=64, features=6, classes=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, features)).astype(np.float32)
    y = (x[:, :classes].argmax(axis=1)).astype(np.int32)
    return x, y


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class EventRecorder(Callback):
    """Records (event, cur_epoch_num, cur_step_num) for every training/eval event."""

    def __init__(self, stop_at_step=None):
        super().__init__()
        self.events = []
        self.stop_at_step = stop_at_step

    def _log(self, name, run_context):
        cb = run_context.original_args()
        self.events.append((name, cb.cur_epoch_num, cb.cur_step_num))

    def on_train_begin(self, rc):
        self._log("begin", rc)

    def on_train_epoch_begin(self, rc):
        self._log("epoch_begin", rc)

    def on_train_step_begin(self, rc):
        self._log("step_begin", rc)

    def on_train_step_end(self, rc):
        self._log("step_end", rc)
        if self.stop_at_step is not None and rc.original_args().cur_step_num >= self.stop_at_step:
            rc.request_stop()

    def on_train_epoch_end(self, rc):
        self._log("epoch_end", rc)

    def on_train_end(self, rc):
        self._log("end", rc)

    def on_eval_begin(self, rc):
        self._log("eval_begin", rc)

    def on_eval_step_end(self, rc):
        self._log("eval_step_end", rc)

    def on_eval_end(self, rc):
        self._log("eval_end", rc)


@pytest.fixture(autouse=True)
def _fresh_context():
    context.reset_context()
    yield
    context.reset_context()


@pytest.fixture
def numpy_backend():
    """Cells on the built-in numpy backend (the default is torch when it is installed): for
    tests of the numpy backend itself (its tape, its refusals)."""
    from training import set_backend
    set_backend("numpy")
    yield
    set_backend(None)
