"""training.nn's image cells (SSIM, MSSSIM, PSNR, ImageGradients, CentralCrop) against values
measured in MindSpore 2.10 (SSIM, MSSSIM and PSNR in its graph mode: in PyNative mode they
raise), on the numpy and torch backends, with their argument checks and parameters."""
import numpy as np
import pytest

import training as ms
from training import nn

from tests.training.both_backends import as_input, backend, values  # noqa: F401  (a fixture)

A = (np.arange(72, dtype=np.float32).reshape(2, 1, 6, 6) % 7) / 7
B = ((np.arange(72, dtype=np.float32).reshape(2, 1, 6, 6) * 3) % 5) / 5


def test_ssim_values_and_gradient(backend):
    cell = nn.SSIM(filter_size=3)
    a, b = as_input(backend, A), as_input(backend, B)
    np.testing.assert_allclose(values(cell(a, b)), [-0.06434806, -0.09298292], atol=1e-6)
    grad = values(ms.grad(lambda x, y: cell(x, y).sum())(a, b))
    np.testing.assert_allclose(grad[0, 0, 0, :3], [-0.0153893, 0.03734068, -0.04969681],
                               atol=1e-6)


def test_msssim_and_psnr_values(backend):
    a = as_input(backend, A)
    out = nn.MSSSIM(filter_size=2, power_factors=(0.5, 0.5))(a, as_input(backend, A * 0.8 + 0.1))
    np.testing.assert_allclose(values(out), [0.97529536, 0.9749704], atol=1e-6)
    np.testing.assert_allclose(values(nn.PSNR()(a, as_input(backend, B))), [8.015175, 7.858412],
                               atol=1e-5)
    uint8 = nn.PSNR(max_val=255)(as_input(backend, (A * 255).astype(np.uint8)),
                                 as_input(backend, (B * 255).astype(np.uint8)))
    np.testing.assert_allclose(values(uint8), [8.021917, 7.8637795], atol=1e-5)


def test_image_gradients_and_central_crop(backend):
    dy, dx = nn.ImageGradients()(as_input(backend, np.array([[[[1, 2], [4, 8]]]], np.int32)))
    assert values(dy).ravel().tolist() == [3, 6, 0, 0] and values(dx).dtype == np.int32
    assert values(dx).ravel().tolist() == [1, 0, 4, 0]
    image = as_input(backend, np.zeros((2, 2, 7, 5), np.float32))
    assert values(nn.CentralCrop(0.3)(image)).shape == (2, 2, 3, 3)
    assert values(nn.CentralCrop(0.5)(image[0])).shape == (2, 5, 3)


def test_parameters_are_mindspores():
    assert [(n, p.shape, p.requires_grad) for n, p in nn.SSIM().parameters_and_names()] == \
        [("conv.weight", (1, 1, 11, 11), False)]
    names = [n for n, _ in nn.MSSSIM(power_factors=(0.5, 0.5)).parameters_and_names()]
    assert names == ["multi_convs_list.0.weight", "multi_convs_list.1.weight"]
    assert not nn.SSIM().trainable_params()


@pytest.mark.parametrize("make, error", [
    (lambda: nn.SSIM(max_val=0), ValueError), (lambda: nn.SSIM(max_val=True), TypeError),
    (lambda: nn.SSIM(k1=1), TypeError), (lambda: nn.SSIM(filter_sigma=1), TypeError),
    (lambda: nn.SSIM(filter_size=0), ValueError),
    (lambda: nn.MSSSIM(power_factors=np.ones(2)), TypeError),
    (lambda: nn.PSNR(max_val=-1.0), ValueError), (lambda: nn.CentralCrop(1), TypeError),
    (lambda: nn.CentralCrop(0.0), ValueError)])
def test_argument_checks(make, error):
    with pytest.raises(error):
        make()


def test_input_checks(backend):
    a = as_input(backend, A)
    with pytest.raises(ValueError, match="should be >= filter_size"):
        nn.SSIM()(a, a)
    with pytest.raises(TypeError, match="SameTypeShape"):
        nn.PSNR()(a, as_input(backend, A.astype(np.float64)))
    with pytest.raises(ValueError, match="SameTypeShape"):
        nn.PSNR()(a, as_input(backend, A[:1]))
    with pytest.raises(TypeError, match="img1"):
        nn.MSSSIM()(as_input(backend, A.astype(np.int32)), as_input(backend, A.astype(np.int32)))
    with pytest.raises(ValueError, match="4d"):
        nn.ImageGradients()(a[0])
