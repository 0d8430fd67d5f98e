"""MaxPool1d/3d, AvgPool1d/3d, LPPool1d/2d and the adaptive pools on both backends: shapes,
values and argument errors measured in MindSpore 2.10, gradients against finite differences."""
import numpy as np
import pytest

import training as ms
from training import nn

from tests.training.both_backends import as_input, backend, values  # noqa: F401

ROWS = np.arange(2 * 3 * 7, dtype=np.float32).reshape(2, 3, 7) % 5
VOLUME = np.random.default_rng(0).standard_normal((1, 2, 4, 5, 6)).astype(np.float32)
PLANES = np.random.default_rng(0).standard_normal((2, 4, 5, 6)).astype(np.float32)


# (layer, input, MindSpore 2.10's output shape and first values, its indices' first values)
MEASURED = [
    (lambda: nn.MaxPool1d(3, 2, "same"), ROWS, (2, 3, 4), [1, 3, 4, 1, 3, 4], None),
    (lambda: nn.MaxPool1d(3, 2, "pad", 1, return_indices=True), ROWS, (2, 3, 4),
     [1, 3, 4, 1, 3, 4], [1, 3, 4, 6, 1, 2]),
    (lambda: nn.MaxPool1d(3, 1, "pad", 1, dilation=2, ceil_mode=True), ROWS, (2, 3, 5),
     [3, 4, 3, 4, 3, 3], None),
    (lambda: nn.MaxPool1d(3, 2), ROWS[0], (3, 3), [2, 4, 4, 4, 4, 3], None),
    (lambda: nn.AvgPool1d(3, 2, "same"), ROWS, (2, 3, 4), [0.5, 2, 2.3333, 0.5, 2.5, 2.3333],
     None),
    (lambda: nn.AvgPool1d(3, 2, "pad", 1), ROWS, (2, 3, 4),
     [0.3333, 2, 2.3333, 0.3333, 1.6667, 2.3333], None),
    (lambda: nn.MaxPool3d(3, 2, "pad", 1, return_indices=True), VOLUME, (1, 2, 2, 3, 3),
     [1.304, 1.4934, 1.5139, 1.8016, 1.4934, 1.9603], [6, 39, 41, 48, 39, 47]),
    (lambda: nn.MaxPool3d(3, 2, "pad", 1, ceil_mode=True, dilation=(1, 2, 1)), VOLUME,
     (1, 2, 3, 2, 4), [1.8016, 1.4934, 1.5139, 1.5139, 1.8016, 1.4934], None),
    (lambda: nn.MaxPool3d(3, 2, "same"), VOLUME, (1, 2, 2, 3, 3),
     [1.7394, 1.7394, 1.5139, 2.0024, 1.822, 1.9603], None),
    # AvgPool3d's 'same' counts its padding (AvgPool1d's does not)
    (lambda: nn.AvgPool3d(3, 2, "same"), VOLUME, (1, 2, 2, 3, 3),
     [0.1657, -0.0264, 0.0324, 0.4791, -0.2026, 0.0781], None),
    (lambda: nn.AvgPool3d(3, 2, "same", count_include_pad=False), VOLUME, (1, 2, 2, 3, 3),
     [0.2486, -0.0397, 0.0729, 0.4791, -0.2026, 0.1172], None),
    (lambda: nn.AvgPool3d(3, 2, "pad", 1, divisor_override=2), VOLUME, (1, 2, 2, 3, 3),
     [0.1212, 0.9557, 0.4713, 2.8109, 1.2026, 0.9545], None),
    (lambda: nn.AvgPool3d(3, 2, "pad", 1, ceil_mode=True), VOLUME, (1, 2, 3, 3, 4),
     [0.009, 0.0708, 0.0349, 0.1262, 0.2082, 0.0891], None),
    (lambda: nn.AvgPool3d((2,), 2), VOLUME, (1, 2, 2, 2, 3),
     [0.0303, 0.1794, 0.0086, 0.5193, -0.2051, 0.362], None),
    (lambda: nn.AdaptiveMaxPool2d((2, 3), True), PLANES, (2, 4, 2, 3),
     [1.304, 0.6404, 0.3616, 1.0425, 1.3665, 0.3515], [6, 2, 5, 19, 21, 23]),
    (lambda: nn.AdaptiveMaxPool2d((7, 3)), PLANES, (2, 4, 7, 3),
     [0.1257, 0.6404, 0.3616, 1.304, 0.6404, 0.3616], None),
    (lambda: nn.AdaptiveAvgPool3d((2, None, 3)), PLANES, (2, 2, 5, 3),
     [-0.3063, 0.2817, 0.099, 0.3669, 0.0771, -0.0818], None),
    (lambda: nn.AdaptiveAvgPool3d((5, 6, 7)), VOLUME, (1, 2, 5, 6, 7),
     [0.1257, -0.0032, 0.2542, 0.3727, -0.2154, -0.087], None),
    (lambda: nn.AdaptiveMaxPool3d(2, True), VOLUME, (1, 2, 2, 2, 2),
     [1.3459, 1.9603, 1.8016, 1.9603, 1.822, 1.0315], [42, 47, 48, 47, 74, 95]),
    (lambda: nn.LPPool1d(2, 3, 2), ROWS, (2, 3, 3), [2.2361, 5.3852, 4.1231, 5.3852, 4.1231,
                                                     3.7417], None),
    (lambda: nn.LPPool2d(2, 3, 2), PLANES, (2, 4, 2, 2),
     [3.2468, 2.3617, 3.1075, 2.5145, 2.1539, 2.6624], None),
    (lambda: nn.LPPool2d(1.5, (3, 2), 2, ceil_mode=True), np.abs(PLANES), (2, 4, 2, 3),
     [3.3571, 2.7569, 1.4185, 3.2517, 2.9964, 1.4485], None),
    (lambda: nn.LPPool1d(3, 3, 2), ROWS - 2, (2, 3, 3), [np.nan, 2.0801, np.nan, 2.0801, np.nan,
                                                         0], None),
]


@pytest.mark.parametrize("case", range(len(MEASURED)))
def test_values_as_mindspore(backend, case):
    make, array, shape, first, indices = MEASURED[case]
    out = make()(as_input(backend, array))
    result = out[0] if isinstance(out, tuple) else out
    assert tuple(result.shape) == shape
    np.testing.assert_allclose(values(result).ravel()[:6], first, atol=1e-4)
    if indices is not None:
        assert values(out[1]).ravel()[:6].tolist() == indices
        expected = "int32" if "3d" in type(make()).__name__.lower() and "Adaptive" in \
            type(make()).__name__ else "int64"
        assert str(out[1].dtype).endswith(expected)


@pytest.mark.parametrize("make", [
    lambda: nn.AvgPool1d(3, 2, "pad", 1, count_include_pad=False, ceil_mode=True),
    lambda: nn.MaxPool3d(3, 2, "pad", 1),
    lambda: nn.AvgPool3d(3, 2, "same"),
    lambda: nn.AdaptiveMaxPool2d((2, 3)),
    lambda: nn.AdaptiveAvgPool3d((2, 3, 2)),
    lambda: nn.LPPool2d(2, 3, 2),
])
def test_gradients_are_the_outputs_derivative(make):
    ms.set_backend("numpy")
    try:
        layer = make()
        array = VOLUME if "3d" in type(layer).__name__ else \
            (PLANES if "2d" in type(layer).__name__ else ROWS + 0.1 * VOLUME.ravel()[:42]
             .reshape(ROWS.shape))
        weights = ms.Tensor(np.cos(np.arange(layer(ms.Tensor(array)).size)).reshape(
            layer(ms.Tensor(array)).shape).astype(np.float32))

        def loss(value):
            return (layer(value) * weights).sum()
        _, grad = ms.value_and_grad(loss)(ms.Tensor(array.astype(np.float64)))
        flat = array.astype(np.float64).ravel()
        for i in np.random.default_rng(3).choice(flat.size, 6, replace=False):
            step = np.zeros_like(flat)
            step[i] = 1e-5
            up = loss(ms.Tensor((flat + step).reshape(array.shape))).asnumpy()
            down = loss(ms.Tensor((flat - step).reshape(array.shape))).asnumpy()
            assert abs((up - down) / 2e-5 - grad.asnumpy().ravel()[i]) < 1e-4
    finally:
        ms.set_backend(None)


@pytest.mark.parametrize("make, error", [
    (lambda x: nn.MaxPool1d((3,), 2), TypeError),
    (lambda x: nn.MaxPool1d(0, 2), ValueError),
    (lambda x: nn.MaxPool1d(3, 2, "full"), ValueError),
    (lambda x: nn.MaxPool1d(3, 2, "valid", 1), ValueError),
    (lambda x: nn.MaxPool1d(3, 2, "pad", 2), ValueError),
    (lambda x: nn.MaxPool1d(3, 2, "pad", 1.0), TypeError),
    (lambda x: nn.MaxPool1d(3, 2, "pad", 1, ceil_mode=1), TypeError),
    (lambda x: nn.MaxPool1d(3, 2)(x.reshape(1, 1, 2, 21)), ValueError),
    (lambda x: nn.MaxPool3d((2, 2), 2), ValueError),
    (lambda x: nn.MaxPool3d(3, 2, "pad", (1, 1)), ValueError),
    (lambda x: nn.AvgPool3d(2, 2, divisor_override=1.5), TypeError),
    (lambda x: nn.AvgPool3d(2, 2, divisor_override=0), ValueError),
    (lambda x: nn.AvgPool3d(2, 2, count_include_pad=1), TypeError),
    (lambda x: nn.AvgPool1d((2, 3), 2), TypeError),
    (lambda x: nn.AdaptiveAvgPool1d((3,)), TypeError),
    (lambda x: nn.AdaptiveAvgPool1d(0), ValueError),
    (lambda x: nn.AdaptiveMaxPool1d(3)(x), ValueError),        # 7 is no multiple of 3
    (lambda x: nn.AdaptiveAvgPool1d(9)(x), ValueError),
    (lambda x: nn.AdaptiveMaxPool2d(2, 1)(x.reshape(1, 2, 3, 7)), TypeError),
    (lambda x: nn.AdaptiveMaxPool3d((2, None, 3))(x.reshape(1, 2, 3, 7, 1)), TypeError),
    (lambda x: nn.LPPool2d(2, 2)(x), ValueError),     # (batched only)
])
def test_argument_errors_as_mindspore(backend, make, error):
    with pytest.raises(error):
        make(as_input(backend, ROWS))


def test_unbatched_inputs(backend):
    assert tuple(nn.AvgPool1d(2, 2)(as_input(backend, ROWS[0])).shape) == (3, 3)
    assert tuple(nn.MaxPool3d(2, 2)(as_input(backend, VOLUME[0])).shape) == (2, 2, 2, 3)
    out, where = nn.AdaptiveMaxPool2d(2, True)(as_input(backend, PLANES[0]))
    assert tuple(out.shape) == tuple(where.shape) == (4, 2, 2)
