"""`mindspore.mint.special`: erfc, expm1, exp2, round, sinc, log1p, log_softmax."""
from training.mint.math import erfc, exp2, expm1, log1p, round, sinc  # noqa: F401,A004
from training.mint.nn.functional import log_softmax  # noqa: F401
