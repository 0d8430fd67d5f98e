"""`mindspore.train.loss_scale_manager`: the loss scale managers (training.amp)."""
from training.amp import (DynamicLossScaleManager, FixedLossScaleManager,  # noqa: F401
                          LossScaleManager)

__all__ = ["DynamicLossScaleManager", "FixedLossScaleManager", "LossScaleManager"]
