"""`ElementwiseOptimizer`: an optimizer whose update is one rule per parameter, written once on
the array-module functions numpy and torch share (sqrt, abs, sign, maximum, where, clip), so the
numpy backend (numpy arrays) and the torch backend (torch tensors, on their device) run the
same arithmetic in the same float32 order. Scalars reach the rule as Python floats rounded to
float32 first (`f32`): a numpy scalar times a torch tensor would make a numpy array."""
import numpy as np

from training.nn.optim.optimizer import Optimizer, per_parameter


def f32(value):
    """``value`` rounded to float32, as MindSpore holds its hyperparameters, as a Python float."""
    return float(np.float32(value))


class ElementwiseOptimizer(Optimizer):
    state_names = ()    # the attributes holding per-parameter state lists, in update()'s order
    # True: the gradients reach update() as given but centralized (no loss-scale division, no
    # weight decay added: the rule decays the parameters itself)
    takes_raw_gradients = False

    def begin_step(self):
        """Before the parameters' updates of a step: shared scalars (bias-correction powers)."""

    def update(self, xp, index, param, grad, states, lr):
        """Updates ``param`` and ``states`` (arrays of ``xp``: numpy or torch) in place."""
        raise NotImplementedError

    def apply_gradients(self, gradients, lr):
        lrs = per_parameter(lr, len(gradients))
        self.begin_step()
        for index, (p, g, lr) in enumerate(zip(self.parameters, gradients, lrs)):
            states = [None if s is None else s.data
                      for s in (getattr(self, name)[index] for name in self.state_names)]
            self.update(np, index, p.data, np.asarray(g, p.dtype), states, f32(lr))

    def preprocess(self, gradients):
        return self.centralize(gradients) if self.takes_raw_gradients else \
            super().preprocess(gradients)

    def _preprocess_torch(self, params, grads):
        """preprocess() with numpy's roundings: g / loss_scale, then g + decay * param in two
        steps (torch's fused add with alpha rounds once, and a last bit that differs grows
        large where an update cancels, as FTRL's difference of square roots does)."""
        if self.takes_raw_gradients:
            return self.centralize(grads)
        out = []
        for p_cell, p, g in zip(self.parameters, params, grads):
            if self.loss_scale != 1.0:
                g = g / self.loss_scale
            decay = self._decay(p_cell)
            out.append(g + p * decay if decay else g)
        return self.centralize(out)

    def apply_gradients_torch(self, params, grads, lr):
        lrs = per_parameter(lr, len(params))
        import torch
        self.begin_step()
        states = [self.state_tensors(getattr(self, name), params)
                  if all(s is not None for s in getattr(self, name)) else [None] * len(params)
                  for name in self.state_names]     # (None: a state the settings leave out)
        for index, (p, g, lr) in enumerate(zip(params, grads, lrs)):
            self.update(torch, index, p, g, [s[index] for s in states], f32(lr))
