"""ProximalAdagrad (MindSpore's ApplyProximalAdagrad): accum += g^2; with rate = lr / sqrt(accum),
v = param - rate*g; param = sign(v) * max(|v| - rate*l1, 0) / (1 + rate*l2)
(without l1: v / (1 + rate*l2))."""
from training.nn.optim.checks import check_positive
from training.nn.optim.elementwise import ElementwiseOptimizer, f32


class ProximalAdagrad(ElementwiseOptimizer):
    state_names = ("accum",)

    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("accum", accum), ("l1", l1), ("l2", l2)):
            check_positive(self.cls_name, name, value, allow_zero=True)
        self.check_bool("use_locking", use_locking)
        self.l1, self.l2 = f32(l1), f32(l2)
        self._register_states("accum", self.clone_state("accum", fill=accum))

    def update(self, xp, index, param, grad, states, lr):
        accum, = states
        accum[...] = accum + grad * grad
        rate = lr / xp.sqrt(accum)
        moved = param - rate * grad
        if self.l1 > 0:
            shrunk = xp.maximum(xp.abs(moved) - rate * self.l1, xp.zeros_like(moved))
            param[...] = xp.sign(moved) * shrunk / (1 + rate * self.l2)
        else:
            param[...] = moved / (1 + rate * self.l2)
