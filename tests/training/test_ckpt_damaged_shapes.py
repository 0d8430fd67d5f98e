"""A checkpoint whose declared tensor shape is damaged (issue 20, item 9): load_checkpoint raises
ValueError naming the file and the problem, before allocating anything, instead of numpy's own
"array is too big" without the path."""
import numpy as np
import pytest

from training import ckpt_proto
from training.checkpoint import load_checkpoint


def write_ckpt(path, values):
    """values: (tag, dims, tensor_type, content bytes), written as MindSpore lays them out."""
    with open(path, "wb") as f:
        for tag, dims, ttype, content in values:
            f.write(ckpt_proto.value_header(tag, dims, ttype, len(content)) + content)
    return str(path)


@pytest.mark.parametrize("dims,words", [
    ([0, 2 ** 62], "too large for an array"),             # numpy: "array is too big"
    ([0, 2 ** 61], "too large for an array"),             # 2**63 bytes of float32
    ([2 ** 40, 0, 2 ** 40], "too large for an array"),
    ([3, -1], "negative dimension"),
    ([1] * 40, "declares 40 dimensions"),
    ([2 ** 20, 2 ** 20], "but holds 0 bytes"),            # 4 TiB declared, none held
])
def test_a_damaged_shape_raises_value_error_naming_the_file(tmp_path, dims, words):
    path = write_ckpt(tmp_path / "bad.ckpt", [("ok", [2], "Float32", b"\0" * 8),
                                              ("w", dims, "Float32", b"")])
    with pytest.raises(ValueError, match="Failed to read the checkpoint file") as info:
        load_checkpoint(path)
    message = str(info.value)
    assert path in message and "parameter 'w'" in message and words in message


def test_empty_shapes_that_numpy_can_hold_still_load(tmp_path):
    path = write_ckpt(tmp_path / "empty.ckpt", [("a", [0, 2 ** 61 - 1], "Float32", b""),
                                                ("b", [0, 5], "Int8", b""),
                                                ("c", [2], "Float32", np.ones(2, np.float32)
                                                 .tobytes())])
    params = load_checkpoint(path)
    assert params["a"].asnumpy().shape == (0, 2 ** 61 - 1)
    assert params["b"].asnumpy().shape == (0, 5)
    np.testing.assert_array_equal(params["c"].asnumpy(), [1.0, 1.0])
