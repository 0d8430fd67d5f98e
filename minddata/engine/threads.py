"""An ordered pool of worker threads: tasks run concurrently, results come back in submission
order (so output order is input order whatever the worker count)."""
import collections
import concurrent.futures


class OrderedThreadPool:
    def __init__(self, num_workers, name):
        self.num_workers = num_workers
        self._ex = concurrent.futures.ThreadPoolExecutor(num_workers,
                                                         thread_name_prefix=f"minddata-{name}")
        self._pending = collections.deque()

    def submit(self, fn, *args):
        self._pending.append(self._ex.submit(fn, *args))

    def __len__(self):
        return len(self._pending)

    def result(self):
        """Result of the oldest task (re-raises its exception)."""
        return self._pending.popleft().result()

    def clear(self):
        """Drop pending tasks (cancel those not started, wait for running ones)."""
        while self._pending:
            f = self._pending.popleft()
            if not f.cancel():
                try:
                    f.result()
                except BaseException:  # a dropped task's failure is not the caller's concern
                    pass

    def close(self):
        self.clear()
        self._ex.shutdown(wait=True, cancel_futures=True)
