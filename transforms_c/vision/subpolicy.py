"""UniformAugment (a few ops of a list, each run or not) and RandomSelectSubpolicy (one
sub-policy of (op, prob) pairs drawn uniformly, its ops run in order each with its
probability). Their member ops are transforms_c ops or Python callables, run as RandomApply and
RandomChoice run theirs (transforms_c.transforms.call_op): each with a seed of its own drawn
from the row's."""
from transforms_c._base import TensorOperation
from transforms_c._rng import Rng
from transforms_c._validate import check_float, check_int, is_number, wrong_type
from transforms_c.transforms import _check_transforms, _Composite, call_op


def _ordered_sample(rng, population, count):
    """`count` distinct items of `population` drawn uniformly, kept in the population's order
    (selection sampling, as std::sample draws MindSpore's)."""
    chosen = []
    for i, item in enumerate(population):
        if rng.random() * (len(population) - i) < count - len(chosen):
            chosen.append(item)
    return chosen


class UniformAugment(_Composite):
    """UniformAugment(transforms, num_ops=2): num_ops of the ops drawn uniformly (distinct),
    each then run with probability 1/2, in the list's order (as MindSpore 2.10's C++ op;
    measured). A PIL image goes to the ops as it is (a compound op, as RandomApply)."""

    is_random = True

    def __init__(self, transforms, num_ops=2):
        # MindSpore's order and words: num_ops first, then the list
        self.num_ops = check_int(num_ops, "num_ops")
        if self.num_ops <= 0:
            raise ValueError("Input num_ops must be greater than 0.")
        if isinstance(transforms, (list, tuple)) and self.num_ops > len(transforms):
            raise ValueError(f"num_ops is greater than transforms list size. (num_ops "
                             f"{self.num_ops}, {len(transforms)} transforms)")
        self.transforms = _check_transforms(transforms, "transforms")

    def apply(self, arrays, seed):
        rng = Rng(seed)
        for op in _ordered_sample(rng, self.transforms, self.num_ops):
            if rng.random() < 0.5:
                arrays = call_op(op, arrays, rng.next_u64())
        return arrays


def _check_policy(policy):
    """RandomSelectSubpolicy's policy: a non-empty list of non-empty lists of (op, prob)
    tuples, prob in [0, 1]; MindSpore's errors and words. Returns it with float probs."""
    if not isinstance(policy, list):
        raise wrong_type("policy", policy, list)
    if not policy:
        raise ValueError("policy can not be empty.")
    checked = []
    for i, sub in enumerate(policy):
        if not isinstance(sub, list):
            raise wrong_type(f"policy[{i}]", sub, list)
        if not sub:
            raise ValueError(f"policy[{i}] can not be empty.")
        checked.append([_check_pair(pair, f"policy[{i}][{j}]") for j, pair in enumerate(sub)])
    return checked


def _check_pair(pair, where):
    if not (isinstance(pair, tuple) and len(pair) == 2):
        raise ValueError(f"Value {where} needs to be a 2-tuple.")
    op, prob = pair
    if isinstance(op, type):    # vision.Invert written for vision.Invert()
        raise ValueError(f"op of (op, prob) in {where} should be a dataset processing "
                         f"operation instance, but got: {op}. It may be missing parentheses "
                         f"for instantiation.")
    if not callable(op):
        raise TypeError(f"op of (op, prob) in {where} is neither a transforms op "
                        f"(TensorOperation) nor a callable pyfunc. Got {op!r}.")
    if not is_number(prob):
        # MindSpore 2.10 fails on its range comparison here; its words are added to ours.
        error = wrong_type(f"prob of (op, prob) {where}", prob, int, float)
        raise TypeError(f"{error} '<' not supported between instances of "
                        f"'{type(prob).__name__}' and 'int'.")
    return op, check_float(prob, f"prob of (op, prob) {where}", 0, 1)


class RandomSelectSubpolicy(TensorOperation):
    """RandomSelectSubpolicy(policy): one sub-policy of the list drawn uniformly; each of its
    (op, prob) pairs then runs in order with probability prob. An image op as MindSpore's: numpy
    arrays and PIL images only, a PIL image read as its array."""

    is_random = True

    def __init__(self, policy):
        self.policy = _check_policy(policy)

    def apply(self, arrays, seed):
        rng = Rng(seed)
        for op, prob in self.policy[rng.randint(0, len(self.policy) - 1)]:
            if rng.random() < prob:
                arrays = call_op(op, arrays, rng.next_u64())
        return arrays
