"""`python -m training.compat`: the mindspore import hook, its report and its errors."""
import os
import subprocess
import sys
import textwrap

import pytest

import training
from training import compat

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(tmp_path, source, *args):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "training.compat", str(script), *args],
                          capture_output=True, text=True, timeout=300, cwd=str(tmp_path), env=env)


@pytest.fixture
def hook():
    finder = compat.install()
    yield finder
    compat.uninstall()


def test_hook_is_not_installed_by_importing_training():
    assert not any(isinstance(f, compat.MindSporeFinder) for f in sys.meta_path)
    assert "mindspore" not in sys.modules or not hasattr(sys.modules["mindspore"], "__getattr__")


def test_mindspore_modules_are_the_project_modules(hook):
    import mindspore as ms
    import mindspore.dataset as ds
    import mindspore.nn as nn
    from mindspore import dataset as ds2, dtype as mstype, Tensor
    from mindspore.common.initializer import Normal
    from mindspore.train.callback import LossMonitor
    from mindspore.communication.management import get_rank
    import minddata
    assert ds is minddata and ds2 is minddata and nn is training.nn
    assert Tensor is training.Tensor and mstype is training.dtype and ms.Model is training.Model
    assert Normal is training.common.initializer.Normal and LossMonitor is training.LossMonitor
    assert callable(get_rank)
    assert training.nn.__spec__.name == "training.nn"  # the module keeps its own spec
    assert hook.mapped["mindspore.dataset"] == "minddata"
    assert not hasattr(training, "dataset")  # mindspore's lazy attributes live on the alias


def test_absent_modules_and_names_say_what_to_use(hook):
    with pytest.raises(ModuleNotFoundError, match=r"mindspore.scipy \(MindSpore API\) is not "
                                                  r"provided.*scipy"):
        import mindspore.scipy  # noqa: F401
    with pytest.raises(ModuleNotFoundError, match="mindspore.foo.*not provided.*training.foo"):
        import mindspore.foo  # noqa: F401
    with pytest.raises(ImportError, match=r"mindspore.nn.PipelineCell \(MindSpore API\) is not "
                                          r"provided.*no pipeline parallelism"):
        from mindspore.nn import PipelineCell  # noqa: F401
    import mindspore
    with pytest.raises(AttributeError, match="mindspore.bar.*not provided"):
        mindspore.bar
    with pytest.raises(ImportError, match="MindIR"):
        mindspore.export


def test_entry_point_runs_a_script_and_reports_the_mapping_once(tmp_path):
    result = _run(tmp_path, """
        import sys
        import numpy as np
        import mindspore as ms
        import mindspore.dataset as ds
        from mindspore import nn, Model
        from mindspore.train.callback import LossMonitor
        data = ds.NumpySlicesDataset((np.ones((8, 4), np.float32), np.zeros(8, np.int32)),
                                     column_names=["x", "y"]).batch(4)
        net = nn.Dense(4, 2)
        model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.Momentum(net.trainable_params(), 0.1, 0.9))
        model.train(1, data, callbacks=[LossMonitor()])
        print("ARGS", sys.argv[1:], __name__)
        """, "--epochs", "1")
    assert result.returncode == 0, result.stderr
    assert "ARGS ['--epochs', '1'] __main__" in result.stdout
    assert result.stderr.count("training.compat mapped:") == 1
    assert "mindspore.dataset -> minddata" in result.stderr


def test_pillows_image_module_is_loaded_as_mindspore_loads_it(tmp_path):
    """`import mindspore` loads PIL.Image in MindSpore 2.10: scripts that `import PIL` and use
    `PIL.Image` rely on it (a fresh interpreter: nothing else loaded it first)."""
    result = _run(tmp_path, """
        import sys
        import PIL
        assert "PIL.Image" not in sys.modules
        import mindspore
        print("IMAGE", PIL.Image.new("RGB", (2, 3)).size)
        """)
    assert result.returncode == 0, result.stderr
    assert "IMAGE (2, 3)" in result.stdout


def test_entry_point_errors(tmp_path):
    result = subprocess.run([sys.executable, "-m", "training.compat", str(tmp_path / "no.py")],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 2 and "does not exist" in result.stderr
    failing = _run(tmp_path, "import mindspore.scipy\n")
    assert failing.returncode == 1 and "mindspore.scipy (MindSpore API) is not provided" in \
        failing.stderr


def test_dataset_text_imports_with_its_string_helpers(hook):
    # MindSpore's dataset tests import it at the top (test_map.py, the MindRecord sampler
    # tests): the module, its transforms and utils modules, to_str/to_bytes exist; the names
    # it lacks say they are not provided
    import mindspore.dataset.text as text
    from mindspore.dataset.text import to_bytes, to_str  # noqa: F401
    from mindspore.dataset.text.transforms import ToVectors
    from mindspore.dataset.text.utils import Vectors
    assert ToVectors is text.ToVectors and Vectors is text.Vectors
    with pytest.raises(ImportError, match="text.JiebaTokenizer .* is not provided"):
        text.JiebaTokenizer


def test_not_provided_names_in_ops_and_serialization(hook):
    with pytest.raises(ImportError, match=r"mindspore.ops.composite.HyperMap \(MindSpore API\) "
                                          r"is not provided.*loop"):
        from mindspore.ops.composite import HyperMap  # noqa: F401
    with pytest.raises(ImportError, match="mindspore.train.serialization.export.*save_checkpoint"):
        from mindspore.train.serialization import export  # noqa: F401
    import mindspore.ops as ops
    with pytest.raises(AttributeError, match="mindspore.ops.Foo is not provided"):
        ops.Foo
    assert not hasattr(ops, "Foo")  # unknown names stay AttributeErrors (hasattr works)
    from mindspore.ops import ReduceMax, Assign  # noqa: F401
