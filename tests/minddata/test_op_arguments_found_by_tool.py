"""Argument checks tools/op_arguments_vs_mindspore.py found different from MindSpore 2.10's
(each value measured there)."""
import numpy as np
import pytest

import minddata as ds


def data():
    return ds.NumpySlicesDataset({"a": np.arange(5), "b": np.ones((5, 2), np.float32)},
                                 shuffle=False)


def test_concat_and_zip_of_no_datasets_are_refused():
    # MindSpore 2.10: RuntimeError 'Concat: concatenated datasets are not specified.' and
    # 'ZipNode: input datasets are not specified.' when the pipeline starts; here when built
    with pytest.raises(RuntimeError, match="concatenated datasets are not specified"):
        data().concat([])
    with pytest.raises(RuntimeError, match="input datasets are not specified"):
        data().zip(())


def test_sending_batches_past_int64_is_a_type_error():
    # MindSpore 2.10: TypeError 'set_sending_batches(): incompatible function arguments'
    for value in (2 ** 63, 2 ** 64, -2 ** 63 - 1):
        with pytest.raises(TypeError, match="incompatible function arguments"):
            ds.config.set_sending_batches(value)
    ds.config.set_sending_batches(2 ** 63 - 1)      # accepted there too
    ds.config.set_sending_batches(0)
