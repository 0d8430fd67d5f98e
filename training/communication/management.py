"""`mindspore.communication.management`: collective communication for data-parallel training,
mapped onto torch.distributed.

`init()` joins the process group that `torchrun` describes in the environment (gloo on CPU, nccl
on CUDA), `get_rank()` / `get_group_size()` report this process's place in it, and the training
context's `device_id` follows the local rank (within CUDA_VISIBLE_DEVICES)."""
import os

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
_BACKENDS = {None: None, "hccl": None, "nccl": "nccl", "gloo": "gloo", "mpi": "mpi"}


def _dist():
    try:
        import torch.distributed as dist
    except ImportError:
        raise RuntimeError("training.communication needs PyTorch: install it with "
                           "`pip install torch` (or the project's [torch] extra)") from None
    return dist


def init(backend_name=None):
    """Initialize the default process group from torchrun's environment."""
    if backend_name not in _BACKENDS:
        raise ValueError(f"For 'init', 'backend_name' must be one of {sorted(k for k in _BACKENDS if k)}"
                         f" or None, but got {backend_name!r}")
    missing = [v for v in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT") if v not in os.environ]
    if missing:
        raise RuntimeError(f"training.communication.init() must run under a launcher such as "
                           f"`torchrun --nproc_per_node=N script.py`; missing environment "
                           f"variables: {', '.join(missing)}")
    dist = _dist()
    if dist.is_initialized():
        return
    import torch
    backend = _BACKENDS[backend_name] or ("nccl" if torch.cuda.is_available() else "gloo")
    dist.init_process_group(backend=backend)
    from training import context
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    context.set_context(device_id=local_rank)
    context.set_auto_parallel_context(device_num=dist.get_world_size(), global_rank=dist.get_rank())
    if backend == "nccl":
        torch.cuda.set_device(local_rank)
    GlobalComm.BACKEND, GlobalComm.INITED = backend, True


class GlobalComm:
    """MindSpore's record of the communication backend and world group."""
    BACKEND = "nccl"
    WORLD_COMM_GROUP = NCCL_WORLD_COMM_GROUP
    INITED = False


def _check_group(group):
    if group not in (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, None):
        raise ValueError(f"only the world group is supported, but got group {group!r}")


def is_initialized():
    try:
        import torch.distributed as dist
    except ImportError:
        return False
    return dist.is_available() and dist.is_initialized()


def get_rank(group=HCCL_WORLD_COMM_GROUP):
    _check_group(group)
    if not is_initialized():
        raise RuntimeError("get_rank() needs training.communication.init() first")
    return _dist().get_rank()


def get_group_size(group=HCCL_WORLD_COMM_GROUP):
    _check_group(group)
    if not is_initialized():
        raise RuntimeError("get_group_size() needs training.communication.init() first")
    return _dist().get_world_size()


def get_local_rank(group=HCCL_WORLD_COMM_GROUP):
    """This process's rank on its node (torchrun's LOCAL_RANK)."""
    get_rank(group)  # checks the group and that init() ran
    return int(os.environ.get("LOCAL_RANK", 0))


def get_local_rank_size(group=HCCL_WORLD_COMM_GROUP):
    """The number of processes on this node (torchrun's LOCAL_WORLD_SIZE)."""
    size = get_group_size(group)
    return int(os.environ.get("LOCAL_WORLD_SIZE", size))


def get_rank_or_zero():
    return _dist().get_rank() if is_initialized() else 0


def release():
    if is_initialized():
        _dist().destroy_process_group()
    GlobalComm.INITED = False
