"""Numpy kernels with their exact gradients, used by `training.nn` layers."""
