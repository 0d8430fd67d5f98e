"""map, filter, the ordering operations (repeat, shuffle, skip, take), iterators and the
size and column queries as MindSpore's own dataset tests check them (values, argument checks
and their words, error types); every expected value here was measured in MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds
from minddata import vision


def _seq(n):
    return ds.GeneratorDataset(lambda: ((np.array([i]),) for i in range(n)), ["data"],
                               shuffle=False)


def _pairs(n=4):
    return ds.GeneratorDataset(lambda: ((np.ones((2, 2), np.int32), np.ones(3, np.int32))
                                        for _ in range(n)), ["input_ids", "input_mask"])


def _rows(d):
    return [r[0].tolist() for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]


# -- map ----------------------------------------------------------------------------------
def test_map_refuses_an_op_class_written_without_parentheses():
    # measured in MindSpore 2.10: ValueError naming the class, also inside a list
    for ops in (vision.HWC2CHW, [vision.Decode(), vision.RandomHorizontalFlip]):
        with pytest.raises(ValueError, match="Parameter operations's element of method map "
                                             "should be a .* missing parentheses"):
            _seq(2).map(operations=ops)


@pytest.mark.parametrize("size", [(12, 20), "16", 20.5, [12.4, 20], True, [1], [1, 2, 3]])
def test_map_max_rowsize_of_a_wrong_type(size):
    # measured in MindSpore 2.10: TypeError (" is not of type " or "list[in_rowsize,
    # out_rowsize] of length 2")
    with pytest.raises(TypeError, match="is not of type|of length 2"):
        _pairs().map(lambda a, b: (a, b), input_columns=["input_ids", "input_mask"],
                     python_multiprocessing=True, num_parallel_workers=2, max_rowsize=size)


@pytest.mark.parametrize("size", [-8, [-8, 20], [3, -2]])
def test_map_max_rowsize_out_of_range(size):
    # measured in MindSpore 2.10: ValueError for a size below -1
    with pytest.raises(ValueError, match="is not within the required interval of "):
        _pairs().map(lambda a, b: (a, b), input_columns=["input_ids", "input_mask"],
                     python_multiprocessing=True, num_parallel_workers=2, max_rowsize=size)


def test_map_max_rowsize_pair_runs():
    # measured in MindSpore 2.10: [in_rowsize, out_rowsize] is accepted and the rows come out
    d = _pairs(5).map(lambda a, b: (a * 2, b), input_columns=["input_ids", "input_mask"],
                      python_multiprocessing=True, num_parallel_workers=2, max_rowsize=[3, 6])
    rows = list(d.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert len(rows) == 5 and rows[0][0].tolist() == [[2, 2], [2, 2]]
    assert d.get_col_names() == ["input_ids", "input_mask"]


def test_map_output_columns_count_mismatch_words():
    # measured in MindSpore 2.10: RuntimeError with these words, from output_shapes too
    d = _seq(2).map(lambda x: x + x, input_columns=["data"], output_columns=["a", "b"])
    words = "number of columns returned in 'map' operations should match the number of " \
            "'output_columns'"
    with pytest.raises(RuntimeError, match=words):
        d.output_shapes()
    with pytest.raises(RuntimeError, match=words):
        list(d)


# -- filter -------------------------------------------------------------------------------
def test_filter_predicate_not_callable_words():
    # measured in MindSpore 2.10
    with pytest.raises(TypeError, match="Predicate should be a Python function or a callable"):
        _seq(3).filter(predicate=3)


@pytest.mark.parametrize("predicate, kept", [
    (lambda x: x == [1], [[1]]), (lambda x: x[0] == 1, [[1]]),
    (lambda x: x == np.array(1), [[1]]), (lambda x: 1, [[0], [1], [2]]),
    (lambda x: "x", [[0], [1], [2]]), (lambda x: None, []), (lambda x: (True,), [[0], [1], [2]])])
def test_filter_keeps_rows_by_the_truth_of_the_result(predicate, kept):
    # measured in MindSpore 2.10: any result is truth-tested as Python does
    assert _rows(_seq(3).filter(predicate=predicate)) == kept


def test_filter_result_without_a_truth_value_is_a_runtime_error():
    # measured in MindSpore 2.10: RuntimeError carrying numpy's "ambiguous" ValueError
    d = _seq(3).filter(predicate=lambda x: np.array([True, False]))
    with pytest.raises(RuntimeError, match="ambiguous"):
        _rows(d)


# -- repeat -------------------------------------------------------------------------------
def test_get_repeat_count_is_the_outermost_repeat():
    # measured in MindSpore 2.10
    assert _seq(3).repeat(2).repeat(3).get_repeat_count() == 3
    assert _seq(3).repeat(2).map(lambda x: x).repeat(3).get_repeat_count() == 3
    assert _seq(3).repeat().repeat(3).get_repeat_count() == 3
    assert _seq(3).repeat(3).repeat().get_repeat_count() == -1
    assert _seq(3).repeat(2).batch(2).get_repeat_count() == 2


def test_size_of_an_infinite_repeat_is_one_pass():
    # measured in MindSpore 2.10: a generator of unknown length, repeated forever: 3
    assert _seq(3).repeat().get_dataset_size() == 3
    assert _seq(3).repeat(None).map(lambda x: x).get_dataset_size() == 3


@pytest.mark.parametrize("count", [1.5, "2", True])
def test_repeat_count_type_error_names_repeat(count):
    # measured in MindSpore 2.10: "Argument repeat with value ... is not of type"
    with pytest.raises(TypeError, match="Argument repeat with value .* is not of type"):
        _seq(3).repeat(count)


# -- iterators ----------------------------------------------------------------------------
def test_iterator_tensors_are_mindspore_tensors_under_the_hook():
    # measured in MindSpore 2.10: isinstance(item, mindspore.Tensor), its dtype is
    # mindspore.float32, and arithmetic and indexing give Tensors too
    from training import compat
    compat.install()
    try:
        import mindspore
        import mindspore.dataset as msds
        d = msds.NumpySlicesDataset(np.array([[0.5], [1.5]], np.float32), shuffle=False)
        t = next(iter(d.create_tuple_iterator(num_epochs=1)))[0]
        assert isinstance(t, mindspore.Tensor) and isinstance(t, ds.Tensor)
        assert t.dtype == mindspore.float32 and t.asnumpy().tolist() == [0.5]
        assert isinstance(t + 1, mindspore.Tensor) and isinstance(t[0], mindspore.Tensor)
        assert mindspore.Tensor(t).asnumpy().tolist() == [0.5]
    finally:
        compat.uninstall()
    t = next(iter(_seq(1).create_tuple_iterator(num_epochs=1)))[0]
    assert type(t) is ds.Tensor     # without the hook: the data side's own Tensor


def test_one_element_tensor_converts_to_python_numbers():
    # measured in MindSpore 2.10: float(), int() and bool() of a shape-[1] Tensor
    t = next(iter(ds.NumpySlicesDataset(np.array([[2.5]], np.float32), shuffle=False)))[0]
    assert (float(t), int(t), bool(t)) == (2.5, 2, True)


@pytest.mark.parametrize("make", ["create_tuple_iterator", "create_dict_iterator"])
def test_output_numpy_type_error_shows_the_value_as_mindspore_does(make):
    # measured in MindSpore 2.10: "Argument output_numpy with value 123 is not of type"
    for value in ("123", 123):
        with pytest.raises(TypeError, match="Argument output_numpy with value 123 is not of"):
            getattr(_seq(2), make)(output_numpy=value)


def test_num_epochs_checks():
    # measured in MindSpore 2.10: TypeError "Argument num_epochs with value 1.5 is not of
    # type"; ValueError "Input num_epochs is not within the required interval of [-1, ...]"
    with pytest.raises(TypeError, match="Argument num_epochs with value 1.5 is not of type"):
        _seq(2).create_tuple_iterator(num_epochs=1.5)
    with pytest.raises(ValueError, match=r"Input num_epochs is not within the required "
                                         r"interval of \[-1, 2147483647\]"):
        _seq(2).create_tuple_iterator(num_epochs=-2)
    with pytest.raises(RuntimeError, match="num_epochs should be either -1 or positive"):
        _seq(2).create_tuple_iterator(num_epochs=0)


# -- sync_wait ----------------------------------------------------------------------------
def test_disable_sync_lets_every_row_through():
    # measured in MindSpore 2.10: after disable_sync() the rows come without sync_update, the
    # callback is not called, and a later wrong name still raises "Condition name not found"
    seen = []
    d = _seq(6).sync_wait(condition_name="policy", callback=seen.append)
    d = d.map(lambda x: x, input_columns=["data"])
    rows = []
    for row in d.create_tuple_iterator(num_epochs=1, output_numpy=True):
        rows.append(row[0].tolist())
        d.disable_sync()
    assert rows == [[0], [1], [2], [3], [4], [5]] and seen == []
    with pytest.raises(RuntimeError, match="Condition name not found"):
        d.sync_update(condition_name="other")


# -- device_que ---------------------------------------------------------------------------
def test_device_que_answers_metadata_and_is_not_iterable():
    # measured in MindSpore 2.10: a TransferDataset with its input's columns and size, which
    # cannot be iterated; its flags are bools
    d = ds.NumpySlicesDataset({"image": np.zeros((4, 2), np.float32), "label": np.arange(4)},
                              shuffle=False).device_que()
    assert type(d).__name__ == "TransferDataset"
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 4
    assert d.output_shapes() == [[2], []]
    with pytest.raises(RuntimeError, match="TransferDataset is not iterable."):
        d.create_dict_iterator(num_epochs=1)
    with pytest.raises(TypeError, match="Argument send_epoch_end with value 3 is not of type"):
        _seq(2).device_que(send_epoch_end=3)


def test_map_refuses_an_operation_that_is_not_callable():
    # measured in MindSpore 2.10: ValueError "... should be a python function or class method
    # which should be callable, but got: 3."
    with pytest.raises(ValueError, match="should be callable, but got: 3"):
        _seq(2).map(operations=3)


# -- memory of large rows (issue 20 item 8) -----------------------------------------------
def test_output_shapes_starts_no_worker_process():
    # measured in MindSpore 2.10: output_shapes/output_types run no worker process (a map
    # with python_multiprocessing computes the first row in the caller's process)
    import os
    pids = []

    def op(x):
        pids.append(os.getpid())
        return x

    d = _seq(50).map(op, python_multiprocessing=True, num_parallel_workers=2)
    assert d.output_shapes() == [[1]] and d.output_types() == [np.int64]
    assert set(pids) == {os.getpid()} and len(pids) == 2    # one row each, in this process


def test_prefetch_queue_holds_a_bounded_number_of_bytes(monkeypatch):
    # Rows of 1 MB with a 2 MB budget: the producer stays a few rows ahead of the consumer,
    # not prefetch_size (16) chunks
    import time
    from minddata.engine import runtime
    monkeypatch.setattr(runtime, "_QUEUE_BYTES", 2 << 20)
    made = []

    def rows():
        for i in range(40):
            made.append(i)
            yield (np.full(1 << 17, i, np.float64),)

    it = ds.GeneratorDataset(rows, ["x"], shuffle=False).create_tuple_iterator(
        num_epochs=1, output_numpy=True)
    try:
        assert next(it)[0][0] == 0
        time.sleep(0.5)     # time for a producer without a bound to fill its queue
        assert len(made) <= 6
        assert [int(r[0][0]) for r in it] == list(range(1, 40))
    finally:
        it.close()


def test_tensor_reductions_and_membership():
    # measured in MindSpore 2.10: all()/any() give bool Tensors, `in` looks for an equal element
    t = next(iter(ds.NumpySlicesDataset([np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)],
                                        shuffle=False)))[0]
    assert isinstance(t.all(), ds.Tensor) and bool(t.all()) and not bool((t > 0).all())
    assert bool((t > 3).any()) and (t == t).all()
    assert 1.0 in t and 7.0 not in t
    assert np.isclose(float(t.std()), np.std([1.0, -2.0, 3.0, 4.0]))


def test_map_offload_must_be_a_bool():
    # measured in MindSpore 2.10: "Argument offload with value 3 is not of type [<class 'bool'>]"
    with pytest.raises(TypeError, match=r"Argument offload with value 3 is not of type"):
        _seq(2).map(lambda x: x, offload=3)
    assert _rows(_seq(2).map(lambda x: x + 1, offload=False)) == [[1], [2]]


@pytest.mark.parametrize("make", [
    lambda: ds.transforms.Compose([vision.Decode, vision.RandomHorizontalFlip()]),
    lambda: ds.transforms.RandomApply([vision.Decode(), vision.RandomHorizontalFlip]),
    lambda: ds.transforms.RandomChoice([vision.Decode(), vision.ToTensor])])
def test_composite_ops_refuse_an_op_class(make):
    # measured in MindSpore 2.10: "op_list[i] should be a dataset processing operation
    # instance, but got: <class ...>. It may be missing parentheses for instantiation."
    with pytest.raises(ValueError, match=r"op_list\[\d\] should be a .* missing parentheses"):
        make()


@pytest.mark.parametrize("make", ["create_tuple_iterator", "create_dict_iterator"])
def test_reading_a_stopped_iterator_names_its_class(make):
    # measured in MindSpore 2.10: AttributeError "'DictIterator' object has no attribute
    # '_runtime_context'" (its cache tests match on the class name)
    it = getattr(_seq(3), make)()
    next(it)
    it.stop()
    name = "TupleIterator" if make == "create_tuple_iterator" else "DictIterator"
    with pytest.raises(AttributeError, match=f"'{name}' object has no attribute "
                                             f"'_runtime_context'"):
        next(it)


def test_iterator_tensors_train_a_network_under_the_hook():
    # A data Tensor on the left of arithmetic with a network's output keeps the gradient (the
    # training side's operators come first), so a loss written label - output trains
    from training import compat
    compat.install()
    try:
        import mindspore
        import mindspore.dataset as msds
        from training.tensor import grad_of
        d = msds.NumpySlicesDataset(np.array([[1.0, 2.0]], np.float32), shuffle=False)
        label = next(iter(d.create_tuple_iterator(num_epochs=1)))[0]
        w = mindspore.Parameter(mindspore.Tensor(np.ones(2, np.float32)), name="w")
        loss = ((label - w * 2.0) ** 2).sum()
        assert np.asarray(grad_of(loss, [w])[0]).tolist() == [4.0, 0.0]
    finally:
        compat.uninstall()


def test_iterator_release_and_deepcopy():
    # measured in MindSpore 2.10: release() stops the iterator; deepcopy gives the iterator
    import copy
    it = _seq(3).create_tuple_iterator(num_epochs=1)
    assert copy.deepcopy(it) is it
    it.release()
    with pytest.raises(AttributeError, match="_runtime_context"):
        next(it)


@pytest.mark.parametrize("operations", [None, []])
def test_map_without_operations(operations):
    # measured in MindSpore 2.10: RuntimeError "Map: No 'operations' are specified."
    with pytest.raises(RuntimeError, match="Map: No 'operations' are specified."):
        _seq(2).map(operations=operations)


def test_size_of_a_repeated_generator_reads_it_once():
    # measured in MindSpore 2.10: size 3 * 1000 for a 3-row generator repeated 1000 times
    reads = []

    def rows():
        reads.append(1)
        yield from ((np.array([i]),) for i in range(3))

    d = ds.GeneratorDataset(rows, ["x"], shuffle=False).repeat(1000)
    assert d.get_dataset_size() == 3000 and len(reads) == 1


def test_tuple_iterator_col_names_are_the_columns_asked_for():
    # measured in MindSpore 2.10: ['c', 'a'] for columns=["c", "a"]; all columns otherwise
    d = ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4], "c": [5, 6]}, shuffle=False)
    assert d.create_tuple_iterator(columns=["c", "a"], num_epochs=1).get_col_names() == ["c", "a"]
    assert d.create_tuple_iterator(num_epochs=1).get_col_names() == ["a", "b", "c"]
    assert d.create_dict_iterator(num_epochs=1).get_col_names() == ["a", "b", "c"]


def test_engine_iterators_module_names_the_iterator_classes():
    # MindSpore 2.10's mindspore.dataset.engine.iterators: Iterator, the base of TupleIterator
    # and DictIterator
    from minddata.compat_layout.engine import iterators
    it = _seq(2).create_dict_iterator(num_epochs=1)
    assert isinstance(it, iterators.DictIterator) and isinstance(it, iterators.Iterator)
    assert issubclass(iterators.TupleIterator, iterators.Iterator)


def test_get_init_step_and_is_sync():
    # measured in MindSpore 2.10: get_init_step() gives what set_init_step set (0 before);
    # is_sync() says whether a sync_wait is in the pipeline (in either input of a zip too)
    d = ds.NumpySlicesDataset(list(range(10)), shuffle=False).batch(2)
    assert d.get_init_step() == 0
    d.set_init_step(3)
    assert d.get_init_step() == 3 and _rows(d) == [[6, 7], [8, 9]]
    assert not _seq(2).is_sync() and _seq(2).sync_wait("x").map(lambda x: x).is_sync()
    other = ds.NumpySlicesDataset({"b": [1, 2]}, shuffle=False)
    assert ds.zip((other, _seq(2).sync_wait("w"))).is_sync()


def test_filter_unknown_column_words():
    # measured in MindSpore 2.10 (a RuntimeError there, when the pipeline starts)
    with pytest.raises(RuntimeError, match="Invalid parameter, column name: nope does not exist "
                                           "in the dataset columns."):
        _seq(2).filter(lambda x: True, input_columns=["nope"])
