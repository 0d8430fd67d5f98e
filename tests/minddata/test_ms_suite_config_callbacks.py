"""Config, debug hooks and dataset callbacks as MindSpore 2.10's dataset suite checks them
(test_config.py, test_callbacks.py): defaults, the words of its errors, when callbacks run."""
import numpy as np
import pytest

import minddata as ds
from minddata import config
from minddata.callback import DSCallback, WaitedDSCallback
from minddata import vision
from minddata.debug import DebugHook, PrintDataHook, PrintMetaDataHook

from .engine_helpers import numbers
from .test_sources_helpers import make_mnist_dir


# -- config ---------------------------------------------------------------------------------
@pytest.mark.parametrize("setter, words", [
    (config.set_seed, "seed isn't of type int"),
    (config.set_prefetch_size, "size isn't of type int"),
    (config.set_num_parallel_workers, "num isn't of type int"),
    (config.set_monitor_sampling_interval, "interval isn't of type int"),
    (config.set_callback_timeout, "timeout isn't of type int"),
    (config.set_autotune_interval, "interval must be of type int"),
    (config.set_sending_batches, "batch_num must be an int dtype"),
    (config.set_multiprocessing_timeout_interval, "interval isn't of type int"),
])
def test_int_settings_refuse_a_bool_in_mindspores_words(setter, words):
    # measured in MindSpore 2.10: TypeError with these words for True
    with pytest.raises(TypeError, match=words):
        setter(True)


@pytest.mark.parametrize("setter, value, words", [
    (config.set_monitor_sampling_interval, 0,
     r"Interval given is not within the required range \(0, INT32_MAX\(2147483647\)\]"),
    (config.set_callback_timeout, 0, "Timeout given is not within the required range"),
    (config.set_autotune_interval, -1,
     r"Interval given is not within the required range \[0, INT32_MAX\(2147483647\)\]"),
    (config.set_multiprocessing_timeout_interval, 0,
     r"Interval given is not within the required range \(0, INT32_MAX\(2147483647\)\)"),
])
def test_int_settings_out_of_range_in_mindspores_words(setter, value, words):
    # measured in MindSpore 2.10
    with pytest.raises(ValueError, match=words):
        setter(value)


def test_debug_mode_arguments_are_checked_as_mindspore_checks_them():
    # measured in MindSpore 2.10: these TypeErrors and words
    for flag in (0, "True", (True,), None):
        with pytest.raises(TypeError, match="debug_mode_flag isn't of type boolean."):
            config.set_debug_mode(flag)
    with pytest.raises(TypeError, match="debug_hook_list is not a list"):
        config.set_debug_mode(True, PrintDataHook())
    with pytest.raises(TypeError, match="All items in debug_hook_list must be of type DebugHook"):
        config.set_debug_mode(True, [lambda *a: a])
    with pytest.raises(TypeError, match=r"set_debug_mode\(\) missing 1 required positional "
                                        r"argument: 'debug_mode_flag'"):
        config.set_debug_mode()  # pylint: disable=no-value-for-parameter


def test_debug_mode_default_hook_prints_each_ops_columns(capsys):
    # measured in MindSpore 2.10: without hooks, PrintMetaDataHook prints the first op's input
    # and every op's output, one line per column
    config.set_debug_mode(True)
    try:
        rows = list(numbers(1).map(lambda x: x + np.zeros((2,), np.int64), "x")
                    .create_tuple_iterator(num_epochs=1))
    finally:
        config.set_debug_mode(False)
    assert len(rows) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["[Dataset debugger] Print the [INPUT] of the operation [<lambda>].",
                   "Column 0. The dtype is [int64]. The shape is [()].",
                   "[Dataset debugger] Print the [OUTPUT] of the operation [<lambda>].",
                   "Column 0. The dtype is [int64]. The shape is [(2,)]."]
    assert isinstance(config._debug_hooks()[0], PrintMetaDataHook)


def test_a_debug_hook_must_override_compute():
    # measured in MindSpore 2.10: DebugHook is abstract
    with pytest.raises(TypeError):
        DebugHook()  # pylint: disable=abstract-class-instantiated


def test_error_samples_mode_refusal_names_the_enum():
    # measured in MindSpore 2.10: "... is not of type [<enum 'ErrorSamplesMode'>] ..."
    for value in (False, 1, "Zero", (1,), None):
        with pytest.raises(TypeError, match=r"is not of type \[<enum 'ErrorSamplesMode'>\]"):
            config.set_error_samples_mode(value)


def test_start_method_of_another_type_is_a_type_error():
    # measured in MindSpore 2.10
    with pytest.raises(TypeError, match=r"Argument start_method with value 1 is not of type "
                                        r"\[<class 'str'>\]"):
        config.set_multiprocessing_start_method(1)


# -- callbacks ------------------------------------------------------------------------------
class _Flag(DSCallback):
    def __init__(self):
        super().__init__(1)
        self.begun = False
        self.steps = 0

    def ds_begin(self, ds_run_context):
        self.begun = True

    def ds_step_begin(self, ds_run_context):
        self.steps += 1


def test_getters_do_not_run_the_callbacks():
    # measured in MindSpore 2.10: size, shapes, types and names leave the callbacks alone
    cb = _Flag()
    data = ds.NumpySlicesDataset([1, 2, 3, 4], shuffle=False).map(lambda x: x, callbacks=cb)
    assert data.get_dataset_size() == 4
    assert data.output_shapes() == [[]]
    assert [str(t) for t in data.output_types()] == ["int64"]
    assert data.get_col_names() == ["column_0"]
    assert not cb.begun and cb.steps == 0
    assert len(list(data.create_dict_iterator(num_epochs=1))) == 4
    assert cb.begun and cb.steps == 4


class _Events(DSCallback):
    def __init__(self, events, name=""):
        super().__init__(1)
        self.events, self.name = events, name

    def _add(self, what, c):
        self.events.append(f"{self.name}{what}_{c.cur_epoch_num}_{c.cur_step_num_in_epoch}_"
                           f"{c.cur_step_num}")

    def ds_epoch_begin(self, ds_run_context):
        self._add("eb", ds_run_context)

    def ds_epoch_end(self, ds_run_context):
        self._add("ee", ds_run_context)

    def ds_step_begin(self, ds_run_context):
        self._add("sb", ds_run_context)


def _two_epochs(data):
    it = data.create_tuple_iterator(num_epochs=2)
    for _ in range(2):
        for _ in it:
            pass


def test_the_passes_of_a_repeat_are_one_callback_epoch():
    # measured in MindSpore 2.10: epochs are the iterator's, steps run on through the passes
    events = []
    _two_epochs(ds.NumpySlicesDataset([1, 2], shuffle=False)
                .map(lambda x: x, callbacks=_Events(events)).repeat(2))
    assert events == ["eb_1_0_0", "sb_1_1_1", "sb_1_2_2", "sb_1_3_3", "sb_1_4_4", "ee_1_4_4",
                      "eb_2_0_4", "sb_2_1_5", "sb_2_2_6", "sb_2_3_7", "sb_2_4_8", "ee_2_4_8"]


def test_epoch_ends_come_from_the_source_up():
    # MindSpore's order (its suite checks it): the lower map's callbacks first, last epoch too
    events = []
    data = ds.NumpySlicesDataset([1], shuffle=False)
    data = data.map(lambda x: x, callbacks=_Events(events, "a"))
    _two_epochs(data.map(lambda x: x, callbacks=_Events(events, "b")))
    ends = [e for e in events if "ee" in e]
    assert ends == ["aee_1_1_1", "bee_1_1_1", "aee_2_1_2", "bee_2_1_2"]


def test_callbacks_argument_refusals_in_mindspores_words():
    # measured in MindSpore 2.10: TypeError "Argument callbacks[1] with value 0 is not ..."
    data = ds.NumpySlicesDataset([1, 2, 3, 4], shuffle=False)
    with pytest.raises(TypeError, match="Argument callbacks with value 0 is not "):
        data.map(lambda x: x, callbacks=0)
    with pytest.raises(TypeError, match=r"Argument callbacks\[1\] with value 0 is not "):
        data.map(lambda x: x, callbacks=[_Flag(), 0])


@pytest.mark.parametrize("base", [DSCallback, WaitedDSCallback])
def test_a_callback_overriding_nothing_fails_when_iterated(base):
    # measured in MindSpore 2.10: map() accepts it; iterating raises this AttributeError
    class Bad(base):
        pass

    data = ds.NumpySlicesDataset([1, 2, 3, 4], shuffle=False).map(lambda x: x, callbacks=Bad())
    with pytest.raises(AttributeError, match="Inheriting Callback class without overriding any "
                                             "methods, check the usage of user defined Callback"):
        list(data)


def test_step_size_refusals_in_mindspores_words():
    # measured in MindSpore 2.10
    with pytest.raises(ValueError, match=r"Input step_size is not within the required interval "
                                         r"of \[1, 2147483647\]"):
        DSCallback(0)
    with pytest.raises(TypeError, match=r"Argument step_size with value 1.5 is not of type "
                                        r"\[<class 'int'>\], but got <class 'float'>"):
        DSCallback(1.5)


@pytest.mark.parametrize("error", [RuntimeError, ValueError])
def test_an_exception_in_a_callback_is_a_runtime_error_naming_it(error):
    # measured in MindSpore 2.10: RuntimeError, whose text has "<type>: <message>"
    class Raising(DSCallback):
        def ds_step_end(self, ds_run_context):
            raise error("bad step")

    data = ds.NumpySlicesDataset([1, 2], shuffle=False).map(lambda x: x, callbacks=Raising())
    with pytest.raises(RuntimeError, match=f"{error.__name__}: bad step") as info:
        list(data)
    assert "Exception thrown from user defined Python function in dataset" in str(info.value)
    assert isinstance(info.value.__cause__, error)


# -- serialize / deserialize ----------------------------------------------------------------
def test_default_workers_serialize_as_their_value(tmp_path):
    # measured in MindSpore 2.10: a pipeline serializes the same whether its workers were left
    # to the default or given as that default
    make_mnist_dir(str(tmp_path))
    workers = config.get_num_parallel_workers()
    implicit = ds.MnistDataset(str(tmp_path)).map(lambda x: x, "label").batch(2)
    explicit = ds.MnistDataset(str(tmp_path), num_parallel_workers=workers).map(
        lambda x: x, "label", num_parallel_workers=workers).batch(2, num_parallel_workers=workers)
    assert ds.serialize(implicit) == ds.serialize(explicit)
    assert ds.serialize(implicit)["num_parallel_workers"] == workers
    assert ds.serialize(ds.MnistDataset(str(tmp_path)).repeat(2))["num_parallel_workers"] is None


def test_deserialize_takes_a_path_as_input_dict(tmp_path):
    # measured in MindSpore 2.10: deserialize(input_dict="file.json") reads the file
    make_mnist_dir(str(tmp_path))
    path = str(tmp_path / "pipeline.json")
    ds.serialize(ds.MnistDataset(str(tmp_path), shuffle=False).take(3), path)
    assert ds.deserialize(input_dict=path).get_dataset_size() == 3


# -- profiling --------------------------------------------------------------------------------
def test_profiling_stop_before_start_in_mindspores_words():
    # measured in MindSpore 2.10: RuntimeError "MD ProfilingManager has not started yet."
    from minddata.profiling import ProfilingManager
    manager = ProfilingManager()
    manager.init()
    with pytest.raises(RuntimeError, match=r"MD ProfilingManager has not started yet\."):
        manager.stop()


# -- the pipeline's error reporting -----------------------------------------------------------
def _raise(_):
    raise Exception("Error occur!")


def _map_error(data, **kw):
    with pytest.raises(RuntimeError) as info:
        for _ in data.map(**kw).create_dict_iterator(num_epochs=1):
            pass
    return str(info.value)


@pytest.mark.parametrize("workers, processes", [(1, False), (2, False), (2, True)])
def test_a_map_error_names_the_op_and_data_file_in_mindspores_words(tmp_path, workers,
                                                                     processes):
    # measured in MindSpore 2.10: "map operation: [PyFunc] failed. The corresponding data file
    # is: <file>. Error description: ..." for a Python function over a file source
    make_mnist_dir(str(tmp_path))
    text = _map_error(ds.MnistDataset(str(tmp_path), "train", shuffle=False), operations=_raise,
                      input_columns=["image"], num_parallel_workers=workers,
                      python_multiprocessing=processes)
    images = str(tmp_path / "train-images-idx3-ubyte")
    assert (f"map operation: [PyFunc] failed. The corresponding data file is: {images}. Error "
            f"description:") in text
    assert "Error occur!" in text


def test_a_map_error_without_a_file_and_of_a_native_op(tmp_path):
    # measured in MindSpore 2.10: no file phrase for in-memory rows; a native op is named
    text = _map_error(ds.NumpySlicesDataset([1, 2], shuffle=False), operations=_raise)
    assert "map operation: [PyFunc] failed. Error description:" in text
    text = _map_error(ds.NumpySlicesDataset([np.frombuffer(b"notajpeg", np.uint8)],
                                            shuffle=False), operations=[vision.Decode()])
    assert "map operation: [Decode] failed." in text


# -- AutoTune ---------------------------------------------------------------------------------
def test_autotune_tunes_one_pipeline_at_a_time(capfd):
    # measured in MindSpore 2.10: a second pipeline iterated while one is tuned gets this
    # warning (stderr); once AutoTune is off, nothing is said
    data = numbers(8).batch(2)
    config.set_enable_autotune(True)
    try:
        first = data.create_dict_iterator(num_epochs=5)
        second = data.create_dict_iterator(num_epochs=5)
        err = capfd.readouterr().err
        assert ("Cannot enable AutoTune for the current data pipeline as it is already enabled "
                "for another data pipeline.") in err
    finally:
        config.set_enable_autotune(False)
    third = data.create_dict_iterator(num_epochs=1)
    assert capfd.readouterr().err == ""
    for it in (first, second, third):
        it.stop()
