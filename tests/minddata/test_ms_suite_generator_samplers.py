"""GeneratorDataset, NumpySlicesDataset, samplers, sharding and PaddedDataset as MindSpore's own
dataset tests check them (sources read again each epoch, dataset sizes, errors and their
words); every expected value here was measured in MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds
from minddata.compat_layout.engine import datasets as engine_datasets


def _column(d, num_epochs=1, epochs=1):
    it = d.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    return [[r[0].tolist() for r in it] for _ in range(epochs)]


# -- GeneratorDataset: what a source is ------------------------------------------------------
def test_generator_object_is_read_again_each_epoch():
    # measured in MindSpore 2.10: a generator object (not a function) gives its rows in every
    # epoch, every new iterator and get_dataset_size
    d = ds.GeneratorDataset((np.array(i) for i in range(4)), ["c"])
    assert d.get_dataset_size() == 4
    assert _column(d, num_epochs=2, epochs=2) == [[0, 1, 2, 3], [0, 1, 2, 3]]
    assert _column(d) == [[0, 1, 2, 3]]
    assert _column(d.repeat(2)) == [[0, 1, 2, 3, 0, 1, 2, 3]]
    assert _column(ds.GeneratorDataset((np.array(i) for i in range(4)), ["c"],
                                       num_samples=2)) == [[0, 1]]


def test_zip_source_is_random_access():
    # measured in MindSpore 2.10: a zip is read into a list: it has a size, can be shuffled
    # and gives its rows in every epoch
    x = np.arange(5, dtype=np.float32)
    d = ds.GeneratorDataset(zip(x, x * 2), ["f", "l"], shuffle=False)
    assert d.get_dataset_size() == 5
    assert _column(d, num_epochs=2, epochs=2) == [[0.0, 1.0, 2.0, 3.0, 4.0]] * 2
    shuffled = ds.GeneratorDataset(zip(x, x * 2), ["f", "l"], shuffle=True)
    assert shuffled.get_dataset_size() == 5
    assert sorted(_column(shuffled)[0]) == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_random_access_source_without_len_fails_when_built():
    # measured in MindSpore 2.10: building is fine, sizing or reading raises RuntimeError
    class NoLen:
        def __getitem__(self, i):
            return np.array([i])

    d = ds.GeneratorDataset(NoLen(), ["c"])
    for attempt in (d.get_dataset_size, lambda: _column(d)):
        with pytest.raises(RuntimeError, match="'__len__' method is required"):
            attempt()


def test_iterator_object_is_consumed_by_get_dataset_size():
    # measured in MindSpore 2.10: an object that is its own iterator is read once only
    class Counter:
        def __init__(self):
            self.count = 0

        def __iter__(self):
            return self

        def __next__(self):
            if self.count >= 10:
                raise StopIteration
            self.count += 1
            return (np.array(self.count),)

    d = ds.GeneratorDataset(Counter(), ["c"])
    assert d.get_dataset_size() == 10
    assert _column(d) == [[]]


# -- GeneratorDataset: errors in the rows ----------------------------------------------------
@pytest.mark.parametrize("returned", [1, 3])
def test_column_count_mismatch_words(returned):
    # measured in MindSpore 2.10: RuntimeError naming both counts
    row = tuple(np.array([k]) for k in range(returned))
    d = ds.GeneratorDataset(lambda: (row for _ in range(2)), ["a", "b"], shuffle=False)
    with pytest.raises(RuntimeError) as info:
        _column(d)
    assert ("the 'source' of 'GeneratorDataset' should return same number of NumPy arrays as "
            "specified in column_names,") in str(info.value)
    assert (f"the size of column_names is:2 and number of returned NumPy array "
            f"is:{returned}") in str(info.value)


def test_object_values_words():
    # measured in MindSpore 2.10: the item is numbered when the row is a tuple
    for row, words in (((np.array([{1}]),), "Data type of 1th item of the input"),
                       (({1},), "Data type of 1th item of the input"),
                       (np.array([[1, 2], [1]], dtype=object), " Data type of the input")):
        d = ds.GeneratorDataset(lambda row=row: (row for _ in range(2)), ["data"])
        with pytest.raises(RuntimeError) as info:
            _column(d)
        assert f"{words} or its converted Numpy array is expected" in str(info.value)


# -- NumpySlicesDataset: argument errors -----------------------------------------------------
@pytest.mark.parametrize("data, error, words", [
    (5, TypeError, "Argument data with value 5 is not of type [<class 'list'>, <class 'tuple'>, "
                   "<class 'dict'>, <class 'numpy.ndarray'>]"),
    (([1, 2], [1, 2, 3]), ValueError, "Data length in each column is not equal"),
    ((1, 2), TypeError, "Argument data[0] with value 1 is not of type [<class 'list'>, "
                        "<class 'numpy.ndarray'>], but got <class 'int'>."),
])
def test_numpy_slices_data_errors(data, error, words):
    # measured in MindSpore 2.10
    with pytest.raises(error) as info:
        ds.NumpySlicesDataset(data)
    assert words in str(info.value)


@pytest.mark.parametrize("data, names, words", [
    ([1, 2], ["a", "b"], "Num of input column names is 2, but required is 1 as data is list."),
    (np.array([[1, 2]]), ["a", "b"], "required is 1 as data is list."),
    ({"a": [1], "b": [2]}, ["x"], "Num of input column names is 1, but required is 2."),
    (([1], [2]), ["x"], "Num of input column names is 1, but required is 2."),
])
def test_numpy_slices_column_names_count(data, names, words):
    # measured in MindSpore 2.10
    with pytest.raises(ValueError) as info:
        ds.NumpySlicesDataset(data, column_names=names)
    assert words in str(info.value)


# -- samplers --------------------------------------------------------------------------------
@pytest.mark.parametrize("ids, bad", [([20], 20), ([10], 10), ([0, 9, 0, 500], 500),
                                      ([0, 9, -6, 2], -6)])
def test_subset_sampler_id_out_of_bound(ids, bad):
    # measured in MindSpore 2.10: RuntimeError when read; a negative id is out of bound too
    d = ds.NumpySlicesDataset(list(range(10)), sampler=ds.SubsetSampler(ids))
    with pytest.raises(RuntimeError) as info:
        _column(d)
    assert f"Sample ID ({bad}) is out of bound, expected range [0, 9]" in str(info.value)


@pytest.mark.parametrize("indices, words", [
    ([1.5, 7], "list[0]: 1.5, type: <class 'float'>."),
    (["a", "b"], "list[0]: a, type: <class 'str'>."),
    (np.array([[1, 2]]), "list[0]: [1 2], type: <class 'numpy.ndarray'>."),
])
def test_subset_sampler_element_types(indices, words):
    # measured in MindSpore 2.10: TypeError when the sampler (or a list given as sampler=) is
    # made; a 2-D array is not flattened
    for make in (lambda: ds.SubsetSampler(indices),
                 lambda: ds.NumpySlicesDataset(list(range(10)), sampler=indices)):
        with pytest.raises(TypeError) as info:
            make()
        assert "SubsetSampler: Type of indices element must be int, but got " + words \
            in str(info.value)


def test_subset_sampler_takes_numpy_ids():
    # measured in MindSpore 2.10
    d = ds.NumpySlicesDataset(list(range(10)), sampler=ds.SubsetSampler(np.array([3, 1]), 5))
    assert _column(d) == [[3, 1]]


def test_parse_gives_a_separate_sampler():
    # measured in MindSpore 2.10: parse() builds the sampler; children are added to the result
    parent = ds.RandomSampler()
    built = parent.parse()
    built.add_child(ds.SequentialSampler().parse())
    assert parent.get_child() is None


def test_distributed_sampler_offset_checked_when_built():
    # measured in MindSpore 2.10: constructing is fine, parse() raises RuntimeError
    sampler = ds.DistributedSampler(num_shards=4, shard_id=0, shuffle=False, offset=5)
    with pytest.raises(RuntimeError, match=r"DistributedSampler: offset must be no more than "
                                           r"num_shards\(4\)"):
        sampler.parse()
    with pytest.raises(RuntimeError, match="offset must be no more than num_shards"):
        _column(ds.NumpySlicesDataset(list(range(8)), sampler=sampler))


# -- PaddedDataset and ConcatDataset.use_sampler ---------------------------------------------
def _padded(lengths):
    return ds.PaddedDataset([{"image": np.zeros(n, np.uint8)} for n in lengths])


def test_concat_use_sampler_reads_shuffled_sources_in_order():
    # measured in MindSpore 2.10: the sampler replaces a random-access source's own shuffle,
    # so shard k gets the rows at positions k, k+N, ... of the sources read in order
    rows = ds.GeneratorDataset([(np.array(i),) for i in range(7)], ["image"], shuffle=True)
    both = rows + ds.GeneratorDataset([(np.array(i),) for i in range(7, 9)], ["image"])
    shards = []
    for shard_id in range(3):
        both.use_sampler(ds.DistributedSampler(3, shard_id, shuffle=False))
        shards.append(_column(both)[0])
    assert shards == [[0, 3, 6], [1, 4, 7], [2, 5, 8]]


def test_concat_use_sampler_refuses_num_samples_and_batches():
    # measured in MindSpore 2.10: ValueError for a dataset with num_samples, TypeError for a
    # batch, both when use_sampler is called
    sampler = ds.DistributedSampler(2, 0, shuffle=False)
    limited = ds.NumpySlicesDataset({"image": np.zeros((4, 1))}, num_samples=2) + _padded([1])
    with pytest.raises(ValueError, match="The parameter NumSamples of .* is not support to be "
                                         "set"):
        limited.use_sampler(sampler)
    batched = _padded([0] * 5).batch(2) + _padded([0] * 3)
    with pytest.raises(TypeError, match="of concat must not be BatchDataset or "
                                        "PaddedBatchDataset"):
        batched.use_sampler(sampler)


@pytest.mark.parametrize("sampler, words", [
    (ds.RandomSampler(replacement=True), "replacement of RandomSampler must be False"),
    (ds.RandomSampler(num_samples=3), "num_samples of RandomSampler is not support to be set"),
])
def test_concat_use_sampler_random_sampler_checks(sampler, words):
    # measured in MindSpore 2.10
    with pytest.raises(ValueError, match=words):
        (_padded([1, 2]) + _padded([3])).use_sampler(sampler)


# -- failover reset (mindspore.dataset.engine.datasets._reset_training_dataset) --------------
def _reset_run(data, num_epochs, failure_point):
    """Rows of num_epochs epochs, reset to failure_point right after reading that many rows
    (the suite's loop); the iterator is left past its last epoch."""
    size = data.get_dataset_size()
    itr = data.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    engine_datasets._set_training_dataset(itr)
    out, read = [], 0
    for epoch in range(num_epochs):
        for row in itr:
            out.append(row[0].tolist())
            read += 1
            if read == failure_point:
                engine_datasets._reset_training_dataset(failure_point, size)
                break
        if read == failure_point:
            break
    for _ in range(failure_point // size, num_epochs):
        out.extend(row[0].tolist() for row in itr)
    return out, itr


@pytest.mark.parametrize("failure_point", [1, 7, 10, 13, 29])
def test_reset_training_dataset_continues_where_the_run_was(failure_point):
    # measured in MindSpore 2.10: the rows after a reset are those of a run without one,
    # shuffles and samplers included; reading on past num_epochs raises
    ds.config.set_seed(1)
    data = ds.NumpySlicesDataset([[x] for x in range(10)], ["data"],
                                 sampler=ds.RandomSampler()).shuffle(3).skip(1)
    expected = sum(_column(data, num_epochs=3, epochs=3), [])
    rows, itr = _reset_run(data, 3, failure_point)
    assert rows == expected
    with pytest.raises(RuntimeError, match="User tries to fetch data beyond the specified "
                                           "number of epochs"):
        next(itr)


@pytest.mark.parametrize("step, words", [(-5, "reset step must be >= 0"),
                                         (300, "reset step must be less than dataset_size "
                                               "\\* num_epochs")])
def test_reset_training_dataset_checks_the_step(step, words):
    # measured in MindSpore 2.10
    itr = ds.NumpySlicesDataset(list(range(100))).create_tuple_iterator(num_epochs=3)
    engine_datasets._set_training_dataset(itr)
    with pytest.raises(RuntimeError, match="Cannot reset the pipeline, " + words):
        engine_datasets._reset_training_dataset(step, 100)


def test_reset_training_dataset_needs_one_set():
    # measured in MindSpore 2.10
    engine_datasets._set_training_dataset(None)
    with pytest.raises(RuntimeError, match="Training dataset is not set"):
        engine_datasets._reset_training_dataset(1, 1)


# -- GeneratorDataset: arguments and the Dataset API on it -----------------------------------
def test_shuffle_of_a_stream_source_is_ignored_with_a_warning(caplog):
    # measured in MindSpore 2.10: shuffle=True with a generator function gives the rows in
    # order (no error); here a warning says so
    d = ds.GeneratorDataset(lambda: ((np.array(i),) for i in range(5)), ["a"], shuffle=True)
    with caplog.at_level("WARNING", logger="minddata"):
        assert _column(d) == [[0, 1, 2, 3, 4]]
        ds.GeneratorDataset(lambda: iter([]), ["a"], shuffle=True)
    assert "is ignored" in caplog.text
    for kwargs in ({"sampler": ds.SequentialSampler()}, {"num_shards": 2, "shard_id": 0}):
        with pytest.raises(ValueError, match="is not supported if source does not have "
                                             "attribute '__getitem__'"):
            ds.GeneratorDataset(lambda: iter([]), ["a"], **kwargs)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"source": 5, "column_names": ["a"]}, TypeError,
     "Input `source` function of GeneratorDataset should be callable, iterable or random "
     "accessible"),
    ({"source": [1]}, ValueError, "Neither columns_names nor schema are provided."),
    ({"source": [1], "schema": 5}, ValueError,
     "schema should be a path to schema file or a schema object"),
    ({"source": [1], "column_names": ["a"], "shuffle": 1}, TypeError,
     "Argument shuffle with value 1 is not of type [<class 'bool'>], but got <class 'int'>."),
    ({"source": [1], "column_names": ["a"], "python_multiprocessing": 1}, TypeError,
     "Argument python_multiprocessing with value 1 is not of type [<class 'bool'>]"),
    ({"source": [1], "column_names": ["a"], "max_rowsize": -2}, ValueError,
     "Input max_rowsize is not within the required interval of [-1, 2147483647]."),
    ({"source": [1], "column_names": ["a"], "max_rowsize": "1"}, TypeError,
     "Argument max_rowsize with value 1 is not of type [<class 'int'>]"),
])
def test_generator_argument_errors(kwargs, error, words):
    # measured in MindSpore 2.10
    with pytest.raises(error) as info:
        ds.GeneratorDataset(**kwargs)
    assert words in str(info.value)


def test_schema_file_gives_the_columns(tmp_path):
    # measured in MindSpore 2.10: schema may be the path of a schema file
    path = tmp_path / "schema.json"
    path.write_text('{"columns": {"x": {"type": "int64", "rank": 1}}}')
    d = ds.GeneratorDataset(lambda: ((np.array([i]),) for i in range(2)), schema=str(path))
    assert d.get_col_names() == ["x"]
    assert _column(d) == [[[0], [1]]]


def test_generator_dataset_getitem():
    # measured in MindSpore 2.10: dataset[i] is the source's item at the i-th id the dataset
    # reads (shards and shuffle included), as the source returns it
    class Rows:
        def __getitem__(self, i):
            return (np.array(i),)

        def __len__(self):
            return 8

    item = ds.GeneratorDataset(Rows(), ["a"], shuffle=False)[2]
    assert isinstance(item, tuple) and int(item[0]) == 2
    assert int(ds.GeneratorDataset(Rows(), ["a"], shuffle=False, num_shards=2,
                                   shard_id=1)[2][0]) == 5
    shuffled = ds.GeneratorDataset(Rows(), ["a"])
    assert [int(shuffled[i][0]) for i in range(8)] == _column(shuffled)[0]
    with pytest.raises(TypeError, match="Argument index with value x is not of type"):
        shuffled["x"]
    with pytest.raises(RuntimeError, match=r"Index \[8\] exceeded the number of data samples"):
        shuffled[8]
    with pytest.raises(RuntimeError, match=r"Index \[-1\] can not be a negative number"):
        shuffled[-1]
    with pytest.raises(RuntimeError, match="Dataset don't support randomized access"):
        ds.GeneratorDataset(lambda: iter([]), ["a"])[0]


def test_is_shuffled_and_is_sharded():
    # measured in MindSpore 2.10
    rows = [(np.array(i),) for i in range(4)]
    assert ds.GeneratorDataset(rows, ["a"]).is_shuffled()
    assert not ds.GeneratorDataset(rows, ["a"], shuffle=False).is_shuffled()
    assert ds.GeneratorDataset(rows, ["a"], num_shards=2, shard_id=0).is_sharded()
    assert not ds.NumpySlicesDataset([1, 2]).is_sharded()


def test_pk_sampler_shuffle_keeps_each_class_together(tmp_path):
    # measured in MindSpore 2.10: shuffle=True shuffles the order of the classes; the K rows
    # of a class stay together (classes 1, 1, 3, 3, 2, 2, 0, 0 there)
    for c in range(4):
        (tmp_path / f"c{c}").mkdir()
        for j in range(3):
            (tmp_path / f"c{c}" / f"{j}.jpg").write_bytes(bytes([c, j]))
    d = ds.ImageFolderDataset(str(tmp_path), sampler=ds.PKSampler(2, shuffle=True))
    got = [int(r["label"]) for r in d.create_dict_iterator(num_epochs=1, output_numpy=True)]
    assert [got[k] for k in range(0, 8, 2)] == [got[k] for k in range(1, 8, 2)]
    assert sorted(got[::2]) == [0, 1, 2, 3]


def test_generator_dataset_refuses_pk_sampler():
    # measured in MindSpore 2.10: ValueError as an argument (NumpySlicesDataset, a
    # GeneratorDataset there, too); RuntimeError when added later and iterated
    rows = [(np.array(i), np.array(i % 2)) for i in range(6)]
    for make in (lambda: ds.GeneratorDataset(rows, ["data", "label"], sampler=ds.PKSampler(2)),
                 lambda: ds.NumpySlicesDataset({"data": np.arange(4), "label": np.arange(4)},
                                               sampler=ds.PKSampler(2))):
        with pytest.raises(ValueError, match="GeneratorDataset doesn't support PKSampler"):
            make()
    d = ds.GeneratorDataset(rows, ["data", "label"])
    d.add_sampler(ds.PKSampler(2))
    with pytest.raises(RuntimeError, match="GeneratorDataset doesn't support PKSampler"):
        _column(d)


def test_sampler_is_shuffled_and_is_sharded():
    # measured in MindSpore 2.10
    assert ds.RandomSampler().is_shuffled() and ds.SubsetRandomSampler([1]).is_shuffled()
    assert not ds.SequentialSampler().is_shuffled()
    assert not ds.SubsetSampler([1]).is_shuffled()
    assert ds.DistributedSampler(2, 1).is_shuffled()
    assert not ds.DistributedSampler(2, 1, shuffle=False).is_shuffled()
    assert ds.DistributedSampler(2, 1).is_sharded()
    assert not ds.DistributedSampler(1, 0).is_sharded()
    assert (ds.PKSampler(2).is_shuffled(), ds.PKSampler(2, shuffle=True).is_shuffled()) == \
        (False, True)


@pytest.mark.parametrize("make, words", [
    (lambda: ds.SequentialSampler(start_index="1"), "start_index must be integer but was: 1."),
    (lambda: ds.RandomSampler(replacement=1), "replacement must be a boolean value but was: 1."),
    (lambda: ds.DistributedSampler("2", 0), "num_shards must be integer but was: 2."),
    (lambda: ds.DistributedSampler(2, 0, shuffle=1),
     "shuffle must be a boolean value or valid shuffle mode but was: 1."),
    (lambda: ds.PKSampler("2"), "num_val must be integer but was: 2."),
    (lambda: ds.PKSampler(2, class_column=1), "class_column must be a str value but was: 1."),
    (lambda: ds.WeightedRandomSampler([1, "a"]),
     "type of weights element must be number, but got w[1]: a, type: <class 'str'>."),
])
def test_sampler_type_errors(make, words):
    # measured in MindSpore 2.10
    with pytest.raises(TypeError) as info:
        make()
    assert words in str(info.value)


def test_sequential_sampler_start_past_the_end():
    # measured in MindSpore 2.10: a RuntimeError when the pipeline runs
    d = ds.NumpySlicesDataset(list(range(10)), sampler=ds.SequentialSampler(start_index=10))
    with pytest.raises(RuntimeError, match="start_index must be less than num_rows, but got "
                                           "start_index: 10, num_rows: 10"):
        _column(d)


def test_user_sampler_negative_id_counts_from_the_end():
    # measured in MindSpore 2.10: a Python sampler's id -1 reads the last row (a built-in
    # sampler's negative id is out of bound, test_subset_sampler_id_out_of_bound)
    class Last(ds.Sampler):
        def __iter__(self):
            return iter([-1, 0])

    assert _column(ds.NumpySlicesDataset(list(range(5)), sampler=Last())) == [[4, 0]]


def test_numpy_slices_empty_data_and_empty_output_shapes():
    # measured in MindSpore 2.10: empty data is a ValueError; a pipeline without rows has
    # output_shapes() and output_types() []
    with pytest.raises(ValueError, match="Argument data cannot be empty"):
        ds.NumpySlicesDataset([])
    d = ds.NumpySlicesDataset([[[1, 2], [3, 4]]], column_names=["col1"])
    d = d.batch(3, drop_remainder=True)
    assert d.output_shapes() == [] and d.output_types() == []
    assert d.get_col_names() == ["col1"]


@pytest.mark.parametrize("names, error, words", [
    ([1], TypeError, "Argument column_names[0] with value 1 is not of type [<class 'str'>], but "
                     "got <class 'int'>."),
    ([""], ValueError, "column_names[0] should not be empty"),
    ([], ValueError, "column_names should not be empty"),
    (["a", "a"], ValueError, "Every column name should not be same with others in "
                             "column_names"),
])
def test_column_names_errors(names, error, words):
    # measured in MindSpore 2.10 (NumpySlicesDataset and GeneratorDataset alike)
    for make in (lambda: ds.NumpySlicesDataset([[1, 2]], column_names=names),
                 lambda: ds.GeneratorDataset([(1, 2)], names)):
        with pytest.raises(error) as info:
            make()
        assert words in str(info.value)


def test_each_iterator_reads_with_its_own_copy_of_a_user_sampler():
    # measured in MindSpore 2.10: a second iterator gives the rows the first gave (the
    # sampler's reset() counter and its own random generator start afresh)
    class Counting(ds.Sampler):
        def __init__(self):
            super().__init__(2)
            self.cnt = 0

        def __iter__(self):
            return iter([self.cnt] * self.num_samples)

        def reset(self):
            self.cnt = (self.cnt + 1) % self.dataset_size

    class Shuffled:
        def __init__(self):
            self.rng = np.random.default_rng(0)

        def __iter__(self):
            return iter(self.rng.permutation(5).tolist())

        def __len__(self):
            return 5

    for sampler in (Counting(), Shuffled()):
        d = ds.NumpySlicesDataset(list(range(5)), sampler=sampler)
        runs = [_column(d, num_epochs=3, epochs=3) for _ in range(2)]
        assert runs[0] == runs[1] and runs[0][0] != runs[0][1]


def test_batch_sampler_copied_per_iterator_and_drawn_through_skipped_epochs():
    # measured in MindSpore 2.10: each iterator draws from its own copy of the batch sampler;
    # set_init_step(k epochs) gives the batches a run from the start gives there
    class RandomBatches:
        def __init__(self):
            self.indices = [[4], [0, 1], [2, 3]]
            self.rng = np.random.default_rng(0)

        def __iter__(self):
            self.rng.shuffle(self.indices)
            return iter(self.indices)

    d = ds.GeneratorDataset([np.array(i) for i in range(5)], ["a"], batch_sampler=RandomBatches())
    assert d.get_dataset_size() == 3 and d.get_batch_size() == -1
    first, again = (_column(d, num_epochs=3, epochs=3) for _ in range(2))
    assert first == again and first[0] != first[1]
    d.set_init_step(3)
    assert _column(d, num_epochs=3, epochs=2) == first[1:]


@pytest.mark.parametrize("batch_sampler, words", [
    ([1, 2, 3], "Batch sampler should return a list, but got an integer"),
    ([["1"], ["2"]], "Python sampler should return index of type integer"),
])
def test_batch_sampler_batch_errors(batch_sampler, words):
    # measured in MindSpore 2.10: RuntimeError when read
    d = ds.GeneratorDataset([np.array(i) for i in range(5)], ["a"], batch_sampler=batch_sampler)
    with pytest.raises(RuntimeError, match=words):
        _column(d)


def test_split_of_a_generator_stream():
    # measured in MindSpore 2.10: split([0.8, 0.2]) (randomize=True) of a generator function
    # gives parts of 51 and 13 rows that together hold every row once
    d = ds.GeneratorDataset(lambda: ((np.array(i),) for i in range(64)), ["data"], shuffle=False)
    parts = d.split([0.8, 0.2])
    assert [p.get_dataset_size() for p in parts] == [51, 13]
    rows = [_column(p)[0] for p in parts]
    assert sorted(rows[0] + rows[1]) == list(range(64))


def test_debug_mode_with_a_dict_column():
    # measured in MindSpore 2.10 (the suite's collate_fn test in debug mode): a dict column
    # goes through a map in debug mode (the debug log crashed on it)
    ds.config.set_debug_mode(True)
    try:
        d = ds.GeneratorDataset([({"data": np.array([1])},)], ["data"])
        assert _column(d.map(lambda x: x["data"], input_columns=["data"])) == [[[1]]]
    finally:
        ds.config.set_debug_mode(False)


def test_a_list_row_holds_one_value_per_column():
    # measured in MindSpore 2.10: a list row is split into columns as a tuple is, with one
    # column too ([x] gives x; [a, b, c] for one column is the column-count error)
    one = ds.GeneratorDataset(lambda: iter([[np.array([1, 2])], [np.array([3, 4])]]), ["a"])
    assert _column(one) == [[[1, 2], [3, 4]]]
    assert _column(ds.GeneratorDataset([[1], [2]], ["a"], shuffle=False)) == [[1, 2]]
    with pytest.raises(RuntimeError, match="number of returned NumPy array is:3"):
        _column(ds.GeneratorDataset([[1, 2, 3]], ["a"]))


@pytest.mark.parametrize("rows", [2, 7])
def test_stream_source_with_a_wrong_len_fails(rows):
    # measured in MindSpore 2.10: an iterable whose __len__ (3, the dataset size) differs from
    # the rows it gives fails when the epoch ends
    class WrongLen:
        def __iter__(self):
            return iter([(np.array(i),) for i in range(rows)])

        def __len__(self):
            return 3

    d = ds.GeneratorDataset(WrongLen(), ["a"])
    assert d.get_dataset_size() == 3
    with pytest.raises(RuntimeError, match=f"The actual amount of data read from generator "
                                           f"{rows} is different from generator.len 3"):
        _column(d)
    assert _column(ds.GeneratorDataset(WrongLen(), ["a"], num_samples=2)) == [[0, 1]]
