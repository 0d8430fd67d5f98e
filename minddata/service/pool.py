"""The service's Ray actors, shared by all its iterators (an actor starts in seconds: a run
of several iterators, a resume, every rank of a job in one process, reuse them)."""
import threading


class ActorPool:
    def __init__(self, ray, actor_cls, size, max_restarts):
        self._ray = ray
        self._actor_cls = actor_cls
        self._lock = threading.Lock()
        self._restarts_left = max_restarts
        self._replacement = {}        # dead actor -> the actor that took its place
        self.replaced = 0
        self.actors = [actor_cls.remote() for _ in range(size)]

    def replace(self, actor):
        """The actor taking the place of dead ``actor`` (one replacement, whoever asks)."""
        with self._lock:
            if actor in self._replacement:
                return self._replacement[actor]
            try:
                self._ray.kill(actor, no_restart=True)
            except Exception:
                pass     # already gone with its node
            if self._restarts_left <= 0:
                raise RuntimeError("RayService: too many pipeline actors died; giving up (see "
                                   "the Ray logs for why they died)")
            self._restarts_left -= 1
            self.replaced += 1
            new = self._actor_cls.remote()
            self._replacement[actor] = new
            self.actors = [new if a is actor else a for a in self.actors]
            return new

    def close(self):
        with self._lock:
            actors, self.actors = self.actors, []
        for a in actors:
            try:
                self._ray.kill(a, no_restart=True)
            except Exception:
                pass     # its node is gone
