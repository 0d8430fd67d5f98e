"""The registry of live iterators behind ``mindspore.dataset.engine.iterators``.

``ITERATORS_LIST`` holds a weak reference to every iterator that ``track`` was given and that is
still alive: a reference leaves the list when its iterator is garbage-collected or stopped by
``_cleanup()``, as in MindSpore. ``_cleanup()`` stops every tracked iterator (MindSpore's test
suites call it after each test); ``check_iterator_cleanup()`` says whether it ran since the last
iterator was tracked.

``track`` also shows each new iterator to the run watchers: AutoTune's (loaded only while
``ds.config.get_enable_autotune()`` is on) and those added with ``add_watcher`` (Dataset
Profiling's, from its ``init()``), so a pipeline runs without them otherwise.

A module of its own, importing nothing of the project but its config, so that the iterators
can call ``track`` without loading the layout modules.
"""
import threading
import weakref

__all__ = ["ITERATORS_LIST", "track", "check_iterator_cleanup", "add_watcher",
           "remove_watcher"]

ITERATORS_LIST = []
# Re-entrant: a weak reference's callback (_forget) can run inside any locked block, when a
# collection frees an iterator there.
_lock = threading.RLock()
_state = {"cleanup": False}


def _autotune(iterator):
    from minddata import config
    if config.get_enable_autotune():
        from minddata.autotune import watch
        watch(iterator)


# Callables watch(iterator) called for every tracked iterator, in order.
_watchers = [_autotune]


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
        new = not any(ref() is iterator for ref in list(ITERATORS_LIST))
        if new:
            ITERATORS_LIST.append(weakref.ref(iterator, _forget))
        watchers = list(_watchers) if new else []
    _state["cleanup"] = False
    for watch in watchers:
        watch(iterator)
    return iterator


def remove_watcher(watch):
    """Stop calling ``watch`` (nothing when it was not added)."""
    with _lock:
        if watch in _watchers:
            _watchers.remove(watch)


def add_watcher(watch, first=False):
    """Call ``watch(iterator)`` for every iterator tracked from now on (once, however often it
    is added); ``first``: before the watchers already added (Dataset Profiling claims a
    pipeline before AutoTune looks at it)."""
    with _lock:
        if watch not in _watchers:
            _watchers.insert(0 if first else len(_watchers), watch)


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
