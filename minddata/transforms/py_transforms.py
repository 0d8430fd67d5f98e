"""minddata.transforms.py_transforms: Compose, RandomApply, RandomChoice and RandomOrder for the
PIL path (and any mix of ops and Python callables). Op i of a Compose draws from
derive_seed(seed, i), like the native Compose; images stay PIL images between the ops."""
from transforms_c._rng import Rng
from transforms_c.transforms import Compose as _Compose
from transforms_c.transforms import RandomApply as _RandomApply
from transforms_c.transforms import RandomChoice as _RandomChoice
from transforms_c.transforms import (_Composite, _check_transforms, call_op, eager_call,
                                     refuse_empty_input, validate_members)


class Compose(_Compose):
    """Compose(transforms): the ops in order."""

    def __call__(self, *arrays):
        with eager_call():
            out = self.apply(tuple(arrays), _eager_seed() if self.is_random else 0)
        return out[0] if len(out) == 1 else out


class RandomApply(_RandomApply):
    """RandomApply(transforms, prob=0.5)."""

    def __call__(self, *arrays):
        with eager_call():
            out = self.apply(tuple(arrays), _eager_seed())
        return out[0] if len(out) == 1 else out


class RandomChoice(_RandomChoice):
    """RandomChoice(transforms)."""

    def __call__(self, *arrays):
        with eager_call():
            out = self.apply(tuple(arrays), _eager_seed())
        return out[0] if len(out) == 1 else out


class RandomOrder(_Composite):
    """RandomOrder(transforms): all the ops, in a random order."""

    is_random = True

    def __init__(self, transforms):
        self.transforms = _check_transforms(transforms)

    def __call__(self, *arrays):
        if any(hasattr(op, "apply") for op in self.transforms):
            # MindSpore's RandomOrder is Python: its ops' eager calls refuse an empty input
            refuse_empty_input("RandomOrder", arrays)
        validate_members(self.transforms)
        out = self.apply(tuple(arrays), _eager_seed())
        return out[0] if len(out) == 1 else out

    def apply(self, arrays, seed):
        rng = Rng(seed)
        order = list(range(len(self.transforms)))
        for i in range(len(order) - 1, 0, -1):
            j = rng.randint(0, i)
            order[i], order[j] = order[j], order[i]
        for k in order:
            arrays = call_op(self.transforms[k], arrays, rng.next_u64())
        return arrays


def _eager_seed():
    from transforms_c._rng import eager_seed
    return eager_seed()


__all__ = ["Compose", "RandomApply", "RandomChoice", "RandomOrder"]
