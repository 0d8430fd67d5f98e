"""Mistakes MindSpore 2.10 finds only when its pipeline starts (a RuntimeError from its C++
engine) are found here when the dataset or sampler is built: the error is both a ValueError and
a RuntimeError, and carries MindSpore's words after this project's text. Range errors carry
MindSpore's words too."""
import numpy as np

import minddata as ds


def test_unknown_columns_are_runtime_and_value_errors_with_mindspore_words():
    # MindSpore 2.10 finds these when the pipeline starts and raises RuntimeError; here they
    # fail when the dataset is built, as an error of both types, with MindSpore's words.
    import pytest
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
    with pytest.raises(RuntimeError, match="input column name: y doesn't exist"):
        data.map(lambda x: x, input_columns=["y"])
    with pytest.raises(ValueError, match="column name: y does not exist"):
        data.project(["y"])
    with pytest.raises(RuntimeError, match="column to be renamed does not exist"):
        data.rename(["y"], ["z"])
    with pytest.raises(RuntimeError, match="column name: y does not exist"):
        data.create_tuple_iterator(columns=["y"], num_epochs=1)
    with pytest.raises(RuntimeError, match="num_epochs should be either -1 or positive"):
        data.create_tuple_iterator(num_epochs=0)


def test_sampler_arguments_mindspore_checks_when_the_pipeline_starts():
    import pytest
    for make, words in ((lambda: ds.DistributedSampler(2, -1), "shard_id must be in range"),
                        (lambda: ds.DistributedSampler(0, 0), "num_shards must be greater"),
                        (lambda: ds.SequentialSampler(-1), "start_index_ must be greater")):
        with pytest.raises(RuntimeError, match=words):
            make()
        with pytest.raises(ValueError, match=words):
            make()


def test_range_errors_carry_mindspore_words():
    """Texts measured in MindSpore 2.10 for the same mistakes; code that matches on them keeps
    working (this project adds the value given)."""
    import pytest
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
    cases = [
        (lambda: data.batch(0), "Input batch_size is not within the required interval of "
                                "[1, 2147483647]."),
        (lambda: data.shuffle(0), "Input buffer_size is not within the required interval of "
                                  "[2, 2147483647]."),
        (lambda: data.skip(-1), "Input count is not within the required interval of "
                                "[0, 2147483647]."),
        (lambda: data.take(-2), "count should be either -1 or within the required interval "
                                "of (0, 2147483647], got -2."),
        (lambda: data.repeat(0), "count should be either -1 or positive integer, "
                                 "range[1, INT32_MAX]."),
        (lambda: data.map(lambda x: x, num_parallel_workers=0),
         "num_parallel_workers exceeds the boundary between 1 and"),
        (lambda: ds.RandomSampler(num_samples=-1), "num_samples exceeds the boundary between "
                                                   "0 and 9223372036854775807(INT64_MAX)!"),
        (lambda: ds.config.set_seed(-1), "seed given is not within the required range "
                                         "[0, UINT32_MAX(4294967295)]."),
        (lambda: ds.config.set_num_parallel_workers(0), "Number of parallel workers given is "
                                                        "not within the required range"),
        (lambda: ds.config.set_prefetch_size(0), "size is not within the required range "
                                                 "(0, INT32_MAX(2147483647)]."),
    ]
    for call, words in cases:
        with pytest.raises(ValueError) as info:
            call()
        assert words in str(info.value)


def test_type_errors_use_mindspore_s_text():
    import pytest
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
    with pytest.raises(TypeError, match=r"Argument drop_remainder with value 1 is not of type "
                                        r"\[<class 'bool'>\], but got <class 'int'>\."):
        data.batch(2, drop_remainder=1)
    with pytest.raises(TypeError, match=r"Argument buffer_size with value a is not of type "
                                        r"\[<class 'int'>\]"):
        data.shuffle("a")
    # (measured in MindSpore 2.10: the samplers word their own type errors)
    with pytest.raises(TypeError, match="shuffle must be a boolean value or valid shuffle mode "
                                        "but was: 1."):
        ds.DistributedSampler(2, 0, shuffle=1)
