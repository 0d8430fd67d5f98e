"""Behaviours of ds.Schema and of string and bytes columns through pipelines that MindSpore's own
dataset tests check, each as measured in MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds


def _rows(dataset):
    return [r[0] for r in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)]


def test_concat_takes_strings_of_different_widths():
    # measured in MindSpore 2.10: <U1 rows then <U3 rows concatenate (a str column is a str
    # column whatever its longest value); it raised a type mismatch before
    a = ds.GeneratorDataset(lambda: iter([(np.array(["a"]),)]), ["u"], shuffle=False)
    b = ds.GeneratorDataset(lambda: iter([(np.array(["bbb"]),)]), ["u"], shuffle=False)
    assert [r.tolist() for r in _rows(a + b)] == [["a"], ["bbb"]]


def test_concat_still_refuses_str_with_bytes():
    # measured in MindSpore 2.10: "... should be the same, but got: string and bytes."
    a = ds.GeneratorDataset(lambda: iter([(np.array(["a"]),)]), ["u"], shuffle=False)
    b = ds.GeneratorDataset(lambda: iter([(np.array([b"b"]),)]), ["u"], shuffle=False)
    with pytest.raises(RuntimeError, match="should be the same, but got: string and bytes"):
        _rows(a + b)
