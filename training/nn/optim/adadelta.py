"""Adadelta (MindSpore's ApplyAdadelta): accum = rho*accum + (1-rho)*g^2;
update = sqrt(accum_update + eps) * g / sqrt(accum + eps);
accum_update = rho*accum_update + (1-rho)*update^2; param -= lr * update."""
from training.nn.optim.checks import check_open_unit, check_positive
from training.nn.optim.elementwise import ElementwiseOptimizer, f32


class Adadelta(ElementwiseOptimizer):
    state_names = ("accum", "accum_update")

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_open_unit(self.cls_name, "rho", rho, closed=True)
        check_positive(self.cls_name, "epsilon", epsilon, allow_zero=True)
        self.rho, self.epsilon = f32(rho), f32(epsilon)
        self._register_states("accum", self.clone_state("accum"))
        self._register_states("accum_update", self.clone_state("accum_update"))

    def update(self, xp, index, param, grad, states, lr):
        accum, accum_update = states
        rho, eps = self.rho, self.epsilon
        accum[...] = rho * accum + f32(1 - rho) * (grad * grad)
        step = xp.sqrt(accum_update + eps) * (grad / xp.sqrt(accum + eps))
        accum_update[...] = rho * accum_update + f32(1 - rho) * (step * step)
        param[...] = param - lr * step
