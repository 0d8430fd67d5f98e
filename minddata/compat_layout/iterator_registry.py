"""The registry of live iterators behind ``mindspore.dataset.engine.iterators``.

``ITERATORS_LIST`` holds a weak reference to every iterator that ``track`` was given and that is
still alive: a reference leaves the list when its iterator is garbage-collected or stopped by
``_cleanup()``, as in MindSpore. ``_cleanup()`` stops every tracked iterator (MindSpore's test
suites call it after each test); ``check_iterator_cleanup()`` says whether it ran since the last
iterator was tracked.

A module of its own, importing nothing of the project, so that the iterators can call
``track`` without loading the layout modules.
"""
import threading
import weakref

__all__ = ["ITERATORS_LIST", "track", "check_iterator_cleanup"]

ITERATORS_LIST = []
# Re-entrant: a weak reference's callback (_forget) can run inside any locked block, when a
# collection frees an iterator there.
_lock = threading.RLock()
_state = {"cleanup": False}


def _forget(ref):
    with _lock:
        try:
            ITERATORS_LIST.remove(ref)
        except ValueError:
            pass  # already removed by _cleanup or by ITERATORS_LIST.clear()


def track(iterator):
    """Add ``iterator`` (an object with ``stop()``) to ``ITERATORS_LIST`` unless it is there
    (minddata's iterators track themselves); returns it."""
    with _lock:
        if not any(ref() is iterator for ref in list(ITERATORS_LIST)):
            ITERATORS_LIST.append(weakref.ref(iterator, _forget))
    _state["cleanup"] = False
    return iterator


def _set_iterator_cleanup():
    _state["cleanup"] = True


def _unset_iterator_cleanup():
    _state["cleanup"] = False


def check_iterator_cleanup():
    """True when ``_cleanup()`` ran after the last iterator was tracked."""
    return _state["cleanup"]


def _cleanup():
    """Stop every live tracked iterator, newest first, and empty ``ITERATORS_LIST``."""
    _set_iterator_cleanup()
    with _lock:
        refs = ITERATORS_LIST[::-1]
        ITERATORS_LIST.clear()
    for ref in refs:
        iterator = ref()
        if iterator is not None:
            iterator.stop()
