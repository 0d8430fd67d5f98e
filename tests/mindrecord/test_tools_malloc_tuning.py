"""retain_freed_memory: nested and concurrent conversions share one setting, restored at the end."""
import threading

from mindrecord.tools import malloc_tuning


def test_nested_use_restores_once(monkeypatch):
    calls = []
    monkeypatch.setattr(malloc_tuning, "_MALLOPT", lambda opt, value: calls.append((opt, value)))
    with malloc_tuning.retain_freed_memory():
        with malloc_tuning.retain_freed_memory():
            assert malloc_tuning._active == 2
        assert calls == [(-1, 512 << 20), (-3, 32 << 20)]
    assert malloc_tuning._active == 0
    assert calls[2:] == [(-1, 128 * 1024), (-3, 128 * 1024)]


def test_concurrent_threads_and_exceptions(monkeypatch):
    calls = []
    monkeypatch.setattr(malloc_tuning, "_MALLOPT", lambda opt, value: calls.append(value))
    barrier = threading.Barrier(4)

    def worker():
        try:
            with malloc_tuning.retain_freed_memory():
                barrier.wait()
                raise RuntimeError("conversion failed")
        except RuntimeError:
            pass

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert malloc_tuning._active == 0 and calls == [512 << 20, 32 << 20, 131072, 131072]


def test_real_mallopt_is_callable_or_absent():
    with malloc_tuning.retain_freed_memory():
        data = [bytes(60_000) for _ in range(100)]
    assert len(data) == 100
