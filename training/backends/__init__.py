"""Compute backends: `numpy` (built in, CPU) and `torch` (optional: CPU, CUDA, Ascend through
torch_npu). A `torch.nn.Module` runs on torch; `training.nn` cells run on either, as
`training.set_backend` / `get_backend` choose (training.backends.base; how cells run on torch:
training.backends.torch_cells)."""
