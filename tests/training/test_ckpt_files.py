"""MindSpore .ckpt files: the MindSpore-written fixtures, round trips, atomic writes, sliced
large tensors, corrupt input and load_param_into_net."""
import json
import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from mindrecord import protowire
from training import ckpt_proto, nn
from training import checkpoint as ckpt
from training.checkpoint import count_params, load_checkpoint, load_param_into_net, save_checkpoint

from tests.training.conftest import LeNet5


def test_mixed_fixture_loads_exact_dtypes_shapes_values(shared_fixtures):
    params = load_checkpoint(str(shared_fixtures / "ckpt" / "mixed.ckpt"))
    expected = json.load(open(shared_fixtures / "ckpt" / "mixed.json"))["params"]
    assert list(params) == list(expected)
    for name, spec in expected.items():
        arr = params[name].asnumpy()
        assert str(arr.dtype) == spec["dtype"] and list(arr.shape) == spec["shape"]
        np.testing.assert_array_equal(arr.reshape(-1), np.array(spec["values"], dtype=arr.dtype))


def test_lenet_fixture_loads_bit_exact(shared_fixtures):
    params = load_checkpoint(str(shared_fixtures / "ckpt" / "lenet5.ckpt"))
    expected = np.load(shared_fixtures / "ckpt" / "lenet5_expected.npz")
    spec = json.load(open(shared_fixtures / "ckpt" / "lenet5.json"))["params"]
    assert list(params) == list(spec)
    for name in expected.files:
        np.testing.assert_array_equal(params[name].asnumpy(), expected[name])


def test_rewriting_the_mixed_fixture_is_byte_identical(shared_fixtures, tmp_path):
    src = shared_fixtures / "ckpt" / "mixed.ckpt"
    params = load_checkpoint(str(src))
    out = tmp_path / "again.ckpt"
    save_checkpoint([{"name": k, "data": v} for k, v in params.items()], str(out))
    assert out.read_bytes() == src.read_bytes()


def test_rewriting_the_lenet_fixture_is_byte_identical(shared_fixtures, tmp_path):
    src = shared_fixtures / "ckpt" / "lenet5.ckpt"
    save_checkpoint(load_checkpoint(str(src)), str(tmp_path / "l.ckpt"))
    assert (tmp_path / "l.ckpt").read_bytes() == src.read_bytes()


def test_lenet_fixture_loads_into_our_lenet(shared_fixtures):
    net = LeNet5()
    params = load_checkpoint(str(shared_fixtures / "ckpt" / "lenet5.ckpt"))
    not_loaded, unused = load_param_into_net(net, params)
    assert not_loaded == []
    assert sorted(unused) == ["bn.beta", "bn.gamma", "bn.moving_mean", "bn.moving_variance"]
    np.testing.assert_array_equal(net.fc1.weight.data, params["fc1.weight"].asnumpy())


def test_network_round_trip_with_suffix_added(tmp_path):
    net = LeNet5()
    save_checkpoint(net, str(tmp_path / "lenet"))
    other = LeNet5()
    load_checkpoint(str(tmp_path / "lenet.ckpt"), net=other)
    for (n1, p1), (n2, p2) in zip(net.parameters_and_names(), other.parameters_and_names()):
        assert n1 == n2
        np.testing.assert_array_equal(p1.data, p2.data)


def test_append_dict_filter_prefix_and_choice_func(tmp_path):
    net = nn.Dense(3, 2)
    path = str(tmp_path / "d.ckpt")
    save_checkpoint(net, path, append_dict={"epoch_num": 7, "lr": 0.5})
    params = load_checkpoint(path)
    assert int(params["epoch_num"].asnumpy()) == 7 and params["lr"].dtype == np.float32
    assert list(load_checkpoint(path, filter_prefix="weight")) == ["bias", "epoch_num", "lr"]
    assert list(load_checkpoint(path, choice_func=lambda n: n == "bias")) == ["bias"]


def test_large_tensors_are_sliced_and_joined(tmp_path, monkeypatch):
    monkeypatch.setattr(ckpt, "SLICE_BYTES", 1000)
    big = np.arange(3000, dtype=np.float32).reshape(100, 30)
    path = str(tmp_path / "big.ckpt")
    save_checkpoint({"big": big, "small": np.ones(3, np.float32)}, path)
    data = open(path, "rb").read()
    tags = [v[0] for v in ckpt_proto.iter_values(data)]
    assert tags.count("big") == 12 and tags[-1] == "small"
    params = load_checkpoint(path)
    np.testing.assert_array_equal(params["big"].asnumpy(), big)


def test_varints_cover_lengths_beyond_2_gib():
    for n in (0, 1, 127, 128, 2**31 - 1, 2**31, 5 * 2**30, 2**40):
        enc = protowire.encode_varint(n)
        assert protowire.decode_varint(enc, 0, len(enc)) == (n, len(enc))
    header = ckpt_proto.value_header("w", [3 * 2**30], "UInt8", 3 * 2**30)
    assert header[0] == 0x0A  # field 1, length-delimited, with a 5-byte length after it


def test_write_is_atomic_when_interrupted(tmp_path, monkeypatch):
    path = tmp_path / "net.ckpt"
    save_checkpoint({"a": np.ones(4, np.float32)}, str(path))
    original = path.read_bytes()

    def boom(*args):
        raise OSError("disk full")
    monkeypatch.setattr(ckpt.os, "fsync", boom)
    with pytest.raises(OSError, match="disk full"):
        save_checkpoint({"a": np.zeros(4, np.float32)}, str(path))
    assert path.read_bytes() == original
    assert os.listdir(tmp_path) == ["net.ckpt"]


def test_async_save_writes_the_values_at_call_time(tmp_path):
    net = nn.Dense(2, 2)
    before = net.weight.data.copy()
    path = str(tmp_path / "a.ckpt")
    save_checkpoint(net, path, async_save=True)
    net.weight.data += 1
    ckpt.wait_async_save()
    np.testing.assert_array_equal(load_checkpoint(path)["weight"].asnumpy(), before)


@pytest.mark.parametrize("payload,message", [
    (b"", "empty"),
    (b"\x0a\xff\xff\x03", "not a valid"),
    (b"\x0a\x05\x0a\x01a", "not a valid"),
    (ckpt_proto.value_header("w", [4], "Float32", 16) + b"\0" * 8, "not a valid"),
])
def test_corrupt_files_raise_value_error_naming_the_file(tmp_path, payload, message):
    path = tmp_path / "bad.ckpt"
    path.write_bytes(payload)
    with pytest.raises(ValueError, match=message) as info:
        load_checkpoint(str(path))
    assert "bad.ckpt" in str(info.value)


def test_size_mismatch_between_dims_and_content_is_reported(tmp_path):
    body = ckpt_proto.value_header("w", [5], "Float32", 16) + b"\0" * 16
    (tmp_path / "w.ckpt").write_bytes(body)
    with pytest.raises(ValueError, match=r"'w' declares shape \[5\]"):
        load_checkpoint(str(tmp_path / "w.ckpt"))


def test_missing_file_and_bad_arguments():
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint("/nonexistent/x.ckpt")
    with pytest.raises(TypeError, match="save_obj"):
        save_checkpoint(42, "/tmp/x.ckpt")
    with pytest.raises(ValueError, match="directory"):
        save_checkpoint({"a": np.ones(1)}, "/nonexistent/dir/x.ckpt")


def test_load_param_into_net_shape_mismatch_names_the_parameter():
    net = nn.Dense(3, 2)
    with pytest.raises(RuntimeError, match="'weight'.*\\(2, 3\\).*\\(3, 3\\)"):
        load_param_into_net(net, {"weight": np.zeros((3, 3), np.float32)})


def test_count_params_counts_trainable_only():
    net = nn.SequentialCell(nn.Dense(4, 3), nn.BatchNorm1d(3))
    assert count_params(net) == 4 * 3 + 3 + 3 + 3


@settings(deadline=None, max_examples=25)
@given(data=st.data())
def test_any_supported_array_round_trips(tmp_path_factory, data):
    dtype = data.draw(st.sampled_from(sorted(ckpt_proto.DTYPE_TO_TYPE, key=str)))
    shape = tuple(data.draw(st.lists(st.integers(0, 4), max_size=3)))
    arr = data.draw(hnp.arrays(dtype, shape))
    path = str(tmp_path_factory.mktemp("rt") / "a.ckpt")
    save_checkpoint({"x": arr, "tail": np.int32(1)}, path)
    back = load_checkpoint(path)["x"].asnumpy()
    assert back.dtype == arr.dtype and back.shape == arr.shape
    np.testing.assert_array_equal(back.reshape(-1).view(np.uint8), arr.reshape(-1).view(np.uint8))


@pytest.mark.usefixtures("numpy_backend")
def test_data_parallel_with_the_numpy_backend_is_refused():
    from training import Model, set_auto_parallel_context
    set_auto_parallel_context(parallel_mode="data_parallel")
    net = nn.Dense(2, 2)
    with pytest.raises(RuntimeError, match="torch backend"):
        Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))


@settings(deadline=None, max_examples=60)
@given(flips=st.lists(st.tuples(st.integers(0, 320), st.integers(1, 255)), min_size=1, max_size=4),
       cut=st.integers(1, 321))
def test_damaged_files_load_or_raise_value_error(shared_fixtures, tmp_path_factory, flips, cut):
    data = bytearray((shared_fixtures / "ckpt" / "mixed.ckpt").read_bytes())
    for pos, xor in flips:
        data[pos] ^= xor
    path = tmp_path_factory.mktemp("dmg") / "d.ckpt"
    path.write_bytes(bytes(data[:cut]))
    try:
        params = load_checkpoint(str(path))
    except ValueError:
        return
    assert all(isinstance(v.asnumpy(), np.ndarray) for v in params.values())
