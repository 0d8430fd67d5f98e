"""The ordered submit-ahead loop every parallel node runs, written once: keep up to ``depth``
tasks in flight on the node's executor, take their results in submission order."""


class OrderedStage:
    def __init__(self, executor, depth):
        self.executor = executor
        self.depth = depth

    def __len__(self):
        return len(self.executor)

    def take(self, next_task):
        """Submits the tasks ``next_task()`` gives ((meta, payload, context), or None when it
        has no more for now) until ``depth`` are in flight, then returns the oldest one's
        (value, context), or None when none is in flight. A task's exception is raised here."""
        executor = self.executor
        while len(executor) < self.depth:
            task = next_task()
            if task is None:
                break
            executor.submit(*task)
        if not len(executor):
            return None
        return executor.result()
