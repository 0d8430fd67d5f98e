"""minddata on a Ray cluster: the expensive part of a pipeline (its source, maps and batches)
runs in Ray actors on pieces of each epoch, and batches reach the trainer through Ray's object
store. ``create_tuple_iterator(..., service=RayService(address=..., num_workers=N))``."""
from .ray_service import RayService

__all__ = ["RayService"]
