"""`mindspore.communication`: collective communication over torch.distributed
(implemented in `training.communication.management`, MindSpore's module name)."""
from training.communication import management  # noqa: F401
from training.communication.management import (GlobalComm, HCCL_WORLD_COMM_GROUP,  # noqa: F401
                                               NCCL_WORLD_COMM_GROUP, get_group_size,
                                               get_local_rank, get_local_rank_size, get_rank,
                                               get_rank_or_zero, init, is_initialized, release)
