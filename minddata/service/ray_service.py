"""``RayService``: where and how wide the shipped part of a pipeline runs."""
import os
import threading

_DEFAULT_PIECE_ITEMS = 4
_KEEP_STATS = 16


def _node_of_this_process(ray):
    """The Ray node the trainer runs on (None through Ray Client: no node is local)."""
    try:
        return ray.get_runtime_context().get_node_id()
    except Exception:
        return None


def _check_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be of type int, but got {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} {value} must be >= {low}")


class RayService:
    """Run a pipeline's source, maps and batches in ``num_workers`` Ray actors.

    ``address``: the cluster (``"127.0.0.1:6379"``, ``"auto"``, ``"ray://host:10001"``); None
    joins ``RAY_ADDRESS`` when set, else starts a local Ray instance on loopback. Each actor
    reserves ``worker_cpus`` CPUs; the actors start with the first iterator and serve every
    iterator of this service until ``close()``. An epoch is cut into pieces of ``piece_items`` items
    (batches, or rows without a batch), handed to whichever actor is free; an actor holds at
    most ``pieces_per_worker`` pieces at a time. Pass it as ``service=`` to
    ``create_tuple_iterator`` / ``create_dict_iterator``; ``stats()`` reports every actor's
    throughput and the trainer's queue depth. ``finish_on_trainer``: when the shipped batches
    end in Normalize / Rescale / HWC2CHW of one image column, the actors of other nodes stop
    before them and the trainer applies them (one native pass per image, GIL released; the
    same values), so a batch crosses object stores as uint8, a quarter of its float32 size;
    actors on the trainer's node (whose batches are not copied) finish their batches themselves.
    """

    def __init__(self, address=None, num_workers=2, piece_items=_DEFAULT_PIECE_ITEMS,
                 pieces_per_worker=2, worker_cpus=1, max_restarts=None, finish_on_trainer=True):
        if address is not None and not isinstance(address, str):
            raise TypeError(f"address must be of type str, but got {type(address).__name__}")
        _check_int("num_workers", num_workers, 1)
        _check_int("piece_items", piece_items, 1)
        _check_int("pieces_per_worker", pieces_per_worker, 1)
        if isinstance(worker_cpus, bool) or not isinstance(worker_cpus, (int, float)):
            raise TypeError(f"worker_cpus must be a number, but got {type(worker_cpus).__name__}")
        if worker_cpus < 0:
            raise ValueError(f"worker_cpus {worker_cpus} must be >= 0")
        if max_restarts is not None:
            _check_int("max_restarts", max_restarts, 0)
        if not isinstance(finish_on_trainer, bool):
            raise TypeError(f"finish_on_trainer must be of type bool, but got "
                            f"{type(finish_on_trainer).__name__}")
        self.address = address
        self.num_workers = num_workers
        self.piece_items = piece_items
        self.pieces_per_worker = pieces_per_worker
        self.worker_cpus = worker_cpus
        self.max_restarts = max_restarts
        self.finish_on_trainer = finish_on_trainer
        self._lock = threading.Lock()
        self._schedulers = []
        self._pool = None
        self._started_ray = False

    # -- used by the iterator ----------------------------------------------------------------
    def ship(self, dataset):
        """The graph the trainer runs: ``dataset`` with its source chain replaced by a node
        that receives the chain's items from the actors (ValueError when nothing can be
        shipped)."""
        from .remote_stage import split_for_service
        return split_for_service(dataset, self)

    def open_scheduler(self, shipped, tail=None):
        """A scheduler handing pieces of the shipped chain ``shipped`` to the actors; ``tail``
        (a DeviceTail) finishes its items (see scheduler.py)."""
        from .scheduler import PieceScheduler
        ray = self._connect()
        with self._lock:
            if self._pool is None:
                from .pool import ActorPool
                from .worker import PieceWorker
                actor_cls = ray.remote(num_cpus=self.worker_cpus, max_restarts=0)(PieceWorker)
                restarts = 4 * self.num_workers if self.max_restarts is None else \
                    self.max_restarts
                self._pool = ActorPool(ray, actor_cls, self.num_workers, restarts)
            sched = PieceScheduler(ray, self._pool, ray.put(shipped), self.piece_items,
                                   self.pieces_per_worker, tail=tail,
                                   trainer_node=_node_of_this_process(ray))
            # Closed iterators' figures stay visible in stats() (the last few).
            self._schedulers = self._schedulers[-(_KEEP_STATS - 1):] + [sched]
        return sched

    def _connect(self):
        try:
            import ray
        except ImportError:
            raise ImportError("RayService needs the ray package: pip install 'ray>=2.9'") \
                from None
        with self._lock:
            if not ray.is_initialized():
                # Actors must import this package even where it is not installed.
                root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
                    __file__))))
                path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
                kwargs = {"address": self.address, "log_to_driver": False,
                          "configure_logging": False,
                          "runtime_env": {"env_vars": {"PYTHONPATH": path}}}
                if self.address is None and not os.environ.get("RAY_ADDRESS"):
                    # A new local instance ("local": not a cluster that a `ray start` on this
                    # machine recorded in /tmp/ray, which may be gone), on loopback only.
                    kwargs.update(address="local", _node_ip_address="127.0.0.1",
                                  include_dashboard=False)
                    self._started_ray = True
                ray.init(**kwargs)
        return ray

    # -- observability / shutdown ------------------------------------------------------------
    def stats(self):
        """Per actor: node, pid, pieces, items, busy seconds and items/s; and the trainer's
        queue depth (finished items not yet taken): now, and on average over the items taken,
        over this service's last iterators."""
        with self._lock:
            scheds = list(self._schedulers)
            pool = self._pool
        out = {"workers": [], "queue_depth": 0, "queue_depth_mean": 0.0, "pieces_redone": 0,
               "actors_replaced": pool.replaced if pool is not None else 0}
        depth_sum = depth_samples = 0
        for s in scheds:
            st = s.stats()
            out["workers"].extend(st["workers"])
            out["queue_depth"] += st["queue_depth"]
            out["pieces_redone"] += st["pieces_redone"]
            depth_sum += st["depth_sum"]
            depth_samples += st["depth_samples"]
        if depth_samples:
            out["queue_depth_mean"] = round(depth_sum / depth_samples, 2)
        return out

    def format_stats(self):
        """stats() as a small text table (what Dataset.profile prints beside the stages)."""
        st = self.stats()
        lines = [f"RayService: trainer queue depth {st['queue_depth_mean']:.1f} items on "
                 f"average ({st['queue_depth']} now), pieces redone {st['pieces_redone']}, "
                 f"actors replaced {st['actors_replaced']}",
                 f"{'worker':>6} {'alive':>5} {'pid':>8} {'pieces':>6} {'items':>7} "
                 f"{'busy_s':>8} {'items/s':>8}"]
        for w in st["workers"]:
            lines.append(f"{w['worker']:>6} {str(w['alive']):>5} {str(w['pid']):>8} "
                         f"{w['pieces']:>6} {w['items']:>7} {w['busy_s']:>8.2f} "
                         f"{w['items_per_s']:>8.1f}")
        return "\n".join(lines)

    def close(self):
        """Stop every actor of this service (and the Ray instance it started, if any)."""
        with self._lock:
            scheds, self._schedulers = self._schedulers, []
            pool, self._pool = self._pool, None
        for s in scheds:
            s.close()
        if pool is not None:
            pool.close()
        if self._started_ray:
            import ray
            ray.shutdown()
            self._started_ray = False

    def __repr__(self):
        return (f"RayService(address={self.address!r}, num_workers={self.num_workers}, "
                f"piece_items={self.piece_items})")
