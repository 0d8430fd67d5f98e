"""``mindspore.dataset.engine.iterators``: ``ITERATORS_LIST`` (weak references to the live
iterators), ``_cleanup()`` (stop them all, as MindSpore's test suites do after each test) and
the cleanup flag (see ``minddata.compat_layout.iterator_registry``)."""
from minddata.compat_layout.iterator_registry import (  # noqa: F401
    ITERATORS_LIST, _cleanup, _set_iterator_cleanup, _unset_iterator_cleanup,
    check_iterator_cleanup, track)

__all__ = ["ITERATORS_LIST", "check_iterator_cleanup", "track"]
