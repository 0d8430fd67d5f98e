"""AdaFactor (MindSpore's, as its CPU kernel FusedAdaFactor computes it): second moments kept
factored for parameters of 2 or more dimensions (a row and a column mean of g^2 + eps[0]) or
whole for vectors, decaying with beta2_t = 1 - t^-decay_rate; the update g / sqrt(second
moment) is clipped to RMS clip_threshold, scaled by the rate (times max(eps[1], RMS(param))
with scale_parameter; with relative_step the rate is min(0.01, 1/sqrt(t)), or
min(1e-6 t, 1/sqrt(t)) with warmup_init), averaged with beta1, and weight decay (on every
parameter) is param * wd * rate. MindSpore's AdaFactor neither unscales the gradients by
loss_scale nor decays by parameter group; neither does this."""
import numpy as np

from training.nn.optim.checks import check_float, check_open_unit, check_positive
from training.nn.optim.elementwise import ElementwiseOptimizer, f32
from training.tensor import Parameter

_TINY = 1e-30       # the kernel's floor under means and norms


class AdaFactor(ElementwiseOptimizer):
    state_names = ("exp_avg", "exp_avg_sq_row", "exp_avg_sq_col", "exp_avg_sq")
    takes_raw_gradients = True
    centralizes = False     # (MindSpore's AdaFactor skips gradient centralization)

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
                 decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True,
                 relative_step=True, warmup_init=False, compression=False, loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        learning_rate = 0.0 if learning_rate is None else learning_rate
        beta1 = 0.0 if beta1 is None else beta1
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self._check(eps, clip_threshold, decay_rate, weight_decay, beta1, {
            "scale_parameter": scale_parameter, "relative_step": relative_step,
            "compression": compression})
        # a schedule or a per-step list is used as given: no relative step, no parameter scale
        fixed_rate = isinstance(learning_rate, (float, int))
        self.relative_step = relative_step and fixed_rate
        self.scale_parameter = scale_parameter and fixed_rate
        self.warmup_init = warmup_init
        if self.is_group_lr and not self.relative_step:
            # (MindSpore 2.10 builds it, then its first step raises ValueError)
            raise ValueError("For 'AdaFactor', parameter groups with their own 'lr' need "
                             "relative_step=True and no learning_rate (the relative step then "
                             "replaces every rate)")
        self.eps = (f32(eps[0]), f32(eps[1]))
        self.clip_threshold, self.decay_rate = f32(clip_threshold), f32(decay_rate)
        self.beta1, self.decay = f32(beta1), f32(weight_decay)
        self._register_states("exp_avg", self.clone_state("exp_avg") if beta1 > 0 else
                              [None] * len(self.parameters))
        rows, cols, whole = [], [], []
        for p in self.parameters:
            factored = p.data.ndim > 1
            shape = p.data.shape
            rows.append(self._state(f"exp_avg_sq_row_{p.name}", shape[:-1] if factored else (1,),
                                    p.dtype))
            cols.append(self._state(f"exp_avg_sq_col_{p.name}",
                                    shape[:-2] + shape[-1:] if factored else (1,), p.dtype))
            # (compression: MindSpore keeps a vector's in float16, which its CPU kernel reads
            # as float32; here it stays the parameter's type)
            whole.append(self._state(f"exp_avg_sq_{p.name}", (1,) if factored else shape,
                                     p.dtype))
        self._register_states("exp_avg_sq_row", rows)
        self._register_states("exp_avg_sq_col", cols)
        self._register_states("exp_avg_sq", whole)
        self.step = Parameter(np.zeros(1, np.float32), name="afactor_step", requires_grad=False)

    def _check(self, eps, clip_threshold, decay_rate, weight_decay, beta1, flags):
        """MindSpore's checks, in its order."""
        if not isinstance(eps, (list, tuple)):
            raise TypeError(f"For 'AdaFactor', the type of 'eps' should be one of ['list', "
                            f"'tuple'], but got type '{type(eps).__name__}'.")
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for index, value in enumerate(eps):
            check_positive(self.cls_name, f"eps{index}", value, allow_zero=True)
        check_positive(self.cls_name, "clip_threshold", clip_threshold, allow_zero=True)
        check_open_unit(self.cls_name, "decay_rate", decay_rate)
        if not isinstance(weight_decay, (int, float)):
            raise TypeError(f"For 'AdaFactor', the 'weight_decay' must be 'float',  but got "
                            f"'{type(weight_decay).__name__}'.")
        if not 0 <= weight_decay < 1:
            raise ValueError(f"For 'AdaFactor', the 'weight_decay' must be in range of [0, 1), "
                             f"but got {weight_decay}.")
        for name, value in flags.items():
            self.check_bool(name, value)
        if not isinstance(beta1, (int, float)) or isinstance(beta1, bool):
            raise TypeError(f"For 'AdaFactor', the type of 'beta1' should be one of ['int', "
                            f"'float'], but got type '{type(beta1).__name__}'.")
        check_positive(self.cls_name, "beta1", float(beta1), allow_zero=True)

    @staticmethod
    def _state(name, shape, dtype):
        return Parameter(np.zeros(shape, dtype), name=name, requires_grad=False)

    def _register_states(self, attr, states):
        present = [s for s in states if s is not None]
        super()._register_states(attr, present)
        object.__setattr__(self, attr, states)      # (None where beta1 is 0: no first moment)

    def begin_step(self):
        self.step.data = self.step.data + np.float32(1)

    def _rate(self, lr):
        t = np.float32(self.step.data[0])
        if not self.relative_step:
            return lr
        floor = np.float32(1e-6) * t if self.warmup_init else np.float32(0.01)
        return f32(min(floor, np.float32(1) / np.sqrt(t)))

    def update(self, xp, index, param, grad, states, lr):
        exp_avg, row, col, whole = states
        t = np.float32(self.step.data[0])
        beta2t = f32(np.float32(1) - t ** -np.float32(self.decay_rate))
        keep = f32(1 - np.float32(beta2t))
        squared = grad * grad + self.eps[0]
        if param.ndim > 1:
            row[...] = row * beta2t + squared.mean(-1) * keep
            ratio = xp.sqrt(row / xp.clip(row.mean(-1)[..., None], _TINY, None))
            col[...] = xp.clip(col * beta2t + squared.mean(-2) * keep, _TINY, None)
            norm = ratio[..., :, None] * xp.sqrt(col)[..., None, :]
            step = grad / xp.clip(norm, _TINY, None)
        else:
            moment = xp.clip(whole * beta2t + squared * keep, _TINY, None)
            whole[...] = moment
            step = grad / xp.sqrt(moment)
        rate = self._rate(lr)
        if self.scale_parameter:
            rate = rate * xp.clip(xp.sqrt((param * param).mean()), self.eps[1], None)
        step = step * (rate / xp.clip(xp.sqrt((step * step).mean()) / self.clip_threshold,
                                      1.0, None))
        if exp_avg is not None:
            step = exp_avg * self.beta1 + step * f32(1 - np.float32(self.beta1))
            exp_avg[...] = step
        if self.decay:
            param[...] = param - step - param * self.decay * rate
        else:
            param[...] = param - step
