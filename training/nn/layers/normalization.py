"""BatchNorm1d / BatchNorm2d with MindSpore's parameter names (gamma, beta, moving_mean,
moving_variance) and momentum convention (moving = momentum * moving + (1 - momentum) * batch)."""
import numpy as np

from training.backends.numpy import functional as F
from training.nn import initializer
from training.nn.cell import Cell
from training.tensor import Parameter


class _BatchNorm(Cell):
    expected_ndim = (2,)
    expected_text = "(N, C)"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=np.float32):
        super().__init__()
        if not isinstance(num_features, int) or num_features <= 0:
            raise ValueError(f"For '{self.cls_name}', 'num_features' must be a positive int, "
                             f"but got {num_features!r}")
        if not 0 <= momentum <= 1:
            raise ValueError(f"For '{self.cls_name}', 'momentum' must be in [0, 1], got {momentum}")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.use_batch_statistics = use_batch_statistics
        shape = (num_features,)
        self.moving_mean = Parameter(initializer.initialize(moving_mean_init, shape, dtype),
                                     name="moving_mean", requires_grad=False)
        self.moving_variance = Parameter(initializer.initialize(moving_var_init, shape, dtype),
                                         name="moving_variance", requires_grad=False)
        self.gamma = Parameter(initializer.initialize(gamma_init, shape, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer.initialize(beta_init, shape, dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x):
        self.check_input(x, x.ndim in self.expected_ndim and x.shape[1] == self.num_features,
                         self.expected_text.replace("C", str(self.num_features)))
        batch_stats = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        return F.batch_norm(x, self.gamma, self.beta, self.moving_mean, self.moving_variance,
                            self.eps, self.momentum, batch_stats)

    def extend_repr(self):
        return f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}"


class BatchNorm1d(_BatchNorm):
    expected_ndim = (2, 3)
    expected_text = "(N, C) or (N, C, L)"


class BatchNorm2d(_BatchNorm):
    expected_ndim = (4,)
    expected_text = "(N, C, H, W)"
