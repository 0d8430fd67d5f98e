"""`mindspore.profiler.Profiler` over this project's step tracer (training.profiling): between
`start()` (at construction by default) and `stop()`, `Model` records its data-wait, step,
forward/backward and update spans; `analyse()` writes them as a Chrome trace,
<output_path>/profiler/trace_view.json (open it in Perfetto). MindSpore's operator-level, memory
and hardware counters have no equivalent here; options asking for them are refused."""
import os

from training import profiling

_UNSUPPORTED = ("profile_memory", "profile_communication", "aicore_metrics", "l2_cache",
                "hbm_ddr", "pcie", "data_simplification", "with_stack", "mstx")


class Profiler:
    def __init__(self, output_path="./data", start_profile=True, **kwargs):
        if not isinstance(output_path, str) or not output_path:
            raise TypeError(f"For 'Profiler', 'output_path' must be a non-empty str, but got "
                            f"{output_path!r}")
        if not isinstance(start_profile, bool):
            raise TypeError(f"For 'Profiler', 'start_profile' must be a bool, got {start_profile!r}")
        asked = sorted(k for k, v in kwargs.items() if k in _UNSUPPORTED and v)
        if asked:
            raise ValueError(f"For 'Profiler', {asked} are not provided: this profiler records "
                             f"step-level spans only (data wait, forward/backward, update)")
        self.output_path = os.path.join(os.path.abspath(output_path), "profiler")
        self._recorder = None
        self._trace = None
        if start_profile:
            self.start()

    def start(self):
        if self._recorder is not None:
            raise RuntimeError("For 'Profiler.start', the profiler is already running")
        self._recorder = profiling.start(self.output_path)

    def stop(self):
        if self._recorder is None:
            raise RuntimeError("For 'Profiler.stop', the profiler is not running; call start() "
                               "first")
        self._trace = profiling.stop(self._recorder)
        self._recorder = None

    def analyse(self, offline_path=None, pretty=False, step_list=None, mode="sync"):
        """Stop recording if needed and write the trace; returns its path."""
        if self._recorder is not None:
            self.stop()
        if self._trace is None:
            raise RuntimeError("For 'Profiler.analyse', nothing was recorded; call start() first")
        return self._trace
