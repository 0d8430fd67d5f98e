"""Dataset AutoTune (``ds.config.set_enable_autotune``) as this engine can honestly offer it.

MindSpore's AutoTune changes the workers and queue sizes of a running pipeline. This engine
sizes its threads itself (one thread budget per pipeline, engine/executor.py), so AutoTune here
changes nothing. What it does for each pipeline iterated while it is on:

- it samples every op's figures (workers, rows out, busy and waiting time, mean queue fill
  against its capacity) every ``get_autotune_interval()`` steps, or at each epoch's end when
  the interval is 0 (MindSpore's default), and when the run ends between two samples; it logs
  each sample at INFO level (``minddata`` logger), as MindSpore logs its tuning;
- when the run ends (last epoch read, iterator stopped or dropped) and a ``filepath_prefix`` was
  given, it writes ``<filepath_prefix>_<RANK_ID>.json``: ``"remark"`` (says that nothing was
  changed), ``"summary"`` (one line per op: the workers and queue capacity it ran with) and
  ``"tree"`` (the pipeline as ``ds.serialize`` gives it, so ``ds.deserialize`` loads the file
  back into the same pipeline). An existing file is overwritten, with MindSpore's warning.

As in MindSpore, a pipeline that Dataset Profiling watches is not tuned, nor one iterated while
another is being tuned (a warning says so).
"""
import json
import logging
import os
import weakref

from . import config
from .pipeline_watch import RunWatch, rank_id, warn

logger = logging.getLogger("minddata")

REMARK = ("Written by minddata's Dataset AutoTune. This engine sizes its workers itself and "
          "changed nothing: 'summary' lists the workers and queue capacity each op ran with, "
          "'tree' is the pipeline as ds.serialize gives it (ds.deserialize loads this file).")


# The watches of the runs being tuned now (a watch lives as long as its run).
_live = weakref.WeakSet()


def any_running():
    """Whether AutoTune watches a pipeline that is still running."""
    return any(w.running() for w in list(_live))


def config_path(prefix):
    """Where the tuned configuration of this rank goes: ``<prefix>_<RANK_ID>.json``."""
    return f"{prefix}_{rank_id()}.json"


def _profiling_claim(iterator):
    """'this' / 'other' when Dataset Profiling watches this / another pipeline, else None."""
    import sys
    profiling = sys.modules.get("minddata.profiling")
    return None if profiling is None else profiling.MANAGER.claim_of(iterator)


def watch(iterator):
    """Called by the iterator registry for each new iterator while AutoTune is on."""
    claim = _profiling_claim(iterator)
    if claim == "this":
        warn("Cannot enable AutoTune for the current data pipeline as Dataset Profiling is "
             "already enabled for the current data pipeline.")
        return
    if claim == "other":
        warn("Cannot enable AutoTune for the current data pipeline as Dataset Profiling is "
             "enabled for another data pipeline.")
        return
    if any_running():
        # As MindSpore: one pipeline at a time is tuned.
        warn("Cannot enable AutoTune for the current data pipeline as it is already enabled "
             "for another data pipeline.")
        return
    AutoTuneWatch(iterator, config._autotune_prefix(), config.get_autotune_interval())


class AutoTuneWatch(RunWatch):
    def __init__(self, iterator, prefix, interval):
        super().__init__(iterator)
        self.prefix = prefix
        self.interval = interval
        self.steps = 0
        self.samples = 0
        self._sampled_at = None     # the step of the last sample
        _live.add(self)

    def on_item(self, item, t_start, t_end):
        if item is None:
            if self.interval == 0:
                self.sample()
            return
        self.steps += 1
        if self.interval and self.steps % self.interval == 0:
            self.sample()

    def op_figures(self):
        """One dict per engine stage, source first."""
        return [{"op": st.name, "num_workers": st.num_workers, "rows_out": st.rows_out,
                 "busy_s": round(st.busy_s, 6), "wait_s": round(st.wait_s, 6),
                 "queue_capacity": st.queue_capacity,
                 "queue_mean_fill": round(st.mean_queue_occupancy(), 3)}
                for st in self.stage_stats]

    def sample(self):
        self._sampled_at = self.steps
        self.samples += 1
        logger.info("AutoTune sample %d at step %d (nothing changed): %s", self.samples,
                    self.steps, self.op_figures())

    def summary(self):
        """MindSpore's summary lines, ``<Op>(ID:<n>) (num_parallel_workers: w,
        prefetch_size: q)``, root first; q is the stage's queue capacity, 0 where the stage
        hands its rows on without a queue of its own."""
        stages = list(reversed(self.stage_stats))
        return [f"{st.name}(ID:{i}) (num_parallel_workers: {st.num_workers}, "
                f"prefetch_size: {st.queue_capacity or 0})" for i, st in enumerate(stages)]

    def on_close(self):
        if self._sampled_at != self.steps:      # the run ended between two samples
            self.sample()
        if not self.prefix:
            return
        from .serialization import serialize
        path = config_path(self.prefix)
        content = {"remark": REMARK, "summary": self.summary(),
                   "tree": serialize(self.dataset)}
        if os.path.exists(path):
            warn(f"File: <{path}> already exists. File will be overwritten with the AutoTuned "
                 f"data.")
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(content, f, indent=4)
        except OSError as exc:
            # The run is closing (possibly in the garbage collector): report, do not raise.
            warn(f"AutoTune could not write its configuration to <{path}>: {exc}")

