"""`Model`: train / eval / predict / fit with MindSpore's callback events and step accounting.

Non-sink mode: one callback step per batch. Sink mode: batches are prefetched by the sink thread
(sink.py) and `sink_size` of them (the dataset size when -1) run as one callback step; an "epoch"
is then one such chunk, as in MindSpore. `cb_params.cur_step_num` counts batches in both modes."""
import logging
import math
import time

from training import context, dump, graph_text, profiling
from training.backends.base import select_backend
from training.callbacks.callback import CallbackList, CallbackParams, RunContext
from training.amp import AMP_LEVELS, LossScaleManager
from training.metrics import Loss, get_metrics
from training.sink import InlineFeeder, SinkFeeder, TrainStats, init_step_of

logger = logging.getLogger("training.model")


def _check_int(value, name, minimum):
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"For 'Model', '{name}' must be an int >= {minimum}, but got {value!r}")


def _check_dataset(dataset, name):
    for method in ("create_tuple_iterator", "get_dataset_size"):
        if not callable(getattr(dataset, method, None)):
            raise TypeError(f"For 'Model', '{name}' must be a dataset (with {method}()), but got "
                            f"{type(dataset).__name__}")
    size = dataset.get_dataset_size()
    if not isinstance(size, int) or size <= 0:
        raise ValueError(f"For 'Model', '{name}' is empty (get_dataset_size() returned {size!r})")
    return size


def _dataset_debug_mode():
    """Whether minddata's pipeline debug mode is on (False when minddata is not importable)."""
    try:
        from minddata import config
    except Exception:  # minddata absent or not built: training still runs
        return False
    return config.get_debug_mode()


class Model:
    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs):
        if amp_level not in AMP_LEVELS:
            raise ValueError(f"For 'Model', 'amp_level' must be one of {AMP_LEVELS}, but got "
                             f"{amp_level!r}")
        loss_scale_manager = kwargs.pop("loss_scale_manager", None)
        if loss_scale_manager is not None and not isinstance(loss_scale_manager, LossScaleManager):
            raise TypeError(f"For 'Model', 'loss_scale_manager' must be a LossScaleManager, but "
                            f"got {type(loss_scale_manager).__name__}")
        kwargs.pop("keep_batchnorm_fp32", None)  # torch's autocast keeps BatchNorm in float32
        kwargs.pop("boost_config_dict", None)  # boost_level is 'O0': nothing to configure
        if kwargs:
            raise ValueError(f"For 'Model', the keyword arguments {sorted(kwargs)} are not "
                             f"recognized")
        if boost_level != "O0":
            raise ValueError(f"For 'Model', only boost_level 'O0' is supported, got {boost_level!r}")
        if eval_indexes is not None and (not isinstance(eval_indexes, list) or len(eval_indexes) != 3):
            raise ValueError("For 'Model', 'eval_indexes' must be a list of 3 ints or None")
        self._backend = select_backend(network)
        self._network = network
        self._loss_fn, self._optimizer = loss_fn, optimizer
        self._metric_fns = get_metrics(metrics)
        self._train_network = self._backend.build_train_network(
            network, loss_fn, optimizer, amp_level=amp_level, loss_scale_manager=loss_scale_manager)
        self._eval_network = self._backend.build_eval_network(network, loss_fn, eval_network)
        if eval_network is None and loss_fn is not None:
            eval_indexes = [0, 1, 2]
        self._eval_indexes = eval_indexes
        self._graph_saved = set()
        self.last_train_stats = {}

    # --- public properties (MindSpore's names) -------------------------------------------------
    @property
    def train_network(self):
        return self._train_network

    @property
    def predict_network(self):
        return self._network

    @property
    def eval_network(self):
        return self._eval_network

    # --- training ------------------------------------------------------------------------------
    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1,
              initial_epoch=0):
        if dataset_sink_mode is True and _dataset_debug_mode():
            # MindSpore 2.10's refusal (Model.train only; fit does not check it), measured
            raise ValueError("Dataset sink mode is not supported when dataset pipeline debug mode "
                             "is on. Please manually turn off sink mode.")
        self._run_train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                        initial_epoch, valid=None)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', 'metrics' must be set to evaluate 'valid_dataset'")
        if not isinstance(valid_frequency, (int, list)):
            raise TypeError("For 'Model.fit', 'valid_frequency' must be an int or a list of epochs")
        valid = None
        if valid_dataset is not None:
            valid = (valid_dataset, valid_frequency, valid_dataset_sink_mode)
        self._run_train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                        initial_epoch, valid=valid)

    def _run_train(self, epoch, dataset, callbacks, sink, sink_size, initial_epoch, valid):
        _check_int(epoch, "epoch", 1)
        _check_int(initial_epoch, "initial_epoch", 0)
        if initial_epoch >= epoch:
            raise ValueError(f"For 'Model.train', 'initial_epoch' ({initial_epoch}) must be less than "
                             f"'epoch' ({epoch})")
        if not isinstance(sink_size, int) or isinstance(sink_size, bool) \
                or (sink_size != -1 and sink_size <= 0):
            raise ValueError(f"For 'Model.train', 'sink_size' must be -1 or a positive int, but got "
                             f"{sink_size!r}")
        if not isinstance(sink, bool):
            raise TypeError(f"For 'Model.train', 'dataset_sink_mode' must be a bool, got {sink!r}")
        if self._train_network is None:
            raise RuntimeError("For 'Model.train', the model has no optimizer: pass 'optimizer' "
                               "(with 'loss_fn'), or a training cell with neither")
        dataset_size = _check_dataset(dataset, "train_dataset")
        self._col_names = dataset.get_col_names() if hasattr(dataset, "get_col_names") else None
        steps_per_epoch = sink_size if (sink and sink_size > 0) else dataset_size
        # As MindSpore's, the iterator is made for the whole run from epoch 0, `epoch` epochs
        # (of sink_size steps in sink mode): a dataset's init step (set_init_step, say
        # initial_epoch * dataset_size to resume) then starts it at that step, and the epochs
        # from initial_epoch on are what is left of it. Without an init step the training
        # epochs from initial_epoch on read the data from its start (MindSpore's too).
        data_epochs = math.ceil(epoch * steps_per_epoch / dataset_size) if sink else epoch
        _check_init_step(dataset, dataset_size, data_epochs, steps_per_epoch if sink else None,
                         initial_epoch, epoch)

        cb = CallbackParams(
            train_network=self._train_network, network=self._network, loss_fn=self._loss_fn,
            optimizer=self._optimizer, train_dataset=dataset, epoch_num=epoch,
            batch_num=steps_per_epoch, cur_epoch_num=initial_epoch,
            cur_step_num=initial_epoch * steps_per_epoch, dataset_sink_mode=sink,
            sink_size=sink_size, net_outputs=None, mode="train", backend=self._backend,
            parallel_mode=context.get_auto_parallel_context("parallel_mode"),
            device_number=context.get_auto_parallel_context("device_num"),
            data_wait_time=0.0, epoch_data_wait_time=0.0, epoch_steps=0,
            train_dataset_element=None, eval_results=None)
        run_context = RunContext(cb)
        cbs = CallbackList(callbacks)
        cb.list_callback = cbs
        backend = self._backend
        feeder_cls = SinkFeeder if sink else InlineFeeder
        recorder = profiling.start_from_context()
        stats = TrainStats(backend, sink)
        cb.device_timing = stats.device_timing
        backend.set_train(self._train_network, True)
        feeder = None
        try:
            feed, convert = backend.sink_input(dataset) if sink else (dataset, backend.to_device)
            with cbs, backend.compute_scope(), \
                    feeder_cls(feed, data_epochs, convert) as feeder:
                cbs.on_train_begin(run_context)
                for i in range(initial_epoch, epoch):
                    cb.cur_epoch_num = i + 1
                    cb.epoch_data_wait_time = 0.0
                    cb.epoch_steps = 0
                    cbs.on_train_epoch_begin(run_context)
                    if sink:
                        exhausted = self._sink_chunk(cb, cbs, run_context, feeder, steps_per_epoch,
                                                     stats)
                    else:
                        exhausted = self._epoch_steps(cb, cbs, run_context, feeder, stats)
                    if valid is not None:
                        self._eval_in_fit(cb, cbs, valid, i + 1, epoch)
                    cb.epoch_host_step_time, cb.epoch_device_step_time, _ = stats.end_epoch()
                    cbs.on_train_epoch_end(run_context)
                    if run_context.get_stop_requested() or exhausted:
                        break
                cbs.on_train_end(run_context)
        finally:
            backend.set_train(self._train_network, False)
            if feeder is not None:  # closed by now: the pipeline's figures are in
                stats.device_decode_s = feeder.figures.get("device_decode_s")
            self.last_train_stats = stats.as_dict()
            trace = profiling.stop(recorder)
            if trace:
                logger.info("profiling trace written to %s", trace)

    def _run_step(self, batch, step_index):
        dump.set_iteration(step_index)
        tag = "train"
        if context.get_context("save_graphs") and tag not in self._graph_saved:
            self._graph_saved.add(tag)
            return self._step_recording_graph(batch, tag)
        with profiling.span("step"):
            try:
                return self._backend.train_step(self._train_network, batch)
            except TypeError as exc:
                mismatch = self._column_mismatch(batch)
                if mismatch:
                    raise TypeError(mismatch) from exc
                raise

    def _column_mismatch(self, batch):
        """Text explaining a dataset/network arity mismatch, or None if the counts agree."""
        import inspect
        target = self._backend.checkpoint_object(self._train_network)  # the cell a step runs
        while getattr(target, "network", None) is not None and target.network is not target:
            target = target.network  # TrainOneStepCell -> the network it differentiates
        fn = getattr(target, "construct", None)  # numpy cells; torch reports its own arity
        if fn is None:
            return None
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            return None
        if any(p.kind == p.VAR_POSITIONAL for p in params):
            return None
        required = [p for p in params if p.default is p.empty and p.kind == p.POSITIONAL_OR_KEYWORD]
        if len(required) <= len(batch) <= len(params):
            return None
        names = self.__dict__.get("_col_names") or [f"column {i}" for i in range(len(batch))]
        return (f"For 'Model.train', the training network {type(target).__name__} takes "
                f"{len(required)} input(s) ({', '.join(p.name for p in required)}) but the dataset "
                f"gives {len(batch)} column(s) ({', '.join(names)})")

    def _step_recording_graph(self, batch, tag):
        directory = context.get_context("save_graphs_path")
        if hasattr(self._network, "cells_and_names"):
            with graph_text.GraphRecorder(self._network) as recorder:
                out = self._backend.train_step(self._train_network, batch)
            recorder.write(directory, tag)
            return out
        graph_text.write_torch_graph(self._network, directory, tag)
        return self._backend.train_step(self._train_network, batch)

    def _fetch(self, cb, feeder, stats):
        start = time.perf_counter()
        item = feeder.next()
        if item is None:
            return None
        _, batch, wait = item
        self._record_data_wait(cb, stats, start, wait)
        return batch

    @staticmethod
    def _record_data_wait(cb, stats, start, wait):
        """Account ``wait`` seconds spent waiting for a batch (fetch begun at ``start``): the
        profiler's trace, the callbacks' data_wait_time and the run's statistics."""
        profiling.add("data_wait", start, start + wait, "data")
        cb.data_wait_time = wait
        cb.epoch_data_wait_time += wait
        stats.add_data_wait(wait)

    def _epoch_steps(self, cb, cbs, run_context, feeder, stats):
        """One non-sink epoch: a callback step per batch, until the data epoch changes.
        True if the data ran out."""
        data_epoch = None
        while True:
            start = time.perf_counter()
            item = feeder.next()
            if item is None:
                return data_epoch is None
            epoch_of_batch, batch, wait = item
            if data_epoch is None:
                data_epoch = epoch_of_batch
            elif epoch_of_batch != data_epoch:
                feeder.push_back(item)  # first batch of the next epoch
                return False
            self._record_data_wait(cb, stats, start, wait)
            cb.cur_step_num += 1
            cb.epoch_steps += 1
            cb.train_dataset_element = batch
            cbs.on_train_step_begin(run_context)
            with stats.step():
                cb.net_outputs = self._run_step(batch, cb.cur_step_num - 1)
            cbs.on_train_step_end(run_context)
            if run_context.get_stop_requested():
                return False
            if cb.epoch_steps == cb.batch_num:
                # A full epoch: its end is known without reading the next epoch's first batch
                # (which a dataset WaitedDSCallback holds back until this epoch has ended).
                return False

    def _sink_chunk(self, cb, cbs, run_context, feeder, steps, stats):
        """One sink chunk of `steps` batches as one callback step. True if the data ran out."""
        cbs.on_train_step_begin(run_context)
        done, outputs, exhausted = 0, None, False
        for _ in range(steps):
            batch = self._fetch(cb, feeder, stats)
            if batch is None:
                exhausted = True
                break
            with stats.step():
                outputs = self._run_step(batch, cb.cur_step_num + done)
            done += 1
            cb.train_dataset_element = batch
        self._backend.synchronize()
        cb.cur_step_num += done
        cb.epoch_steps = done
        if done:
            cb.net_outputs = outputs
            cbs.on_train_step_end(run_context)
        return exhausted

    def _eval_in_fit(self, cb, cbs, valid, epoch_number, last_epoch):
        """Model.fit's evaluation: the same callbacks receive the on_eval_* events (as in
        MindSpore), and the results land in cb_params.eval_results before on_train_epoch_end."""
        dataset, frequency, sink = valid
        due = (epoch_number in frequency) if isinstance(frequency, list) else \
            (epoch_number % frequency == 0 or epoch_number == last_epoch)
        if due:
            cb.eval_results = self._eval_run(dataset, cbs, sink)
            self._backend.set_train(self._train_network, True)

    # --- evaluation ------------------------------------------------------------------------------
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        cbs = CallbackList(callbacks)
        with cbs:
            return self._eval_run(valid_dataset, cbs, dataset_sink_mode)

    def _eval_run(self, valid_dataset, cbs, dataset_sink_mode):
        """One evaluation pass, firing on_eval_* on `cbs` (already entered as context)."""
        if not self._metric_fns:
            raise ValueError("For 'Model.eval', the model argument 'metrics' can not be None or "
                             "empty; pass metrics to Model(...)")
        if self._eval_network is None:
            raise ValueError("For 'Model.eval', there is no evaluation network: pass 'loss_fn' or "
                             "'eval_network' to Model(...)")
        dataset_size = _check_dataset(valid_dataset, "valid_dataset")
        for metric in self._metric_fns.values():
            metric.clear()
        cb = CallbackParams(eval_network=self._eval_network, network=self._network,
                            valid_dataset=valid_dataset, batch_num=dataset_size, cur_epoch_num=0,
                            cur_step_num=0, epoch_num=1, net_outputs=None, mode="eval",
                            dataset_sink_mode=dataset_sink_mode, metrics=None,
                            backend=self._backend)
        run_context = RunContext(cb)
        feeder_cls = SinkFeeder if dataset_sink_mode else InlineFeeder
        self._backend.set_train(self._eval_network, False)
        with self._backend.compute_scope(), \
                feeder_cls(valid_dataset, 1, self._backend.to_device) as feeder:
            cbs.on_eval_begin(run_context)
            cb.cur_epoch_num = 1
            cbs.on_eval_epoch_begin(run_context)
            while True:
                item = feeder.next()
                if item is None:
                    break
                batch = item[1]
                cb.cur_step_num += 1
                cbs.on_eval_step_begin(run_context)
                outputs = self._backend.eval_step(self._eval_network, batch)
                cb.net_outputs = outputs
                self._update_metrics(outputs)
                cbs.on_eval_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            cbs.on_eval_epoch_end(run_context)
            results = {name: metric.eval() for name, metric in self._metric_fns.items()}
            cb.metrics = results
            cbs.on_eval_end(run_context)
        return results

    def _update_metrics(self, outputs):
        if not isinstance(outputs, (tuple, list)):
            outputs = (outputs,)
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    # --- prediction ------------------------------------------------------------------------------
    def predict(self, *predict_data, backend=None, config=None):
        if not predict_data:
            raise ValueError("For 'Model.predict', 'predict_data' must not be empty")
        self._backend.set_train(self._network, False)
        with self._backend.compute_scope():
            return self._backend.predict(self._network, predict_data)


def _check_init_step(dataset, dataset_size, data_epochs, sink_steps, initial_epoch, epoch):
    """Refuses, before any step, a dataset whose init step (``set_init_step``) leaves its
    iterator, made for the whole run (``data_epochs`` passes), too little data for epochs
    initial_epoch+1..epoch: fewer passes than those epochs, or in sink mode fewer steps than
    ``sink_steps`` each (MindSpore 2.10 raises its end-of-data error when the data runs out;
    here an epoch boundary could also end training early without a word). A step inside the
    epoch training resumes at resumes it part-way, as MindSpore does."""
    step = init_step_of(dataset)
    if not step:
        return
    epochs = epoch - initial_epoch
    if sink_steps is None:
        short = data_epochs - step // dataset_size < epochs
    else:
        short = data_epochs * dataset_size - step < epochs * sink_steps
    if short:
        per_epoch = sink_steps or dataset_size
        raise RuntimeError(
            f"For 'Model.train', the training dataset starts at its init step {step} "
            f"(set_init_step), which leaves its data too short for the {epochs} epochs "
            f"{initial_epoch + 1} to {epoch}: it would run out before the last one; to resume "
            f"at initial_epoch {initial_epoch}, set_init_step({initial_epoch * per_epoch})")
