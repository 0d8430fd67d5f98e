"""batch, bucket_batch_by_length and the combining/renaming operations as MindSpore's own
dataset tests check them (values, column order, argument checks and their words); every
expected value here was measured in MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds


def _seq(n):
    return ds.GeneratorDataset(lambda: ((np.array([i]),) for i in range(n)), ["num"],
                               shuffle=False)


def _ranges(n):
    """Rows [0], [0, 1], ..., [0, ..., n-1]."""
    return ds.GeneratorDataset(lambda: ((np.arange(i + 1),) for i in range(n)), ["col1"],
                               shuffle=False)


def _three_cols():
    return ds.GeneratorDataset(
        lambda: ((np.array([i]), np.array([2 * i]), np.array([3 * i])) for i in range(2)),
        ["a", "b", "c"], shuffle=False)


def _column(d, name):
    return [r[name].tolist() for r in d.create_dict_iterator(num_epochs=1, output_numpy=True)]


# -- batch: arguments ------------------------------------------------------------------------
def test_batch_size_true_is_one_and_false_is_out_of_range():
    # measured in MindSpore 2.10: a bool is an int there; True batches rows one by one
    assert len(_column(_seq(12).batch(True), "num")) == 12
    with pytest.raises(ValueError, match="batch_size"):
        _seq(12).batch(False)


def test_batch_drop_remainder_checked_after_a_true_batch_size():
    # measured in MindSpore 2.10: batch(True, 1) complains about drop_remainder
    with pytest.raises(TypeError, match="drop_remainder"):
        _seq(12).batch(True, 1)


def test_batch_size_minus_one_is_refused_with_both_error_types():
    # measured in MindSpore 2.10: RuntimeError "Batch size cannot be -1 without using batch
    # sampler." when the pipeline starts; the project refuses it at once, as ValueError too
    with pytest.raises(RuntimeError, match="cannot be -1 without using batch sampler"):
        _seq(12).batch(-1)
    with pytest.raises(ValueError, match="batch_size"):
        _seq(12).padded_batch(-1)


def test_batch_size_callable_must_take_one_parameter():
    # measured in MindSpore 2.10: ValueError at batch()
    with pytest.raises(ValueError, match="callable batch_size should take one parameter"):
        _seq(4).batch(lambda a, b: 1)
    with pytest.raises(ValueError, match="callable batch_size should take one parameter"):
        _seq(4).batch(lambda: 1)


def test_batch_size_callable_returning_zero_is_a_runtime_error():
    # measured in MindSpore 2.10: RuntimeError "... should return an integer greater than 0"
    with pytest.raises(RuntimeError, match="should return an integer greater than 0"):
        list(_seq(4).batch(lambda info: 0))


def test_input_columns_without_per_batch_map():
    # measured in MindSpore 2.10
    with pytest.raises(ValueError, match="input_columns can be specified only when "
                                         "per_batch_map is set"):
        _seq(4).batch(2, input_columns=["num"])


def test_per_batch_map_signature_must_match_input_columns():
    # measured in MindSpore 2.10: ValueError at batch()
    with pytest.raises(ValueError, match="signature of per_batch_map should match with input "
                                         "columns"):
        _seq(4).batch(2, input_columns=["num"], per_batch_map=lambda a, b, c: (a,))


def test_python_multiprocessing_type_words():
    # measured in MindSpore 2.10
    with pytest.raises(TypeError, match="Argument python_multiprocessing with value x is not "
                                        "of type"):
        _seq(4).batch(2, python_multiprocessing="x")


def test_padded_and_bucket_batch_class_names():
    # measured in MindSpore 2.10: type(...).__name__
    assert type(_seq(4).padded_batch(2)).__name__ == "PaddedBatchDataset"
    assert type(_seq(4).bucket_batch_by_length(["num"], [1], [1, 1])).__name__ == \
        "BucketBatchByLengthDataset"


# -- batch: per_batch_map columns ------------------------------------------------------------
@pytest.mark.parametrize("ins, outs, expected", [
    (["c", "a"], None, ["a", "b", "c"]),        # as many outputs as inputs: in their places
    (["c", "a"], ["x", "y"], ["y", "b", "x"]),
    (["a", "b"], ["b", "a"], ["b", "a", "c"]),
    (["b"], ["b", "q"], ["b", "q", "a", "c"]),  # otherwise: outputs first
    (["a", "c"], ["c"], ["c", "b"]),
])
def test_per_batch_map_column_order(ins, outs, expected):
    # measured in MindSpore 2.10 (column names and the dict iterator's key order); with two
    # or more columns kept MindSpore's own order among them is its hash map's
    def identity(*cols):
        cols = cols[:-1]
        return tuple(cols[k % len(cols)] for k in range(len(outs or ins)))
    d = _three_cols().batch(2, input_columns=ins, output_columns=outs, per_batch_map=identity)
    assert d.get_col_names() == expected
    row = next(d.create_dict_iterator(num_epochs=1, output_numpy=True))
    assert list(row) == expected


def test_per_batch_map_split_column_values_follow_the_order():
    # measured in MindSpore 2.10: col_x, col_y, then col1
    d = ds.GeneratorDataset(lambda: ((np.array([i]), np.array([i * i])) for i in (1, 2)),
                            ["col1", "col2"], shuffle=False)
    d = d.batch(2, input_columns=["col2"], output_columns=["col_x", "col_y"],
                per_batch_map=lambda c, info: (list(c), [-a for a in c]))
    (row,) = list(d.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert [a.tolist() for a in row] == [[[1], [4]], [[-1], [-4]], [[1], [2]]]


def test_per_batch_map_output_naming_a_kept_column_is_refused_when_iterated():
    # measured in MindSpore 2.10: written without error; get_col_names() and iterating raise
    # RuntimeError "Invalid output_columns, columns that are not involved in 'per_batch_map'
    # should not be in output_columns"
    d = ds.GeneratorDataset(lambda: ((np.array([i]), np.array([i])) for i in range(2)),
                            ["col1", "col2"])
    d = d.batch(2, input_columns=["col2"], output_columns=["col1"],
                per_batch_map=lambda c, info: (c,))
    for use in (list, lambda b: b.get_col_names()):
        with pytest.raises(RuntimeError, match="columns that are not involved in "
                                               "'per_batch_map' should not be in output_columns"):
            use(d)


def test_per_batch_map_unknown_input_column_is_refused_when_iterated():
    # measured in MindSpore 2.10: written without error; iterating raises RuntimeError
    # "'num1' of 'input_columns' doesn't exist"
    d = _seq(4).batch(2, input_columns=["num1"], per_batch_map=lambda c, info: (c,))
    with pytest.raises(RuntimeError, match="'num1' of 'input_columns' doesn't exist"):
        list(d)


@pytest.mark.parametrize("size, factor, words", [
    (2, 2, "expects: 2 rows returned from 'per_batch_map', got: 4"),
    (4, 0.5, "expects: 4 rows returned from 'per_batch_map', got: 2"),
])
def test_per_batch_map_must_return_one_value_per_row(size, factor, words):
    # measured in MindSpore 2.10: RuntimeError, not a batch of another size
    def resize(col, info):
        return ((list(col) * 2)[:int(len(col) * factor)],)
    d = _seq(4).batch(size, input_columns=["num"], per_batch_map=resize)
    with pytest.raises(RuntimeError, match=words):
        list(d)


def test_per_batch_map_wrong_number_of_columns_words():
    # measured in MindSpore 2.10
    d = _seq(4).batch(2, input_columns=["num"], output_columns=["x", "y", "z"],
                      per_batch_map=lambda c, info: (c, c))
    with pytest.raises(RuntimeError, match="the number of columns returned in 'per_batch_map' "
                                           "function should be 3"):
        list(d)


def test_per_batch_map_whole_batch_array_is_kept():
    # measured in MindSpore 2.10: an array is the batch's column as it is (no row count)
    d = _seq(4).batch(2, input_columns=["num"], per_batch_map=lambda c, info: (np.array(10),))
    assert _column(d, "num") == [10, 10]


# -- bucket_batch_by_length ------------------------------------------------------------------
@pytest.mark.parametrize("args, error, words", [
    (([1], [1, 2, 3], [1, 1, 1, 1]), TypeError, "Argument column_names[0] with value 1"),
    ((["num"], [], [1]), ValueError, "bucket_boundaries cannot be empty"),
    ((["num"], ["1", "2"], [1, 1, 1]), TypeError, "bucket_boundaries should be a list of int"),
    ((["num"], [0, 2], [1, 1, 1]), ValueError,
     "bucket_boundaries must only contain positive numbers"),
    ((["num"], [1, 2, 2], [1, 1, 1, 1]), ValueError,
     "bucket_boundaries should be strictly increasing"),
    ((["num"], [1, 2], ["1", "2", "3"]), TypeError, "bucket_batch_sizes should be a list of int"),
    ((["num"], [1, 2], [1, 0, 1]), ValueError,
     "bucket_batch_sizes should be a list of positive numbers"),
    ((["num"], [1, 2], [1, 2]), ValueError,
     "bucket_batch_sizes must contain one element more than bucket_boundaries"),
    ((["num"], (1, 2), [1, 1, 1]), TypeError, "Argument bucket_boundaries with value"),
    ((["num", "num"], [1], [1, 1]), ValueError,
     "Every column name should not be same with others"),
    ((["num"], [1], [1, 1], 3), TypeError, "element_length_function object is not callable"),
])
def test_bucket_batch_argument_checks(args, error, words):
    # measured in MindSpore 2.10 (error types and words)
    with pytest.raises(error) as info:
        _seq(4).bucket_batch_by_length(*args)
    assert words in str(info.value)


def test_bucket_batch_pads_every_column_without_pad_info():
    # measured in MindSpore 2.10: rows of different lengths padded with 0, pad_info or not
    expected = [[[0, 0, 0, 0], [0, 1, 0, 0], [0, 1, 2, 0], [0, 1, 2, 3]]]
    assert _column(_ranges(4).bucket_batch_by_length(["col1"], [10], [4, 1]), "col1") == \
        expected
    assert _column(_ranges(4).bucket_batch_by_length(["col1"], [10], [4, 1], None, {}),
                   "col1") == expected


def test_bucket_batch_pads_the_column_not_measured():
    # measured in MindSpore 2.10
    d = ds.GeneratorDataset(lambda: ((np.array([i]), np.arange(i + 1)) for i in range(4)),
                            ["same", "varying"], shuffle=False)
    d = d.bucket_batch_by_length(["same"], [6], [4, 1])
    assert _column(d, "varying") == [[[0, 0, 0, 0], [0, 1, 0, 0], [0, 1, 2, 0], [0, 1, 2, 3]]]


def test_bucket_batch_with_pad_info_pads_only_the_columns_it_names():
    # measured in MindSpore 2.10: RuntimeError for the ragged column pad_info leaves out
    d = ds.GeneratorDataset(lambda: ((np.arange(i + 1), np.array([i])) for i in range(4)),
                            ["a", "b"], shuffle=False)
    with pytest.raises(RuntimeError, match="different shapes"):
        list(d.bucket_batch_by_length(["a"], [10], [4, 1], None, {"b": ([2], 9)}))
    padded = d.bucket_batch_by_length(["a"], [10], [4, 1], None, {"a": ([None], 0)})
    assert _column(padded, "a") == [[[0, 0, 0, 0], [0, 1, 0, 0], [0, 1, 2, 0], [0, 1, 2, 3]]]


@pytest.mark.parametrize("length", [1.5, "a"])
def test_bucket_batch_length_must_be_an_int(length):
    # measured in MindSpore 2.10: RuntimeError "Unable to cast Python instance ..."
    d = _ranges(4).bucket_batch_by_length(["col1"], [2], [4, 4], lambda x: length)
    with pytest.raises(RuntimeError, match="Unable to cast"):
        list(d)


# -- padded_batch ----------------------------------------------------------------------------
def _two_cols(strings=False):
    """col1d [i], col2d [[i + 100], [i + 200]], as numbers or as strings (str and bytes)."""
    def rows():
        for i in range(2):
            if strings:
                yield (np.array([str(i)]),
                       np.array([[str(i + 100)], [str(i + 200)]], dtype=np.bytes_))
            else:
                yield np.array([i]), np.array([[i + 100], [i + 200]])
    return ds.GeneratorDataset(rows, ["col1d", "col2d"], shuffle=False)


def test_padded_batch_without_pad_info_does_not_pad():
    # measured in MindSpore 2.10: RuntimeError "Cannot batch tensors with different shapes"
    with pytest.raises(RuntimeError, match="different shapes"):
        list(_ranges(3).padded_batch(3))
    assert _column(_ranges(3).padded_batch(3, pad_info={}), "col1") == \
        [[[0, 0, 0], [0, 1, 0], [0, 1, 2]]]


def test_padded_batch_cuts_rows_longer_than_pad_shape():
    # measured in MindSpore 2.10: padded in one dimension, cut short in the other
    d = _two_cols().padded_batch(2, pad_info={"col2d": ([1, 2], -2)})
    assert _column(d, "col2d") == [[[[100, -2]], [[101, -2]]]]
    assert _column(d, "col1d") == [[[0], [1]]]


def test_padded_batch_string_pad_values_are_kept_whole():
    # measured in MindSpore 2.10: the column widens to the pad value (not "-" nor "P")
    d = _two_cols(strings=True).padded_batch(
        2, pad_info={"col2d": ([2, 2], b"-2"), "col1d": ([2], "-1")})
    assert _column(d, "col1d") == [[["0", "-1"], ["1", "-1"]]]
    assert _column(d, "col2d") == [[[[b"100", b"-2"], [b"200", b"-2"]],
                                    [[b"101", b"-2"], [b"201", b"-2"]]]]
    words = ds.GeneratorDataset(lambda: ((np.array([str(j) for j in range(i + 1)]),)
                                         for i in range(2)), ["col"], shuffle=False)
    assert _column(words.padded_batch(2, pad_info={"col": (None, "PAD_VALUE")}), "col") == \
        [[["0", "PAD_VALUE"], ["0", "1"]]]


@pytest.mark.parametrize("dtype, value, expected", [
    ("uint8", -1, [[0, 255, 255], [0, 1, 255]]),
    ("int64", 1.7, [[0, 1, 1], [0, 1, 1]]),
    ("bool", 5, [[False, True, True], [False, True, True]]),
])
def test_padded_batch_pad_value_is_cast_to_the_column_type(dtype, value, expected):
    # measured in MindSpore 2.10: the batch keeps the rows' dtype
    d = ds.GeneratorDataset(lambda: ((np.arange(i + 1).astype(dtype),) for i in range(2)),
                            ["c"], shuffle=False).padded_batch(2, pad_info={"c": ([3], value)})
    (batch,) = [r[0] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    assert batch.dtype == np.dtype(dtype) and batch.tolist() == expected


def test_padded_batch_of_rows_of_other_types_is_refused():
    # measured in MindSpore 2.10: RuntimeError "Cannot batch tensors with different types"
    # (was padded silently into a float64 batch)
    d = ds.GeneratorDataset(lambda: ((np.ones(i + 1, dtype=("int32", "float32")[i]),)
                                     for i in range(2)), ["s"], shuffle=False)
    with pytest.raises(RuntimeError, match="Cannot batch tensors with different types"):
        list(d.padded_batch(2, pad_info={}))
    with pytest.raises(RuntimeError, match="Cannot batch tensors with different shapes"):
        list(_ranges(2).batch(2))


def test_padded_batch_string_pad_value_on_numbers_is_refused():
    # measured in MindSpore 2.10: RuntimeError "PadEnd: can not pad numeric and string ..."
    with pytest.raises(RuntimeError, match="can not pad numeric and string"):
        list(_ranges(2).padded_batch(2, pad_info={"col1": ([3], "a")}))


def test_padded_batch_pad_info_checks():
    # measured in MindSpore 2.10 (types and words)
    with pytest.raises(RuntimeError, match="Invalid pad_info, column name: x does not exist"):
        _ranges(2).padded_batch(2, pad_info={"x": ([3], 0)})
    with pytest.raises(ValueError, match="value of pad_info should be a tuple of size 2"):
        _ranges(2).padded_batch(2, pad_info={"col1": [3]})
    with pytest.raises(ValueError, match="dim of shape in pad_info is not within the required "
                                         "interval"):
        _ranges(2).padded_batch(2, pad_info={"col1": ([0], 0)})
    with pytest.raises(RuntimeError, match="rank of pad_shape must be equal to rank"):
        list(_ranges(2).padded_batch(2, pad_info={"col1": ([2, 2], 0)}))


def test_bucket_batch_cuts_rows_longer_than_pad_shape():
    # measured in MindSpore 2.10
    d = _ranges(4).bucket_batch_by_length(["col1"], [10], [4, 1], None, {"col1": ([2], -1)})
    assert _column(d, "col1") == [[[0, -1], [0, 1], [0, 1], [0, 1]]]


# -- concat, zip, rename, apply --------------------------------------------------------------
def _from(lo, hi, name="col1"):
    return ds.GeneratorDataset(lambda: ((np.array([i]),) for i in range(lo, hi)), [name],
                               shuffle=False)


def test_concat_of_other_columns_fails_when_iterated():
    # measured in MindSpore 2.10: `data1 + data2` is written without error; iterating raises
    # RuntimeError "... 'column name' or 'column order' of concat datasets should be the same"
    mixed = _from(0, 3) + _from(3, 10, "col2")
    with pytest.raises(RuntimeError, match="'column order' of concat datasets should be"):
        list(mixed)


def test_concat_of_batches_and_rows_is_refused():
    # measured in MindSpore 2.10 (was served: 3 rows, then 2 batches, in one column)
    with pytest.raises(RuntimeError, match="data tensor rank of the two datasets to be "
                                           "concatenated should be the same"):
        list(_from(0, 3) + _from(3, 10).batch(3))


def test_concat_and_zip_getters_read_the_last_dataset():
    # measured in MindSpore 2.10
    assert (_from(0, 3).batch(3) + _from(10, 20).batch(5)).get_batch_size() == 5
    assert (_from(0, 3).batch(3) + _from(10, 20)).get_batch_size() == 1
    assert (_from(0, 3).repeat(2) + _from(3, 5)).get_repeat_count() == 1
    assert (_from(0, 3) + _from(3, 5).repeat(3)).get_repeat_count() == 3
    assert ds.zip((_from(0, 3).batch(3), _from(0, 4, "b").batch(2))).get_batch_size() == 2
    assert ds.zip((_from(0, 3).repeat(2), _from(0, 4, "b"))).get_repeat_count() == 1


def test_zip_needs_two_datasets_or_more():
    # measured in MindSpore 2.10: ValueError "Can't zip empty or just one dataset!"
    for datasets in ((), (_from(0, 3),)):
        with pytest.raises(ValueError, match="Can't zip empty or just one dataset"):
            ds.zip(datasets)
    with pytest.raises(TypeError, match="expected Dataset object"):
        ds.zip((_from(0, 3), 3))


def test_zip_duplicate_columns_words_and_types():
    # measured in MindSpore 2.10: RuntimeError when the pipeline starts
    with pytest.raises(RuntimeError, match="duplicate column col1 already exists when zipping"):
        ds.zip((_from(0, 3), _from(0, 3)))


def test_rename_onto_a_kept_column_words():
    # measured in MindSpore 2.10: RuntimeError when the pipeline starts
    two = ds.zip((_from(0, 3), _from(0, 3, "b")))
    with pytest.raises(RuntimeError, match="existing column name is: b"):
        two.rename("col1", "b")
    assert _column(_from(0, 2).rename("col1", "col1"), "col1") == [[0], [1]]
    with pytest.raises(ValueError, match="Number of column in input_columns and "
                                         "output_columns is not equal"):
        two.rename(["col1", "b"], ["x"])


def test_apply_words():
    # measured in MindSpore 2.10
    with pytest.raises(TypeError, match="apply_func must be a function"):
        _from(0, 3).apply("123")
    with pytest.raises(TypeError, match="apply_func must return a dataset"):
        _from(0, 3).apply(lambda d: 3)


# -- split -----------------------------------------------------------------------------------
class _FiveRows:
    def __getitem__(self, i):
        return (np.array([i]),)

    def __len__(self):
        return 5


def _five(**kwargs):
    return ds.GeneratorDataset(_FiveRows(), ["c"], shuffle=False, **kwargs)


@pytest.mark.parametrize("sizes, error, words", [
    ([], ValueError, "sizes cannot be empty"),
    ([5, 0.6], ValueError, "sizes should be list of int or list of float"),
    ([-1, 6], ValueError, "there should be no negative or zero numbers"),
    ([3, 1], RuntimeError, "Sum of split sizes 4 is not equal to dataset size 5"),
    ([0.15] * 5 + [0.25], RuntimeError,
     "Sum of calculated split sizes 6 is not equal to dataset size 5"),
    ([1.5, 0.5], ValueError, "there should be no numbers outside the range (0, 1]"),
    ([0.3, 0.6], ValueError, "percentages do not sum up to 1"),
    ([0.05, 0.95], RuntimeError, "Split percentage 0.05 is too small"),
    (5, TypeError, "Argument sizes with value 5 is not of type"),
])
def test_split_checks(sizes, error, words):
    # measured in MindSpore 2.10 (types and words)
    with pytest.raises(error) as info:
        _five().split(sizes, randomize=False)
    assert words in str(info.value)


def test_split_of_a_sharded_dataset_is_refused():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="Dataset should not be sharded before split"):
        _five(num_shards=2, shard_id=0).split([2, 1])


def test_split_fractions_rounded_as_mindspore():
    # measured in MindSpore 2.10: [0.33, 0.67] of 5 rows is 2 and 3 rows; a bool counts as 1
    parts = _five().split([0.33, 0.67], randomize=False)
    assert [_column(p, "c") for p in parts] == [[[0], [1]], [[2], [3], [4]]]
    parts = _five().split([True, 4], randomize=False)
    assert [len(_column(p, "c")) for p in parts] == [1, 4]


def test_use_sampler_on_a_split_part_samples_the_part():
    # measured in MindSpore 2.10: the part keeps its rows (row 4 is the other part's)
    first, second = _five().split([4, 1], randomize=False)
    first.use_sampler(ds.SequentialSampler())
    assert _column(first, "c") == [[0], [1], [2], [3]]
    first.use_sampler(ds.DistributedSampler(2, 0, shuffle=False))
    assert _column(first, "c") == [[0], [2]]
    assert _column(second, "c") == [[4]]


# -- output_shapes(estimate=True) ------------------------------------------------------------
def test_output_shapes_estimate_gives_none_where_rows_differ():
    # measured in MindSpore 2.10
    d = ds.GeneratorDataset(lambda: ((np.ones((16, i, 83)), np.array(i)) for i in range(1, 9)),
                            ["data1", "data2"], shuffle=False)
    assert d.output_shapes(estimate=True) == [[16, None, 83], []]
    assert d.output_shapes() == [[16, 1, 83], []]
    assert d.batch(1).output_shapes(estimate=True) == [[1, 16, None, 83], [1]]


def test_output_shapes_estimate_checks():
    # measured in MindSpore 2.10
    d = ds.GeneratorDataset(lambda: iter([(np.array([[1], [2]]),), (np.array([1, 2]),)]),
                            ["data1"], shuffle=False)
    with pytest.raises(RuntimeError, match="Inconsistent shapes, expect same shape for each "
                                           "data row, last data row: <2,1>, current data row: "
                                           "<2>"):
        d.output_shapes(estimate=True)
    with pytest.raises(TypeError, match="Argument estimate with value 1 is not of type"):
        d.output_shapes(estimate=1)


# -- save ------------------------------------------------------------------------------------
def _read_back(path):
    rows = ds.MindDataset(path, shuffle=False).create_dict_iterator(num_epochs=1,
                                                                   output_numpy=True)
    return [dict(r) for r in rows]


@pytest.mark.parametrize("dtype, saved", [
    (np.uint8, np.int32), (np.int8, np.int32), (np.uint16, np.int32), (np.bool_, np.int32),
    (np.uint32, np.int64), (np.float16, np.float32), (np.float64, np.float64),
])
def test_save_types_as_mindspore_casts_them(tmp_path, dtype, saved):
    # measured in MindSpore 2.10: batches of 4 rows [i] saved and read back, shape kept
    d = ds.GeneratorDataset(lambda: ((np.array([i], dtype=dtype),) for i in range(8)),
                            ["data"], shuffle=False).batch(4)
    d.save(str(tmp_path / "t.mindrecord"))
    rows = _read_back(str(tmp_path / "t.mindrecord"))
    assert [r["data"].dtype for r in rows] == [np.dtype(saved)] * 2
    assert rows[1]["data"].tolist() == np.array([[4], [5], [6], [7]], dtype=dtype).astype(
        saved).tolist()


def test_save_takes_bytes_as_mindrecord_gives_them(tmp_path):
    # measured in MindSpore 2.10: a bytes field reads back as shape (1,) (|S<n>), and a column
    # of such values saves as a bytes field again
    path = str(tmp_path / "b.mindrecord")
    ds.GeneratorDataset(lambda: ((np.array([b"abc%d" % i]),) for i in range(2)), ["img"],
                        shuffle=False).save(path)
    assert [r["img"].tobytes() for r in _read_back(path)] == [b"abc0", b"abc1"]


def test_save_checks(tmp_path):
    # measured in MindSpore 2.10 (types and words)
    d = _from(0, 3)
    path = str(tmp_path / "x.mindrecord")
    with pytest.raises(ValueError, match="num_files should between 0 and 1000"):
        d.save(path, 0)
    with pytest.raises(ValueError, match="tfrecord dataset format is not supported"):
        d.save(path, 1, "tfrecord")
    with pytest.raises(TypeError, match="Argument file_type with value 3 is not of type"):
        d.save(path, 1, 3)
    with pytest.raises(TypeError, match="Argument file_name with value 5 is not of type"):
        d.save(5)
    strings = ds.GeneratorDataset(lambda: ((np.array(["a", "b"]),) for _ in range(2)), ["s"])
    with pytest.raises(RuntimeError, match="can not support multi-dimensional string tensor"):
        strings.save(path)


def test_batch_sampler_needs_a_random_access_source():
    # measured in MindSpore 2.10: ValueError "batch_sampler is not supported if source does not
    # have attribute '__getitem__'."
    with pytest.raises(ValueError, match="batch_sampler is not supported if source does not "
                                         "have attribute '__getitem__'"):
        ds.GeneratorDataset(lambda: iter([(np.array([1]),)]), ["a"], batch_sampler=[[0]])


def _rows_of(*values):
    return ds.GeneratorDataset(lambda: iter([(v,) for v in values]), ["x"], shuffle=False)


def test_save_refuses_rows_whose_other_dimensions_change(tmp_path):
    # measured in MindSpore 2.10: RuntimeError "... Except for the shape of dimension 0, the
    # other dimension shapes must be fixed." (the second row was saved reshaped to (2, 1))
    with pytest.raises(RuntimeError, match="the other dimension shapes must be fixed"):
        _rows_of(np.ones((1, 1)), np.ones((1, 2))).save(str(tmp_path / "r.mindrecord"))


def test_save_refuses_rows_of_another_rank_or_kind(tmp_path):
    # MindSpore 2.10 saves a (2, 2) row after a (2,) one flattened, and a float32 row after an
    # int32 one as its bytes read as int32 (1.0 -> 1065353216): refused here
    with pytest.raises(RuntimeError, match="dimension shapes must be fixed"):
        _rows_of(np.ones(2), np.ones((2, 2))).save(str(tmp_path / "a.mindrecord"))
    with pytest.raises(RuntimeError, match="one type per field"):
        _rows_of(np.ones(2, np.int32), np.ones(2, np.float32)).save(
            str(tmp_path / "b.mindrecord"))
    _rows_of(np.ones(2, np.int32), np.ones(3, np.int64)).save(str(tmp_path / "c.mindrecord"))
    assert [r["x"].tolist() for r in _read_back(str(tmp_path / "c.mindrecord"))] == \
        [[1, 1], [1, 1, 1]]
