"""batch and padded_batch: sizes, remainders, per_batch_map, padding, shape checks."""
import numpy as np
import pytest

import minddata as ds
from .engine_helpers import numbers, rows, values


def test_remainder_kept_or_dropped():
    assert [len(b) for b in values(numbers(10).batch(4))] == [4, 4, 2]
    assert [len(b) for b in values(numbers(10).batch(4, drop_remainder=True))] == [4, 4]


def test_batch_of_arrays_stacks_rows():
    d = ds.NumpySlicesDataset(np.arange(12).reshape(6, 2), shuffle=False).batch(3)
    out = [r[0] for r in d.create_tuple_iterator(num_epochs=1)]
    assert out[0].shape == (3, 2) and out[1].tolist() == [[6, 7], [8, 9], [10, 11]]


def test_sizes_and_metadata():
    d = numbers(10).batch(4)
    assert d.get_dataset_size() == 3
    assert d.get_batch_size() == 4
    assert numbers(10).batch(4, True).get_dataset_size() == 2


def test_validation():
    with pytest.raises(ValueError):
        numbers(3).batch(0)
    with pytest.raises(TypeError):
        numbers(3).batch(2.5)
    with pytest.raises(TypeError):
        numbers(3).batch(2, drop_remainder=1)
    with pytest.raises(ValueError):
        numbers(3).batch(2, pad_info={"nope": (None, 0)})


def test_callable_batch_size_gets_batch_info():
    seen = []

    def size(info):
        seen.append(info.get_batch_num())
        return info.get_batch_num() + 1

    assert [len(b) for b in values(numbers(10).batch(size))] == [1, 2, 3, 4]
    assert seen[:4] == [0, 1, 2, 3]


def test_per_batch_map_gets_lists_of_rows_and_info():
    def fn(x, y, info):
        assert isinstance(x, list) and isinstance(x[0], np.ndarray)
        return [v * 2 for v in x], np.array(y) + info.get_batch_num()

    out = rows(numbers(4).batch(2, per_batch_map=fn))
    assert out == [[[0, 2], [0, 10]], [[4, 6], [21, 31]]]


def test_per_batch_map_with_columns():
    d = numbers(4).batch(2, per_batch_map=lambda x, info: ([v + 100 for v in x],),
                         input_columns=["x"], output_columns=["z"])
    assert d.get_col_names() == ["z", "y"]
    assert rows(d)[0] == [[100, 101], [0, 10]]


def test_inconsistent_shapes_raise_with_hint():
    d = ds.GeneratorDataset(lambda: ((np.arange(i + 1),) for i in range(3)), ["s"]).batch(3)
    with pytest.raises(RuntimeError, match="pad"):
        rows(d)


def test_pad_info_pads_to_shape_or_longest():
    gen = lambda: ((np.arange(i + 1),) for i in range(3))  # noqa: E731
    d = ds.GeneratorDataset(gen, ["s"]).batch(3, pad_info={"s": (None, -1)})
    assert rows(d)[0][0] == [[0, -1, -1], [0, 1, -1], [0, 1, 2]]
    d = ds.GeneratorDataset(gen, ["s"]).batch(3, pad_info={"s": ([4], 9)})
    assert rows(d)[0][0][0] == [0, 9, 9, 9]


def test_padded_batch_pads_every_column():
    gen = lambda: ((np.arange(i + 1), np.ones(2 - i % 2)) for i in range(2))  # noqa: E731
    d = ds.GeneratorDataset(gen, ["s", "t"]).padded_batch(2, pad_info={})
    out = rows(d)[0]
    assert out[0] == [[0, 0], [0, 1]] and out[1] == [[1, 1], [1, 0]]


def test_strings_of_different_widths():
    d = ds.NumpySlicesDataset(["a", "bcd", "ef"], shuffle=False).batch(3)
    assert values(d) == [["a", "bcd", "ef"]]


def test_string_rows_of_both_kinds_take_the_first_rows_kind():
    # MindSpore 2.10 (measured): [b'a', 'b'] batches as bytes, ['a', b'b'] as str (UTF-8);
    # numpy's promotion served the bytes batch as str here
    def batch_of(*cells):
        gen = lambda: ((np.array(c),) for c in cells)  # noqa: E731
        return list(ds.GeneratorDataset(gen, ["s"], shuffle=False).batch(len(cells))
                    .create_tuple_iterator(output_numpy=True))[0][0]
    got = batch_of(b"a", "b")
    assert got.dtype.kind == "S" and got.tolist() == [b"a", b"b"]
    got = batch_of("a", "\u00e9".encode("utf-8"))
    assert got.dtype.kind == "U" and got.tolist() == ["a", "\u00e9"]
    assert batch_of(b"\xff", "b").tolist() == [b"\xff", b"b"]
    # a number after a string ('a', 5 gave '5' here; MindSpore 2.10 crashes) and bytes that
    # are not UTF-8 after a str are refused
    for cells in (("a", 5), (b"a", 5), ("a", b"\xff")):
        with pytest.raises(RuntimeError, match="row 1"):
            batch_of(*cells)


def test_batch_then_repeat_and_repeat_then_batch():
    assert [len(b) for b in values(numbers(5).batch(2).repeat(2))] == [2, 2, 1, 2, 2, 1]
    assert [len(b) for b in values(numbers(5).repeat(2).batch(2))] == [2, 2, 2, 2, 2]


def test_empty_dataset_gives_no_batches():
    assert values(numbers(5).skip(5).batch(2)) == []


def _mixup(x, y, info):
    return [v * 2 + info.get_batch_num() for v in x], y


@pytest.mark.parametrize("workers,processes", [(2, False), (3, True)])
def test_parallel_batches_equal_serial_ones(workers, processes):
    serial = rows(numbers(23).batch(4, per_batch_map=_mixup))
    parallel = rows(numbers(23).batch(4, num_parallel_workers=workers, per_batch_map=_mixup,
                                      python_multiprocessing=processes))
    assert parallel == serial
    assert rows(numbers(23).batch(5, num_parallel_workers=workers)) == rows(numbers(23).batch(5))


def test_per_batch_map_error_in_worker_names_the_batch():
    def bad(x, info):
        if info.get_batch_num() == 2:
            raise ValueError("bad batch")
        return (x,)

    # MindSpore's type: RuntimeError, the ValueError as its cause.
    with pytest.raises(RuntimeError, match="batch 2 of epoch 0.*ValueError: bad batch"):
        rows(numbers(12).batch(3, num_parallel_workers=2, per_batch_map=bad,
                               input_columns=["x"], python_multiprocessing=True))
