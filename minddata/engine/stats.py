"""Per-stage statistics kept by every iterator node (read by the profiler in minddata.bench)."""


class StageStats:
    """Counters of one iterator node.

    ``busy_s`` is the time the node spent producing its output, excluding the time it waited
    on its child (``wait_s``). Stages with a queue also sample its occupancy each time a row
    leaves it, so ``queue_occupancy_sum / queue_samples`` is the mean fill level. A stage that
    decodes on a device adds the device's decode time to ``device_busy_s`` (None elsewhere).
    """

    __slots__ = ("name", "rows_out", "busy_s", "wait_s", "queue_capacity",
                 "queue_occupancy_sum", "queue_samples", "num_workers", "device_busy_s")

    def __init__(self, name, queue_capacity=None, num_workers=1):
        self.name = name
        self.rows_out = 0
        self.busy_s = 0.0
        self.wait_s = 0.0
        self.queue_capacity = queue_capacity
        self.queue_occupancy_sum = 0
        self.queue_samples = 0
        self.num_workers = num_workers
        self.device_busy_s = None

    def sample_queue(self, occupancy):
        self.queue_occupancy_sum += occupancy
        self.queue_samples += 1

    def mean_queue_occupancy(self):
        return self.queue_occupancy_sum / self.queue_samples if self.queue_samples else 0.0

    def as_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def __repr__(self):
        return (f"StageStats({self.name!r}, rows_out={self.rows_out}, busy_s={self.busy_s:.4f}, "
                f"wait_s={self.wait_s:.4f}, queue={self.queue_capacity})")
