"""Rprop (MindSpore's): each element's step size grows by etaplus while its gradient keeps its
sign and shrinks by etaminus when the sign flips (the gradient then counts as 0 for that step
and the next), clipped to step_sizes; param -= sign(g) * step. The first step starts every
step size at the learning rate."""
from training.nn.optim.checks import check_float, check_open_unit
from training.nn.optim.elementwise import ElementwiseOptimizer, f32


class Rprop(ElementwiseOptimizer):
    state_names = ("prev", "step_size")

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0),
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        for name, pair in (("etas", etas), ("step_sizes", step_sizes)):
            if not isinstance(pair, tuple):
                raise TypeError(f"For Rprop, {name} must be a tuple, but got {type(etas)}.")
            if len(pair) != 2:
                raise ValueError(f"For Rprop, {name} must be a tuple with the size of 2, but got "
                                 f"{len(pair)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError(f"For Rprop, maximal step size should not be less than minimal step "
                             f"size, but got {step_sizes[0]} > {step_sizes[1]}.")
        check_open_unit(self.cls_name, "etaminus", etas[0])
        check_float(self.cls_name, "etaplus", etas[1])
        if etas[1] <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus "
                             f"{etas[1]}.")
        check_float(self.cls_name, "min_step_sizes", step_sizes[0])
        check_float(self.cls_name, "max_step_sizes", step_sizes[1])
        self.etaminus, self.etaplus = f32(etas[0]), f32(etas[1])
        self.step_size_min, self.step_size_max = step_sizes
        self._register_states("prev", self.clone_state("prev"))
        self._register_states("step_size", self.clone_state("step_size"))

    def update(self, xp, index, param, grad, states, lr):
        prev, step_size = states
        # (MindSpore's first-step test reads the step counter, not the state)
        step = xp.full_like(step_size, lr) if int(self.global_step.data[0]) == 0 else step_size
        agreement = xp.sign(grad * prev)
        factor = xp.where(agreement > 0, xp.full_like(grad, self.etaplus),
                          xp.where(agreement < 0, xp.full_like(grad, self.etaminus),
                                   xp.ones_like(grad)))
        step = xp.clip(step * factor, self.step_size_min, self.step_size_max)
        flipped = xp.where(agreement < 0, xp.zeros_like(grad), grad)
        param[...] = param - xp.sign(flipped) * step
        prev[...] = flipped
        step_size[...] = step
