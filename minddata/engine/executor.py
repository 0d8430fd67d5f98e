"""One executor abstraction for every node that runs work in parallel: inline, threads or
processes, with one submit/result signature.

An executor runs ``task(meta, payload)``, where ``meta`` is small (positions, epoch numbers) and
``payload`` is the data: a list of rows, which worker processes receive through shared memory
(engine/procs.py), or anything for inline and thread execution. Results come back in submission
order, whatever the number of workers:

    executor.submit(meta, payload, context=None)
    value, context = executor.result()      # the oldest task's; re-raises its exception

A task's exception carries ``_minddata_task = (context, row)`` when the task marked the row it
failed on (``exc._minddata_row``), so the node can name the row in its error. ``clear()`` drops
the pending tasks, ``close()`` releases every worker; both are idempotent.

A task that is a bound method of the executor's owner (a node's ``_read_task``) is held weakly:
the owner holds its executor, so a strong reference back would make a reference cycle, and
everything the owner holds (rows, the dataset, the user's source) would outlive the pipeline
until the next garbage collection instead of being freed when the iterator is dropped.
"""
import collections
import concurrent.futures
import inspect
import threading
import weakref


class _WeakTask:
    """A bound method without keeping its object alive (weakref.WeakMethod makes a small
    reference cycle of its own)."""

    __slots__ = ("_obj", "_func")

    def __init__(self, task):
        self._obj = weakref.ref(task.__self__)
        self._func = task.__func__

    def resolve(self):
        obj = self._obj()
        if obj is None:
            raise RuntimeError("minddata: the pipeline node of this task was freed")
        return self._func.__get__(obj)

    def __call__(self, meta, payload):
        return self.resolve()(meta, payload)


def _held(task):
    """What an executor keeps of ``task``: a weak reference for a bound method."""
    return _WeakTask(task) if inspect.ismethod(task) else task


def _strong(task):
    return task.resolve() if isinstance(task, _WeakTask) else task


def _mark(exc, context):
    row = getattr(exc, "_minddata_row", None)
    exc._minddata_task = (context, row) if context is not None and row is not None else None
    return exc


class InlineExecutor:
    """Runs each task in the caller's thread when its result is asked for (one worker, debug
    mode): nothing runs ahead, nothing to release."""

    num_workers = 1

    def __init__(self, task):
        self._task = _held(task)
        self._pending = collections.deque()

    def submit(self, meta, payload, context=None):
        self._pending.append((meta, payload, context))

    def __len__(self):
        return len(self._pending)

    def result(self):
        meta, payload, context = self._pending.popleft()
        try:
            return self._task(meta, payload), context
        except BaseException as e:
            raise _mark(e, context)

    def clear(self):
        self._pending.clear()

    def close(self):
        self.clear()


class ThreadBudget:
    """The worker threads of one pipeline run, shared by every node that runs work on threads:
    one executor budget per pipeline. Nodes reserve the workers they ask for while the run is
    built; the pool starts at the first task with the largest reservation, so a source, a map
    and a batch of 2 workers each run on 2 threads, not 6 (a node's ``num_parallel_workers``
    still bounds its own tasks in flight). Tasks never wait for other tasks, so sharing cannot
    deadlock. ``close()`` (the run's) waits for the running tasks."""

    def __init__(self, name="worker"):
        self.name = name
        self._size = 0
        self._pool = None
        self._closed = False
        self._lock = threading.Lock()

    def reserve(self, workers):
        self._size = max(self._size, workers)

    @property
    def size(self):
        return self._size

    def submit(self, fn, *args):
        pool = self._pool
        if pool is None:
            with self._lock:
                if self._closed:
                    raise RuntimeError("minddata: the pipeline's worker threads were closed")
                if self._pool is None:
                    self._pool = concurrent.futures.ThreadPoolExecutor(
                        max(1, self._size), thread_name_prefix=f"minddata-{self.name}")
                pool = self._pool
        return pool.submit(fn, *args)

    def close(self):
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


class ThreadExecutor:
    """Worker threads (numpy, OpenCV and the native kernels release the GIL): the pipeline's
    shared ``budget`` (ThreadBudget), or a pool of its own without one."""

    def __init__(self, num_workers, task, name, budget=None):
        self.num_workers = num_workers
        self._task = _held(task)
        self._own = budget is None
        if budget is None:
            budget = ThreadBudget(name)
        budget.reserve(num_workers)
        self._budget = budget
        self._pending = collections.deque()

    def submit(self, meta, payload, context=None):
        self._pending.append((self._budget.submit(_strong(self._task), meta, payload), context))

    def __len__(self):
        return len(self._pending)

    def result(self):
        future, context = self._pending.popleft()
        try:
            return future.result(), context
        except BaseException as e:
            raise _mark(e, context)

    def clear(self):
        """Drop pending tasks (cancel those not started, wait for running ones)."""
        while self._pending:
            future, _ = self._pending.popleft()
            if not future.cancel():
                try:
                    future.result()
                except BaseException:  # a dropped task's failure is not the caller's concern
                    pass

    def close(self):
        self.clear()
        if self._own:
            self._budget.close()


def make_executor(num_workers, task, name, processes=False, budget=None, **process_options):
    """The executor for a node: inline for one worker, else threads (from the pipeline's
    ``budget``, a ThreadBudget, when given), or forked worker processes (``processes=True``;
    ``process_options`` go to engine.procs.ProcessPool)."""
    if processes:
        from .procs import ProcessPool
        return ProcessPool(num_workers, task, name=name, **process_options)
    if num_workers <= 1:
        return InlineExecutor(task)
    return ThreadExecutor(num_workers, task, name, budget)
