"""Fill on str and bytes arrays (issue 20, item 1): the result is as wide as the fill value
(Fill(b"abc") on a |S1 array gave b"a" three times), and a str or bytes value must meet an
array of its own kind, with MindSpore's words otherwise."""
import numpy as np
import pytest

from minddata.transforms import Fill


@pytest.mark.parametrize("array,value,dtype", [
    (np.array([b"a", b"b", b"c"]), b"abc", "S3"),
    (np.array(["a", "b", "c"]), "abc", "<U3"),
    (np.array(["a", "b"]), "héllo wörld", "<U11"),
    (np.array([[b"longer", b"x"]]), b"ab", "S2"),     # narrower than the input: its own width
    (np.array(b"x"), b"xyz", "S3"),                   # a 0-d array
    (np.array(["abcdef"]), np.str_("xy"), "<U2"),
])
def test_the_value_is_never_truncated(array, value, dtype):
    out = Fill(value)(array)
    assert out.shape == array.shape and out.dtype == np.dtype(dtype)
    assert (out == value).all()


def test_an_empty_value():
    out = Fill(b"")(np.array([b"ab", b"c"]))
    assert out.tolist() == [b"", b""]


@pytest.mark.parametrize("array,value,words", [
    (np.array([b"a"]), "abc", "fill_value data type string and input tensor data type bytes"),
    (np.array(["a"]), b"abc", "fill_value data type bytes and input tensor data type string"),
    (np.array(["a"]), 5, "fill_value data type int64 and input tensor data type string"),
    (np.array([1, 2]), "abc", "fill_value data type string and input tensor data type int64"),
    (np.array([1.0]), b"abc", "fill_value data type bytes and input tensor data type float64"),
])
def test_strings_and_bytes_fill_only_their_own_kind(array, value, words):
    with pytest.raises(RuntimeError, match="must be of the same data type when involving "
                                           "strings or bytes") as info:
        Fill(value)(array)
    assert words in str(info.value)


def test_numbers_keep_the_input_dtype():
    out = Fill(3.7)(np.array([1, 2], np.int8))
    assert out.dtype == np.int8 and out.tolist() == [3, 3]


def test_in_a_pipeline():
    import minddata as ds
    data = ds.NumpySlicesDataset({"text": np.array([b"a", b"b", b"c"])}, shuffle=False)
    data = data.map([Fill(b"abc")], "text")
    rows = [r["text"] for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]
    assert [bytes(np.asarray(r).item()) for r in rows] == [b"abc"] * 3
