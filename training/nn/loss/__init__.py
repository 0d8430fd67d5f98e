"""Loss cells (`mindspore.nn.loss`), by family; `training.nn.loss.X` as `mindspore.nn.loss.X`."""
from training.nn.loss.base import LossBase  # noqa: F401
from training.nn.loss.binary import (BCELoss, BCEWithLogitsLoss,  # noqa: F401
                                     MultiLabelSoftMarginLoss, SoftMarginLoss)
from training.nn.loss.classification import (CrossEntropyLoss, FocalLoss,  # noqa: F401
                                             KLDivLoss, MultilabelMarginLoss, MultiMarginLoss,
                                             NLLLoss, SoftmaxCrossEntropyWithLogits)
from training.nn.loss.embedding import (CosineEmbeddingLoss, HingeEmbeddingLoss,  # noqa: F401
                                        MarginRankingLoss, TripletMarginLoss)
from training.nn.loss.regression import (GaussianNLLLoss, HuberLoss, L1Loss,  # noqa: F401
                                         MAELoss, MSELoss, PoissonNLLLoss, RMSELoss,
                                         SmoothL1Loss)
from training.nn.loss.segmentation import DiceLoss, MultiClassDiceLoss  # noqa: F401
from training.nn.loss.sequence import CTCLoss  # noqa: F401
from training.nn.loss.triplet_distance import TripletMarginWithDistanceLoss  # noqa: F401

__all__ = [name for name in dir() if name[0].isupper()]
