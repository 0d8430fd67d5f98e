"""MaxPool2d's padding, dilation, ceil_mode and return_indices, and AvgPool2d's ceil_mode,
count_include_pad and divisor_override, on both backends. These were once accepted and ignored
(a network got other shapes or other averages without a word). Expected values were measured
in MindSpore 2.10; the sweep checks the numpy backend's values and gradients against torch's
pooling, whose rules MindSpore 2.10 follows in 'pad' and 'valid' mode."""
import itertools

import numpy as np
import pytest

from training import Tensor, nn, set_backend
from training.ops import value_and_grad

torch = pytest.importorskip("torch")

# the input plane the MindSpore figures below were measured on
PLANE = ((np.arange(30) * 7) % 11).astype(np.float32).reshape(1, 1, 6, 5)


def _both_backends(cell):
    """The cell's outputs on the numpy backend and on a torch tensor, as lists of arrays (a
    Tensor alone runs on torch where it is installed: the numpy backend is chosen)."""
    results = []
    for x in (Tensor(PLANE), torch.tensor(PLANE)):
        set_backend("numpy" if isinstance(x, Tensor) else None)
        try:
            out = cell(x)
        finally:
            set_backend(None)
        out = out if isinstance(out, tuple) else (out,)
        results.append([o.asnumpy() if hasattr(o, "asnumpy") else o.numpy() for o in out])
    return results


def test_max_pool_indices_and_ceil_mode_as_mindspore():
    cell = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="pad", padding=1, return_indices=True,
                        ceil_mode=True)
    for values, indices in _both_backends(cell):
        assert values[0, 0].tolist() == [[9, 10, 10], [9, 9, 10], [10, 9, 9], [10, 9, 9]]
        assert indices.dtype == np.int64
        assert indices[0, 0].tolist() == [[6, 3, 3], [6, 6, 14], [25, 17, 28], [25, 28, 28]]


def test_max_pool_dilation_as_mindspore():
    cell = nn.MaxPool2d(kernel_size=2, stride=1, pad_mode="pad", dilation=2)
    for (values,) in _both_backends(cell):
        assert values[0, 0].tolist() == [[7, 10, 10], [9, 9, 9], [8, 7, 10], [10, 9, 9]]


@pytest.mark.parametrize("count_include_pad, expected", [
    (True, [[2.0, 3.8888888, 2.7777777], [2.5555556, 4.5555553, 3.1111112],
            [4.0, 4.8888888, 3.3333333], [2.6666667, 2.8333333, 2.3333333]]),
    (False, [[4.5, 5.8333335, 6.25], [3.8333333, 4.5555553, 4.6666665],
             [6.0, 4.8888888, 5.0], [8.0, 5.6666665, 7.0]])])
def test_avg_pool_ceil_mode_divisors_as_mindspore(count_include_pad, expected):
    cell = nn.AvgPool2d(kernel_size=3, stride=2, pad_mode="pad", padding=1, ceil_mode=True,
                        count_include_pad=count_include_pad)
    for (values,) in _both_backends(cell):
        np.testing.assert_allclose(values[0, 0], expected, rtol=1e-6)


def test_avg_pool_divisor_override_as_mindspore():
    cell = nn.AvgPool2d(kernel_size=3, stride=2, pad_mode="pad", padding=1, divisor_override=4)
    for (values,) in _both_backends(cell):
        np.testing.assert_allclose(values[0, 0], [[4.5, 8.75, 6.25], [5.75, 10.25, 7.0],
                                                  [9.0, 11.0, 7.5]])


def _sweep():
    for kernel, stride, padding, ceil_mode in itertools.product(
            (1, 2, 3, (3, 2)), (1, 2, (2, 3)), (0, 1, (1, 0)), (False, True)):
        pair = (kernel, kernel) if isinstance(kernel, int) else kernel
        pads = (padding, padding) if isinstance(padding, int) else padding
        if any(2 * p > k for p, k in zip(pads, pair)):
            continue
        yield kernel, stride, padding, ceil_mode


@pytest.mark.parametrize("kernel, stride, padding, ceil_mode", list(_sweep()))
def test_numpy_pooling_equals_torch_values_and_gradients(kernel, stride, padding, ceil_mode,
                                                         numpy_backend):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
    pad_mode = "pad" if padding != 0 else "valid"      # (MaxPool2d takes its options in 'pad')
    cells = [(nn.MaxPool2d(kernel, stride, "pad", padding, dilation=d, ceil_mode=ceil_mode),
              lambda t, d=d: torch.nn.functional.max_pool2d(
                  t, kernel, stride, padding, d, ceil_mode)) for d in (1, 2)]
    for include, divisor in itertools.product((True, False), (None, 5)):
        cells.append((nn.AvgPool2d(kernel, stride, pad_mode, padding, ceil_mode, include, divisor),
                      lambda t, i=include, v=divisor: torch.nn.functional.avg_pool2d(
                          t, kernel, stride, padding, ceil_mode, i, v)))
    for cell, reference in cells:
        try:
            expected_tensor = torch.tensor(x, requires_grad=True)
            expected = reference(expected_tensor)
        except RuntimeError:        # an output of no element: refused by both
            with pytest.raises(Exception):
                cell(Tensor(x))
            continue
        expected.sum().backward()
        value, grad = value_and_grad(lambda t, c=cell: c(t).sum())(Tensor(x))
        np.testing.assert_allclose(cell(Tensor(x)).asnumpy(), expected.detach().numpy(),
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(grad.asnumpy(), expected_tensor.grad.numpy(), rtol=1e-5,
                                   atol=1e-6)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"ceil_mode": True}, ValueError, "can not be set to non-default value when pad_mode"),
    ({"pad_mode": "same", "dilation": 2}, ValueError, "pad_mode is not 'pad'"),
    ({"return_indices": True}, ValueError, "'return_indices'"),
    ({"pad_mode": "pad", "padding": 2}, ValueError, "half of ksize"),
    ({"pad_mode": "pad", "padding": (1, 1, 1, 1)}, ValueError, "padding"),
    ({"pad_mode": "pad", "padding": 1.0}, TypeError, "'padding'"),
    ({"pad_mode": "pad", "ceil_mode": 1}, TypeError, "'ceil_mode' should be 'bool'"),
    ({"pad_mode": "pad", "dilation": 0}, ValueError, "'dilation'"),
])
def test_max_pool_refusals_in_mindspores_words(kwargs, error, words):
    with pytest.raises(error, match=words):
        nn.MaxPool2d(kernel_size=3, stride=2, **kwargs)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"pad_mode": "pad", "divisor_override": 0}, ValueError, "'divisor_override' must be > 0"),
    ({"pad_mode": "pad", "divisor_override": 1.5}, TypeError, "'divisor_override' must be int"),
    ({"pad_mode": "pad", "count_include_pad": 0}, TypeError, "'count_include_pad'"),
    ({"pad_mode": "valid", "padding": 1}, ValueError, "'padding' must be 0"),
])
def test_avg_pool_refusals(kwargs, error, words):
    with pytest.raises(error, match=words):
        nn.AvgPool2d(kernel_size=3, stride=2, **kwargs)


@pytest.mark.parametrize("kwargs, expected", [
    ({}, [[0.1795, -0.038, -0.6441], [-0.1034, -0.211, 0.2074], [0.1471, -0.1784, 0.2544]]),
    ({"divisor_override": 2}, [[0.5386, -0.171, -1.9323], [-0.3103, -0.9493, 0.6222],
                               [0.2942, -0.5351, 0.5087]]),
    ({"ceil_mode": True}, [[0.1197, -0.038, -0.4294], [-0.0689, -0.211, 0.1383],
                           [0.0654, -0.1189, 0.113]]),
    ({"ceil_mode": True, "count_include_pad": False},
     [[0.1795, -0.038, -0.6441], [-0.1034, -0.211, 0.2074], [0.1471, -0.1784, 0.2544]])])
def test_avg_pool_same_mode_divisors_as_mindspore(kwargs, expected):
    """'same' mode divides by the real elements under a window; by divisor_override when
    given; by the kernel's size with ceil_mode and count_include_pad (MindSpore 2.10's values,
    on this input)."""
    x = np.random.default_rng(0).standard_normal((1, 1, 6, 5)).astype(np.float32)
    cell = nn.AvgPool2d(kernel_size=3, stride=2, pad_mode="same", **kwargs)
    for out in (cell(Tensor(x)).asnumpy(), cell(torch.tensor(x)).numpy()):
        np.testing.assert_allclose(out[0, 0], expected, atol=1e-4)


def test_an_output_of_no_element_is_a_value_error():
    """A dilated window larger than the padded input: MindSpore's ValueError."""
    cell = nn.MaxPool2d(kernel_size=(3, 2), stride=1, pad_mode="pad", dilation=2)
    for x in (Tensor(np.ones((1, 3, 4, 6), np.float32)), torch.ones((1, 3, 4, 6))):
        with pytest.raises(ValueError, match="output"):
            cell(x)
