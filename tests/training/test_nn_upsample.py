"""nn.Upsample on both backends: every mode's values measured in MindSpore 2.10 (bicubic: its
half-pixel a = -0.5 kernel with the taps past an edge left out, its 1024-point weight table),
its refusals, and gradients that are the transposed interpolation."""
import numpy as np
import pytest

import training as ms
from training import nn

from tests.training.both_backends import as_input, backend, values  # noqa: F401

PLANE = np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)
ROW = np.arange(3, dtype=np.float32).reshape(1, 1, 3)
SKEWED = np.array([[[[1.0, 3.0, 7.0], [2.0, 5.0, 11.0]]]], np.float32)


@pytest.mark.parametrize("array, kwargs, first", [
    (ROW, {"size": (5,)}, [0, 0, 1, 1, 2]),
    (ROW, {"size": (5,), "mode": "nearest-exact"}, [0, 0, 1, 2, 2]),
    (ROW, {"size": (5,), "mode": "linear"}, [0, 0.4, 1, 1.6, 2]),
    (ROW, {"size": (5,), "mode": "linear", "align_corners": True}, [0, 0.5, 1, 1.5, 2]),
    (SKEWED[0], {"size": (1,), "mode": "linear"}, [1]),      # (MindSpore's: the first)
    (PLANE, {"size": (3, 5), "mode": "bilinear"}, [0, 0.4, 1, 1.6, 2, 1.5]),
    (PLANE, {"size": (3, 5), "mode": "bicubic"}, [-0.2732, 0.1087, 0.8023, 1.496, 1.8779,
                                                   1.4245]),
    (PLANE, {"size": (3, 5), "mode": "bicubic", "align_corners": True},
     [0, 0.4062, 1, 1.5938, 2, 1.5]),
    (SKEWED, {"size": (2, 6), "mode": "bicubic", "align_corners": True},
     [1, 1.4885, 2.2634, 3.8969, 5.5905, 7]),
    (PLANE, {"size": (3, 5), "mode": "area"}, [0, 0.5, 1, 1.5, 2, 1.5]),
    (PLANE, {"scale_factor": (2.0, 2.0), "mode": "area"}, [0, 0, 1, 1, 2, 2]),
    (np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2),
     {"scale_factor": (1.5, 1.5, 1.5), "mode": "trilinear"}, [0, 0.5, 1, 1, 1.5, 2]),
    # with a scale factor the source positions step by 1 / scale (not size / output size)
    (np.arange(12, dtype=np.float32).reshape(1, 1, 3, 2, 2),
     {"scale_factor": (1.7, 1.5, 0.6), "mode": "trilinear"},
     [0.3333, 1.3333, 2.3333, 1.8627, 2.8627, 3.8627]),
    (np.arange(12, dtype=np.float32).reshape(1, 1, 3, 2, 2),
     {"scale_factor": 0.5, "mode": "trilinear"}, [3.5]),
])
def test_values_as_mindspore(backend, array, kwargs, first):
    out = values(nn.Upsample(**kwargs)(as_input(backend, array)))
    np.testing.assert_allclose(out.ravel()[:len(first)], first, atol=1e-4)


def test_gradient_is_the_transposed_interpolation(backend):
    x = as_input(backend, PLANE)
    _, grad = ms.value_and_grad(lambda v: nn.Upsample(size=(4, 6), mode="bilinear")(v).sum())(x)
    np.testing.assert_allclose(values(grad), np.full((1, 1, 2, 3), 4.0), atol=1e-5)


@pytest.mark.parametrize("kwargs, array", [
    ({"scale_factor": 2.0}, PLANE),                        # (nearest 4-D: no scale_factor)
    ({"scale_factor": (2.0, 2.0), "mode": "bilinear"}, PLANE),
    ({"size": (3, 5), "align_corners": True}, PLANE),        # (nearest: no align_corners)
    ({"size": (3, 5), "mode": "linear"}, PLANE),             # (linear: 3-D only)
    ({"size": (5,), "mode": "bilinear"}, ROW),
    ({"size": (2, 2, 2), "mode": "nearest-exact"}, np.zeros((1, 1, 2, 2, 2), np.float32)),
    ({"size": (5,), "mode": "area"}, ROW),                   # (1-D area: a divisor of L)
    ({}, PLANE),
])
def test_refused_as_mindspore(backend, kwargs, array):
    with pytest.raises(ValueError):
        nn.Upsample(**kwargs)(as_input(backend, array))
