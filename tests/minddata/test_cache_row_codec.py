"""Rows are stored without pickle: a small header (dtype, shape per column) and raw bytes."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minddata.cache.row_codec import RowDecodeError, decode_row, encode_row


def _same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def test_round_trip_of_the_dataset_representation():
    row = (np.arange(24, dtype=np.float32).reshape(2, 3, 4), np.array(7, dtype=np.int32),
           np.array("héllo"), np.frombuffer(b"\xff\xd8jpeg", dtype=np.uint8),
           np.array(b"ab\x00"), np.array([True, False]), np.zeros((0, 3), np.uint8))
    out = decode_row(encode_row(row)[0])
    assert len(out) == len(row) and all(_same(a, b) for a, b in zip(out, row))


def test_decoded_arrays_are_writable_aligned_and_independent():
    src = np.arange(10, dtype=np.float64)
    value = encode_row((src, np.arange(3, dtype=np.uint8)))[0]
    out = decode_row(memoryview(value))
    out[0][0] = 99
    assert src[0] == 0 and out[0].flags.writeable
    assert all(a.ctypes.data % 16 == 0 for a in out)


def test_non_contiguous_and_zero_dim_inputs():
    base = np.arange(12, dtype=np.int16).reshape(3, 4)
    out = decode_row(encode_row((base.T, np.float64(2.5)))[0])
    assert _same(out[0], base.T) and out[1].shape == () and out[1] == 2.5


def test_object_arrays_are_refused_naming_the_column():
    with pytest.raises(TypeError, match="label"):
        encode_row((np.zeros(2), np.array([{}, 1], dtype=object)), ["image", "label"])


def test_rows_must_be_tuples():
    with pytest.raises(TypeError, match="tuple"):
        encode_row(np.zeros(3))


@pytest.mark.parametrize("damage", [
    lambda b: b[:3],                  # shorter than the header
    lambda b: b"XXXX" + b[4:],        # wrong magic
    lambda b: b[:40],                 # payload cut off
])
def test_damaged_values_raise_decode_error(damage):
    value = bytes(encode_row((np.arange(100, dtype=np.int64),))[0])
    with pytest.raises(RowDecodeError):
        decode_row(damage(value))


@settings(deadline=None, max_examples=60)
@given(st.lists(hnp.arrays(dtype=st.one_of(hnp.integer_dtypes(), hnp.floating_dtypes(),
                                           hnp.unsigned_integer_dtypes(),
                                           st.just(np.dtype(bool)), hnp.unicode_string_dtypes(),
                                           hnp.byte_string_dtypes()),
                           shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0,
                                                  max_side=5)),
                min_size=1, max_size=5))
def test_any_numeric_or_string_row_round_trips(arrays):
    out = decode_row(encode_row(tuple(arrays))[0])
    for a, b in zip(out, arrays):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
