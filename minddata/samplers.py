"""Samplers: which row ids a source reads in one epoch, and in what order.

A sampler turns (number of rows, seed, epoch) into an int64 array of row ids before any I/O.
``add_child`` chains samplers as MindSpore does: the child's output ids are the population
the parent samples from.
"""
import copy
import enum
import logging
import math
import numbers
import operator

import numpy as np

from . import seeds
from .graph.checks import PipelineArgumentError, out_of_range, wrong_type

logger = logging.getLogger("minddata")

_INT32_MAX = 2 ** 31 - 1
_INT64_MAX = 2 ** 63 - 1


class Shuffle(str, enum.Enum):
    """Shuffle levels of file-based sources (MindSpore's ``mindspore.dataset.Shuffle``).

    ``BLOCKS`` is minddata's own (MindSpore has no such member): blocks of consecutive rows of
    each file in a random order, then rows shuffled within windows of a few blocks, so a
    reader touches a few contiguous byte ranges at a time (remote files, node-local caches).
    ``MindDataset(shuffle=Shuffle.BLOCKS, shuffle_block_rows=..., shuffle_window_rows=...)``;
    minddata/graph/block_shuffle.py has the rule."""
    FALSE = "false"
    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"
    BLOCKS = "blocks"


def _check_num_samples(num_samples):
    if num_samples is None:
        return
    if isinstance(num_samples, bool) or not isinstance(num_samples, int):
        raise wrong_type('num_samples', num_samples, int)
    if num_samples < 0 or num_samples > _INT64_MAX:
        raise out_of_range("num_samples", num_samples, 0, _INT64_MAX,
                           "num_samples exceeds the boundary between 0 and "
                           "9223372036854775807(INT64_MAX)!")


def _type_error(name, value, what):
    """MindSpore's words for a sampler argument of the wrong type ("start_index must be
    integer but was: 1.")."""
    return TypeError(f"{name} must be {what} but was: {value}.")


def _check_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise _type_error(name, value, "integer")


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise _type_error(name, value, "a boolean value")


def _check_indices(indices):
    """The row ids of a SubsetSampler as an int64 array, checked as MindSpore checks them:
    an iterable (not a str) of ints, every element an int or numpy integer."""
    if isinstance(indices, np.ndarray) and indices.ndim == 1 and \
            np.issubdtype(indices.dtype, np.integer):
        return indices.astype(np.int64)     # (no per-element check for a big id array)
    if isinstance(indices, int) and not isinstance(indices, bool):
        indices = [indices]             # one row id, as MindSpore takes it
    if isinstance(indices, (str, bytes)) or not hasattr(indices, "__iter__"):
        raise TypeError(f"Unsupported sampler object of type ({type(indices)}): indices must "
                        f"be a list or numpy array of int")
    indices = list(indices)
    for i, item in enumerate(indices):
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
            raise TypeError(f"SubsetSampler: Type of indices element must be int, but got "
                            f"list[{i}]: {item}, type: {type(item)}.")
    return np.asarray(indices, dtype=np.int64).reshape(-1)


class Sampler:
    """Base class. Built-in samplers implement ``_sample(n, rng, labels)`` over a population
    of n ids. A user-defined sampler (as in MindSpore) subclasses Sampler and implements
    ``__iter__`` yielding row ids; ``self.dataset_size`` is set before each epoch."""

    def __init__(self, num_samples=None):
        _check_num_samples(num_samples)
        if num_samples is None and self._user_defined() and hasattr(type(self), "__len__"):
            # MindSpore's default for a user sampler; its __len__ may need attributes the
            # subclass sets after this call, in which case the ids are counted when needed.
            try:
                num_samples = len(self)
            except Exception:
                num_samples = None
        self.num_samples = num_samples
        self.child_sampler = None
        self.dataset_size = 0

    def add_child(self, sampler):
        """Sample from ``sampler``'s output instead of all rows (one child only)."""
        if not isinstance(sampler, Sampler):
            raise TypeError(f"sampler must be a Sampler, got {type(sampler).__name__}")
        if self.child_sampler is not None:
            raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
        self.child_sampler = sampler

    def get_child(self):
        return self.child_sampler

    def reset(self):
        """Called before each epoch after the first; override it in a user-defined sampler
        that keeps per-epoch state."""

    def get_num_samples(self):
        """MindSpore's rule: this sampler's num_samples, capped by (or, when None, taken from)
        its child's get_num_samples(); None where neither gives one."""
        child = self.child_sampler.get_num_samples() if self.child_sampler is not None else None
        if self.num_samples is None:
            return child
        return self.num_samples if child is None else min(self.num_samples, child)

    def parse(self):
        """MindSpore's parse() builds the engine's own copy of the sampler, checking what the
        constructor leaves unchecked; here that copy is a Sampler too (add_child on it leaves
        this one alone)."""
        self._check_when_built()
        return copy.deepcopy(self)

    def _check_when_built(self):
        """Argument checks MindSpore makes when the pipeline is built, not when constructed."""

    def is_random(self):
        return False

    def is_shuffled(self):
        """MindSpore's: whether this sampler or its child gives the ids in a random order."""
        return self.is_random() or bool(self.child_sampler and self.child_sampler.is_shuffled())

    def is_sharded(self):
        return bool(self.child_sampler and self.child_sampler.is_sharded())

    # engine side -------------------------------------------------------------------------
    def ids(self, num_rows, seed, epoch, op_position, labels=None, _depth=0):
        """Row ids of one epoch (int64 array). ``labels()`` returns the class column (for
        PKSampler), called only when needed. A user-defined sampler's ``reset()`` runs
        before every epoch after the first, and its ``__iter__`` once per epoch, as in
        MindSpore."""
        self._check_when_built()
        if epoch > 0 and self._user_defined():
            self.reset()
        if self.child_sampler is not None:
            population = self.child_sampler.ids(num_rows, seed, epoch, op_position, labels,
                                                _depth + 1)
        else:
            population = None
        n = num_rows if population is None else len(population)
        rng = seeds.rng(seed, epoch, op_position, stream=1000 + _depth)
        local = self._sample(n, rng, labels if population is None else
                             (lambda: np.asarray(labels())[population]))
        local = np.asarray(local, dtype=np.int64)
        if self.num_samples is not None and self.num_samples > 0:
            local = local[:self.num_samples]
        if self._wraps_negative_ids():
            local = np.where((local < 0) & (local >= -n), local + n, local)
        _check_ids_in_range(self, local, n, population is not None)
        return local if population is None else population[local]

    def count(self, num_rows):
        """Number of ids per epoch for a population of num_rows (without reading labels where
        possible; may return None when it depends on data)."""
        n = num_rows if self.child_sampler is None else self.child_sampler.count(num_rows)
        if n is None:
            return None
        c = self._count(n)
        if c is None:
            return None
        if self.num_samples is not None and self.num_samples > 0:
            c = min(c, self.num_samples)
        return c

    def _count(self, n):
        if self._user_defined():
            return self.num_samples or _count_by_iterating(self, n)
        return n

    def _user_defined(self):
        return hasattr(type(self), "__iter__")

    def _wraps_negative_ids(self):
        # MindSpore reads id -1 of a Python sampler as the last row (a built-in one's negative
        # id is out of bound).
        return self._user_defined()

    def _sample(self, n, rng, labels):
        if self._user_defined():
            self.dataset_size = n
            return _drain(self, self.num_samples)
        raise NotImplementedError(f"{type(self).__name__} must implement __iter__")

    def describe(self):
        child = f"<-{self.child_sampler.describe()}" if self.child_sampler else ""
        return f"{type(self).__name__}({self._describe_args()}){child}"

    def _describe_args(self):
        return f"num_samples={self.num_samples}"

    def __repr__(self):
        return self.describe()


def _check_ids_in_range(sampler, ids, n, of_child):
    """MindSpore's RuntimeError for an id outside [0, n) (a negative id too: it is no
    position counted from the end)."""
    bad = ids[(ids >= n) | (ids < 0)]
    if bad.size:
        population = f"its child sampler's {n} ids" if of_child else f"a dataset of {n} rows"
        raise RuntimeError(f"{type(sampler).__name__}: Sample ID ({int(bad[0])}) is out of "
                           f"bound, expected range [0, {n - 1}] ({population})")


def _drain(iterable, limit):
    """The ids an iterable yields (ints, or lists of ints as a batch sampler yields them),
    flattened, stopping after ``limit`` items when given."""
    out = []
    for count, idx in enumerate(iterable):
        if limit is not None and 0 < limit <= count:
            break
        if isinstance(idx, (list, tuple, np.ndarray)):
            out.extend(int(i) for i in np.asarray(idx).reshape(-1))
        else:
            try:
                out.append(operator.index(idx))
            except TypeError:
                raise TypeError(f"a sampler must yield int row ids, got {idx!r}") from None
    return np.asarray(out, dtype=np.int64)


def copy_for_run(sampler):
    """The sampler one run reads with (an iterator, or get_dataset_size counting one). A
    chain holding a user sampler (a Sampler subclass with ``__iter__``, an IterSampler) is
    copied, so that its state (counters its ``reset()`` advances, its own random generator)
    starts afresh for every iterator: MindSpore copies a pipeline's samplers for each. The
    built-in samplers keep no state (their ids come from the seed and epoch) and are shared;
    so is a user sampler that cannot be copied."""
    s = sampler
    while s is not None and not (s._user_defined() or isinstance(s, IterSampler)):
        s = s.child_sampler
    if s is None:
        return sampler
    try:
        return copy.deepcopy(sampler)
    except Exception:
        return sampler


def _count_by_iterating(sampler, n):
    """Ids per epoch of a user sampler without __len__: iterate a copy (the original's
    iteration state is left alone, as MindSpore does); None when it cannot be copied."""
    try:
        twin = copy.deepcopy(sampler)
    except Exception:
        return None
    twin.dataset_size = n
    return len(twin._sample(n, None, None))


class IterSampler(Sampler):
    """Any iterable of row ids used as a sampler (``mindspore.dataset.IterSampler``): an
    object with ``__iter__`` (and usually ``__len__``) or with ``__getitem__``/``__len__``,
    such as a model-zoo ``DistributedSampler`` that is not a ``ds.Sampler`` subclass. Its
    ``__iter__`` is called once per epoch (and once when the dataset is built, as
    MindSpore checks that it is iterable); ``num_samples`` defaults to ``len(sampler)``."""

    def __init__(self, sampler, num_samples=None):
        if num_samples is None and hasattr(sampler, "__len__"):
            num_samples = len(sampler)
        super().__init__(num_samples)
        self.sampler = sampler

    def _user_defined(self):
        return False

    def _wraps_negative_ids(self):
        return True

    def _sample(self, n, rng, labels):
        self.dataset_size = n
        return _drain(self.sampler, self.num_samples)

    def _count(self, n):
        if self.num_samples is not None:
            return self.num_samples
        return _count_by_iterating(self, n)

    def _describe_args(self):
        return f"sampler={type(self.sampler).__qualname__}, num_samples={self.num_samples}"


def as_sampler(sampler, num_samples=None):
    """What MindSpore accepts as ``sampler=``: a Sampler; a list, tuple or array of row ids
    (SubsetSampler); an int (one row id); or any other iterable of row ids (IterSampler)."""
    if sampler is None or isinstance(sampler, Sampler):
        return sampler
    if isinstance(sampler, (list, tuple, np.ndarray)):
        return SubsetSampler(sampler, num_samples)
    if isinstance(sampler, (str, bytes)):
        raise TypeError(f"Unsupported sampler object of type ({type(sampler)})")
    if isinstance(sampler, int) and not isinstance(sampler, bool):
        return SubsetSampler([sampler])
    try:
        first = iter(sampler)
    except TypeError:
        raise TypeError(f"Unsupported sampler object of type ({type(sampler)}): a sampler must "
                        f"be a ds.Sampler, a list of row ids or an iterable of row ids") from None
    if first is sampler:
        # a generator or other iterator yields its ids once: the next epoch (or the count of
        # get_dataset_size) would find it empty (MindSpore 2.10 fails to copy it: TypeError)
        raise TypeError(f"sampler: a {type(sampler).__name__} yields its row ids only once; "
                        f"give a list of row ids or an iterable whose iter() starts again")
    return IterSampler(sampler, num_samples)


def refuse_pk_sampler(sampler, error):
    """MindSpore's GeneratorDataset (NumpySlicesDataset too, which is one there) refuses a
    PKSampler: ValueError as an argument, RuntimeError when added later and iterated."""
    while sampler is not None:
        if isinstance(sampler, PKSampler):
            raise error("GeneratorDataset doesn't support PKSampler.")
        sampler = getattr(sampler, "child_sampler", None)


def user_source_sampling(num_samples, sampler, shuffle, num_shards, shard_id):
    """Sampling arguments of GeneratorDataset and NumpySlicesDataset checked by MindSpore's
    rules for them (ValueError where file sources raise RuntimeError); returns
    (sampler, shuffle, num_shards, shard_id) for SourceDataset. As in MindSpore, a sampler
    that is not a ds.Sampler (a list of ids, an iterable) overrides shuffle and sharding,
    which are then ignored with a warning."""
    _check_num_samples(num_samples)
    if shuffle is not None and not isinstance(shuffle, bool):
        # MindSpore's type check: a Shuffle member is no bool here either
        raise TypeError(f"Argument shuffle with value {shuffle} is not of type [<class 'bool'>], "
                        f"but got {type(shuffle)}.")
    if (num_shards is None) != (shard_id is None):
        raise ValueError("num_shards and shard_id need to be passed in together.")
    if num_shards is not None:
        for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"Argument {name} with value {v} is not of type "
                                f"[<class 'int'>], but got {type(v)}.")
        if not 1 <= num_shards <= _INT32_MAX:
            raise ValueError(f"Input num_shards is not within the required interval of "
                             f"[1, {_INT32_MAX}].")
        if shard_id >= num_shards:
            raise ValueError("shard_id should be less than num_shards.")
        if shard_id < 0:
            raise ValueError(f"Input shard_id is not within the required interval of "
                             f"[0, {num_shards - 1}].")
    if sampler is None:
        return None, shuffle, num_shards, shard_id
    refuse_pk_sampler(sampler, ValueError)
    if not isinstance(sampler, Sampler):
        # MindSpore's argument check calls iter() on it (a stateful sampler, such as the model
        # zoo's DistributedSampler whose __iter__ advances its epoch, sees this call too).
        try:
            iter(sampler)
        except TypeError:
            raise TypeError("sampler should be either iterable or from "
                            "mindspore.dataset.samplers.") from None
    if isinstance(sampler, Sampler):
        if any(a is not None for a in (num_shards, shard_id, shuffle, num_samples)):
            raise ValueError(f"Conflicting arguments during sampler assignments. num_samples: "
                             f"{num_samples}, num_shards: {num_shards}, shard_id: {shard_id}, "
                             f"shuffle: {shuffle}.")
        return sampler, None, None, None
    if shuffle is not None or num_shards is not None:
        logger.warning("minddata: sampler=%s decides the rows; shuffle=%r, num_shards=%r and "
                       "shard_id=%r are ignored (as in MindSpore)", type(sampler).__name__,
                       shuffle, num_shards, shard_id)
    return as_sampler(sampler, num_samples), None, None, None


class SequentialSampler(Sampler):
    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        if start_index is not None:
            _check_int("start_index", start_index)
            if start_index < 0:
                raise PipelineArgumentError(
                    f"start_index {start_index} must be >= 0. [ERROR] SequentialSampler: "
                    f"start_index_ must be greater than or equal to 0, but got: {start_index}")
        self.start_index = start_index

    def _sample(self, n, rng, labels):
        start = self.start_index or 0
        if n and start >= n:
            raise PipelineArgumentError(f"Invalid parameter, start_index must be less than "
                                        f"num_rows, but got start_index: {start}, num_rows: {n}.")
        return np.arange(start, n, dtype=np.int64)

    def _count(self, n):
        return max(0, n - (self.start_index or 0))

    def _describe_args(self):
        return f"start_index={self.start_index}, num_samples={self.num_samples}"


class RandomSampler(Sampler):
    def __init__(self, replacement=False, num_samples=None, shuffle=Shuffle.GLOBAL):
        super().__init__(num_samples)
        _check_bool("replacement", replacement)
        self.replacement = replacement
        self.shuffle = shuffle

    def is_random(self):
        return True

    def _sample(self, n, rng, labels):
        if self.replacement:
            # num_samples is capped at the number of rows, with replacement too: MindSpore
            # 2.10 gives 10 rows for RandomSampler(replacement=True, num_samples=25) over 10.
            k = min(self.num_samples or n, n)
            return rng.integers(0, n, size=k) if n else np.zeros(0, np.int64)
        return rng.permutation(n)

    def _describe_args(self):
        return f"replacement={self.replacement}, num_samples={self.num_samples}"


class DistributedSampler(Sampler):
    """Shard ``shard_id`` of ``num_shards``: every shard gets ceil(R/N) ids, shard k's j-th id
    is position (k + j*N) mod R of the (shuffled, when shuffle=True) row order, the split
    MindSpore 2.10 makes. With shuffle the permutation is the same on every shard (same seed
    and epoch), so shards are disjoint except for the wrapped tail."""

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        # MindSpore's order: the types (num_shards, shard_id, shuffle, num_samples, offset),
        # then the ranges (MindSpore checks those when the pipeline is built)
        for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
            _check_int(name, v)
        if isinstance(shuffle, Shuffle):
            # MindSpore takes Shuffle.FALSE and Shuffle.GLOBAL (ADAPTIVE: its default for
            # True); the file-level modes are MindDataset's own and not sampled here
            if shuffle not in (Shuffle.FALSE, Shuffle.GLOBAL, Shuffle.ADAPTIVE):
                raise RuntimeError(f"The shuffle mode: {shuffle} is not supported with current "
                                   f"dataset.")
            shuffle = shuffle != Shuffle.FALSE
        if not isinstance(shuffle, bool):
            raise _type_error("shuffle", shuffle, "a boolean value or valid shuffle mode")
        super().__init__(num_samples)
        _check_int("offset", offset)
        if num_shards < 1:
            raise PipelineArgumentError(
                f"num_shards {num_shards} is not within the required interval of "
                f"[1, {_INT32_MAX}]. [ERROR] DistributedSampler: num_shards must be greater "
                f"than 0, but got: {num_shards}")
        if not 0 <= shard_id < num_shards:
            raise PipelineArgumentError(
                f"shard_id {shard_id} is not within the required interval of "
                f"[0, {num_shards - 1}]. [ERROR] DistributedSampler: shard_id must be in range "
                f"[0, {num_shards}), but got: {shard_id}")
        self.num_shards = num_shards
        self.shard_id = shard_id
        self.shuffle = shuffle
        self.offset = offset

    def is_random(self):
        return self.shuffle

    def is_sharded(self):
        return self.num_shards > 1 or super().is_sharded()

    def _check_when_built(self):
        if self.offset > self.num_shards:
            raise RuntimeError(f"DistributedSampler: offset must be no more than "
                               f"num_shards({self.num_shards}), but got offset {self.offset}")

    def _sample(self, n, rng, labels):
        if n == 0:
            return np.zeros(0, np.int64)
        order = rng.permutation(n) if self.shuffle else np.arange(n, dtype=np.int64)
        per_shard = math.ceil(n / self.num_shards)
        pos = (self.shard_id + np.arange(per_shard, dtype=np.int64) * self.num_shards) % n
        return order[pos]

    def _count(self, n):
        return math.ceil(n / self.num_shards) if n else 0

    def _describe_args(self):
        return (f"num_shards={self.num_shards}, shard_id={self.shard_id}, "
                f"shuffle={self.shuffle}, num_samples={self.num_samples}")


class SubsetSampler(Sampler):
    """The given row ids, in the given order."""

    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        self.indices = _check_indices(indices)

    def _sample(self, n, rng, labels):
        return self.indices.copy()

    def _count(self, n):
        return len(self.indices)

    def get_num_samples(self):
        """As in MindSpore: the number of indices, capped by num_samples (and the child's)."""
        limit = super().get_num_samples()
        return len(self.indices) if limit is None else min(len(self.indices), limit)

    def _describe_args(self):
        return f"indices={self.indices.tolist()[:8]}..., num_samples={self.num_samples}"


class SubsetRandomSampler(SubsetSampler):
    """The given row ids in a random order (a new one each epoch)."""

    def is_random(self):
        return True

    def _sample(self, n, rng, labels):
        return self.indices[rng.permutation(len(self.indices))]


class WeightedRandomSampler(Sampler):
    """num_samples ids drawn with probability proportional to ``weights[id]``."""

    def __init__(self, weights, num_samples=None, replacement=True):
        if isinstance(weights, numbers.Number) and not isinstance(weights, bool):
            weights = [weights]         # one weight, as MindSpore takes it
        if isinstance(weights, (str, bytes)) or not hasattr(weights, "__len__"):
            raise TypeError(f"weights must be a list of numbers, got {type(weights).__name__}")
        for i, w in enumerate(weights):
            if isinstance(w, bool) or not isinstance(w, numbers.Number):
                raise TypeError(f"type of weights element must be number, but got w[{i}]: {w}, "
                                f"type: {type(w)}.")
        super().__init__(num_samples)
        _check_bool("replacement", replacement)
        # MindSpore finds these when the pipeline is built (RuntimeError, its words): here when
        # the sampler is, an error that is a ValueError too
        w = np.asarray(weights, dtype=np.float64).reshape(-1)
        if w.size == 0:
            raise PipelineArgumentError("WeightedRandomSampler: weights vector must not be empty")
        bad = np.flatnonzero((w < 0) | ~np.isfinite(w))
        if bad.size:
            raise PipelineArgumentError(
                f"WeightedRandomSampler: weights vector must not contain negative numbers, got: "
                f"weights[{bad[0]}] = {w[bad[0]]} (nor NaN or infinity)")
        if w.sum() <= 0:
            raise PipelineArgumentError(
                "WeightedRandomSampler: elements of weights vector must not be all zero")
        self.weights = w
        self.replacement = replacement

    def is_random(self):
        return True

    def _sample(self, n, rng, labels):
        if len(self.weights) > n:
            raise RuntimeError(f"Invalid parameter, size of sample weights must be less than or "
                               f"equal to num of data, otherwise might cause generated id out of "
                               f"bound or other errors, but got weight size: "
                               f"{len(self.weights)}, num of data: {n}")
        # As in MindSpore 2.10: num_samples (default: every row) is capped at the number of
        # rows, and ids are drawn among the first len(weights) rows.
        k = min(self.num_samples or n, n)
        if not self.replacement:
            if k > len(self.weights):
                raise PipelineArgumentError(
                    f"Invalid parameter, without replacement, weight size must be greater than "
                    f"or equal to num_samples, but got weight size: {len(self.weights)}, "
                    f"num_samples: {k}")
            positive = int((self.weights > 0).sum())
            if k > positive:
                # MindSpore 2.10 serves rows of weight 0 once the others are drawn; here a row
                # of weight 0 is never served
                raise PipelineArgumentError(
                    f"WeightedRandomSampler: {k} samples without replacement, but only "
                    f"{positive} weights are positive (a row of weight 0 is never drawn)")
        p = self.weights / self.weights.sum()
        return rng.choice(len(p), size=k, replace=self.replacement, p=p)


class PKSampler(Sampler):
    """``num_val`` rows of every class (P classes x K rows), read from ``class_column``."""

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label",
                 num_samples=None):
        super().__init__(num_samples)
        _check_int("num_val", num_val)
        if num_val < 1:
            # MindSpore finds it when the pipeline is built (RuntimeError)
            raise PipelineArgumentError(f"num_val {num_val} must be positive. [ERROR] PKSampler: "
                                        f"'num_elements' should be greater than 0, but got: "
                                        f"{num_val}")
        if num_class is not None:
            raise NotImplementedError("Not supported to specify num_class for PKSampler.")
        _check_bool("shuffle", shuffle)
        if not isinstance(class_column, str):
            raise _type_error("class_column", class_column, "a str value")
        self.num_val = num_val
        self.shuffle = shuffle
        self.class_column = class_column

    def is_random(self):
        return self.shuffle

    def _sample(self, n, rng, labels):
        if labels is None:
            raise RuntimeError("PKSampler needs a source with a class column")
        lab = np.asarray(labels()).reshape(-1)
        classes = np.unique(lab)
        if self.shuffle:
            # As in MindSpore: the classes come in a random order, each class's K rows
            # together (a batch of P*K rows holds P classes).
            classes = classes[rng.permutation(len(classes))]
        out = []
        for c in classes:
            members = np.flatnonzero(lab == c)
            if self.shuffle:
                members = rng.permutation(members)
            if len(members) >= self.num_val:
                picked = members[:self.num_val]
            else:  # too few rows in this class: repeat them, as MindSpore does
                picked = np.resize(members, self.num_val)
            out.append(picked)
        return np.concatenate(out) if out else np.zeros(0, np.int64)

    def _count(self, n):
        return None  # depends on the number of classes in the data
