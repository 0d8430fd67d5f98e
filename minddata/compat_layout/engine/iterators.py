"""``mindspore.dataset.engine.iterators``: ``ITERATORS_LIST`` (weak references to the live
iterators), ``_cleanup()`` (stop them all, as MindSpore's test suites do after each test) and
the cleanup flag (see ``minddata.compat_layout.iterator_registry``), and the iterator classes."""
from minddata.compat_layout.iterator_registry import (  # noqa: F401
    ITERATORS_LIST, _cleanup, _set_iterator_cleanup, _unset_iterator_cleanup,
    check_iterator_cleanup, track)
# MindSpore's iterator classes: its base class is ``Iterator``.
from minddata.iterators import DictIterator, TupleIterator
from minddata.iterators import _IteratorBase as Iterator

__all__ = ["ITERATORS_LIST", "check_iterator_cleanup", "track", "Iterator", "TupleIterator",
           "DictIterator"]
