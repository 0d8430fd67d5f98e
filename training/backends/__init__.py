"""Compute backends: `numpy` (built in, CPU) runs `training.nn` cells; `torch` (optional) runs any
`torch.nn.Module`. `training.backends.base.select_backend(...)` picks the one that fits."""
