"""minddata.pytorch.to_torch: tensors, sharding over DataLoader workers, epochs, pin_memory,
bad input."""
import subprocess
import sys
import types
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from minddata import config  # noqa: E402
from minddata.pytorch import to_torch  # noqa: E402
from minddata.pytorch.tensors import as_tensor  # noqa: E402
from tests.minddata.torch_helpers import ids_of, make_pipeline  # noqa: E402
from torch.utils.data import DataLoader  # noqa: E402


@pytest.fixture(autouse=True)
def _seed():
    config.set_seed(7)
    yield


def numpy_epochs(dataset, num_epochs):
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    return [[list(row) for row in it] for _ in range(num_epochs)]


def test_import_minddata_does_not_import_torch():
    code = ("import sys, minddata, minddata.pytorch; "
            "assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_yields_tuples_of_tensors_equal_to_the_numpy_iterator():
    expected = numpy_epochs(make_pipeline(), 1)[0]
    got = list(to_torch(make_pipeline()))
    assert len(got) == len(expected) == 12
    for batch, row in zip(got, expected):
        assert isinstance(batch, tuple) and len(batch) == 2
        for tensor, array in zip(batch, row):
            assert isinstance(tensor, torch.Tensor)
            assert tensor.dtype == torch.from_numpy(array).dtype
            np.testing.assert_array_equal(tensor.numpy(), array)


def test_columns_select_and_order_the_output():
    batch = next(iter(to_torch(make_pipeline(), columns=["image", "id"])))
    assert batch[0].dtype == torch.uint8 and batch[0].shape == (4, 4, 3)
    assert batch[1].dtype == torch.int64 and batch[1].shape == (4,)


def test_as_tensor_shares_memory_with_a_writable_array():
    array = np.arange(12, dtype=np.float32).reshape(3, 4)
    tensor = as_tensor(array)
    assert tensor.data_ptr() == array.ctypes.data
    array[0, 0] = 42.0
    assert tensor[0, 0].item() == 42.0


def test_as_tensor_copies_read_only_and_reversed_arrays_and_keeps_strings():
    frozen = np.arange(6, dtype=np.int32)
    frozen.flags.writeable = False
    tensor = as_tensor(frozen)
    assert tensor.data_ptr() != frozen.ctypes.data
    assert tensor.tolist() == list(range(6))
    reversed_view = np.arange(5)[::-1]
    assert as_tensor(reversed_view).tolist() == [4, 3, 2, 1, 0]
    words = np.array(["a", "bc"])
    assert as_tensor(words) is words
    assert as_tensor(3) == 3


def test_dataloader_workers_split_the_epoch_without_loss_or_repeat():
    loader = DataLoader(to_torch(make_pipeline), batch_size=None, num_workers=2)
    got = ids_of(loader)
    assert sorted(got) == list(range(48))


def test_worker_shards_follow_the_rank_shard():
    seen = {}

    def factory(num_shards, shard_id):
        seen[(num_shards, shard_id)] = True
        return make_pipeline(num_shards, shard_id)

    # Explicit rank shard 1 of 2; no workers: the source reads shard 1 of 2.
    got = ids_of(to_torch(factory, num_shards=2, shard_id=1))
    assert seen == {(2, 1): True}
    other = ids_of(to_torch(make_pipeline, num_shards=2, shard_id=0))
    assert sorted(got + other) == list(range(48))
    assert not set(got) & set(other)


def test_rank_shard_split_over_workers_covers_that_rank_only():
    per_rank = []
    for rank in range(2):
        loader = DataLoader(to_torch(make_pipeline, num_shards=2, shard_id=rank),
                            batch_size=None, num_workers=2)
        per_rank.append(ids_of(loader))
    assert all(len(ids) == 24 for ids in per_rank)
    assert sorted(per_rank[0] + per_rank[1]) == list(range(48))


def test_uneven_shards_are_padded_as_mindspore_shards_are():
    def factory(num_shards, shard_id):
        return make_pipeline(num_shards, shard_id, num_rows=9, batch_size=1)

    got = ids_of(DataLoader(to_torch(factory), batch_size=None, num_workers=2))
    assert len(got) == 10  # 2 shards of ceil(9 / 2) rows
    assert set(got) == set(range(9))


def test_a_dataset_auto_shard_refuses_cannot_be_split_over_workers(monkeypatch):
    # As inside DataLoader worker 0 of 2 (a real DataLoader takes 10 s to shut down its workers
    # after a worker's error, so the worker is simulated). A take above the source would count
    # its rows per shard: auto_shard refuses it (tests/minddata/test_torch_auto_shard.py).
    import minddata.pytorch.iterable as iterable
    worker = types.SimpleNamespace(id=0, num_workers=2)
    monkeypatch.setattr(iterable, "get_worker_info", lambda: worker)
    with pytest.raises(ValueError, match=r"worker must read shard 0 of 2.*make_dataset"):
        iter(to_torch(make_pipeline().take(6)))


def test_dataloader_workers_split_a_built_dataset_without_loss_or_repeat():
    loader = DataLoader(to_torch(make_pipeline()), batch_size=None, num_workers=2)
    assert sorted(ids_of(loader)) == list(range(48))


def test_a_dataset_with_one_worker_reads_the_whole_epoch():
    loader = DataLoader(to_torch(make_pipeline()), batch_size=None, num_workers=1)
    assert sorted(ids_of(loader)) == list(range(48))


def test_epochs_advance_in_the_main_process_like_the_numpy_iterator():
    expected = numpy_epochs(make_pipeline(), 2)
    adapter = to_torch(make_pipeline)
    first, second = ids_of(adapter), ids_of(adapter)
    assert first == [int(i) for row in expected[0] for i in row[0]]
    assert second == [int(i) for row in expected[1] for i in row[0]]
    assert first != second


def test_set_epoch_reaches_the_workers():
    expected = numpy_epochs(make_pipeline(), 3)[2]
    adapter = to_torch(make_pipeline())
    adapter.set_epoch(2)
    got = ids_of(DataLoader(adapter, batch_size=None, num_workers=1))
    assert got == [int(i) for row in expected for i in row[0]]
    with pytest.raises(ValueError, match="epoch"):
        adapter.set_epoch(-1)


def test_pin_memory_loader_gives_the_same_batches():
    plain = list(to_torch(make_pipeline()))
    with warnings.catch_warnings():  # torch warns that a CPU-only machine cannot pin
        warnings.simplefilter("ignore")
        pinned = list(DataLoader(to_torch(make_pipeline()), batch_size=None, pin_memory=True))
    assert len(pinned) == len(plain)
    for a, b in zip(pinned, plain):
        assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
        if torch.cuda.is_available():
            assert a[1].is_pinned()


def test_bad_arguments_are_refused_at_once():
    with pytest.raises(TypeError, match="'dataset' must be a minddata Dataset or a factory"):
        to_torch(42)
    with pytest.raises(ValueError, match="both num_shards and shard_id"):
        to_torch(make_pipeline, num_shards=2)
    with pytest.raises(ValueError, match="shard_id must be in"):
        to_torch(make_pipeline, num_shards=2, shard_id=2)
    with pytest.raises(TypeError, match="num_shards must be an int"):
        to_torch(make_pipeline, num_shards="2", shard_id=0)
    with pytest.raises(ValueError, match=r"columns \['nope'\] are not in"):
        to_torch(make_pipeline(), columns=["nope"])
    with pytest.raises(ValueError, match="cannot be re-sharded"):
        to_torch(make_pipeline().take(6), num_shards=2, shard_id=0)


def test_a_factory_must_return_a_dataset():
    with pytest.raises(TypeError, match=r"make_dataset\(1, 0\) must return a minddata Dataset"):
        list(to_torch(lambda num_shards, shard_id: [1, 2, 3]))


def test_a_pass_that_is_never_read_starts_nothing():
    adapter = to_torch(make_pipeline)
    iter(adapter)  # abandoned, as StatefulDataLoader does with its first fetcher
    assert adapter.state_dict()["iterator"] is None
    assert sorted(ids_of(adapter)) == list(range(48))
