"""Mistakes MindSpore 2.10 finds only when its pipeline starts (a RuntimeError from its C++
engine) are found here when the dataset or sampler is built: the error is both a ValueError and
a RuntimeError, and carries MindSpore's words after this project's text."""
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
