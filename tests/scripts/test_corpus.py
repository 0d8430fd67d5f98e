"""The corpus of MindSpore-style scripts (this directory), each run unmodified through
`python -m training.compat` in its own process and temporary directory. The whole corpus is in
the slow suite; a short subset runs in the normal one."""
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = sorted(f for f in os.listdir(HERE)
                 if f.endswith(".py") and not f.startswith("test_") and f != "synthetic_data.py"
                 and f != "__init__.py")
QUICK = ["callbacks_custom.py", "distributed_context_standalone.py",
         "grad_operation_custom_train.py"]


def _run(script, tmp_path, **environ):
    env = dict(os.environ, PYTHONPATH=ROOT, TRAINING_NUMPY_THREADS="1", **environ)
    env.pop("RANK", None)
    return subprocess.run([sys.executable, "-m", "training.compat", os.path.join(HERE, script)],
                          capture_output=True, text=True, timeout=600, cwd=str(tmp_path), env=env)


def _check(result, script):
    assert result.returncode == 0, f"{script} failed:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
    assert result.stderr.count("training.compat mapped: mindspore -> training") == 1


def test_corpus_has_at_least_fifteen_scripts():
    assert len(SCRIPTS) >= 15, SCRIPTS
    assert set(QUICK) <= set(SCRIPTS)


@pytest.mark.parametrize("script", QUICK)
def test_quick_corpus_script(script, tmp_path):
    _check(_run(script, tmp_path), script)


@pytest.mark.slow
@pytest.mark.parametrize("script", [s for s in SCRIPTS if s not in QUICK])
def test_corpus_script(script, tmp_path):
    _check(_run(script, tmp_path), script)


def _accuracy(output):
    """The accuracy a script printed last (the first number after 'acc' on the last line that
    names it; a percentage as a fraction), or None."""
    lines = [line for line in output.splitlines() if "acc" in line.lower()]
    if not lines:
        return None
    tail = lines[-1][lines[-1].lower().rindex("acc"):]
    match = re.search(r"([0-9]*\.?[0-9]+)(%?)", tail)
    if match is None:
        return None
    return float(match.group(1)) / (100.0 if match.group(2) else 1.0)


def test_accuracy_is_read_from_the_scripts_output():
    assert _accuracy("epoch 1\nresumed accuracy: 0.953125\n") == 0.953125
    assert _accuracy(" Accuracy: 100.0%, Avg loss: 0.714289 \n") == 1.0
    assert _accuracy("result: {'acc': 0.875}") == 0.875
    assert _accuracy("loss 0.5") is None


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS)
def test_the_torch_backend_reaches_the_numpy_backends_accuracy(script, tmp_path):
    """Issue 23: the same script trained on both backends reaches the same accuracy within 3
    points (scripts that print none only have to run on both)."""
    figures = {}
    for backend in ("numpy", "torch"):
        workdir = tmp_path / backend
        workdir.mkdir()
        result = _run(script, workdir, TRAINING_BACKEND=backend)
        _check(result, f"{script} ({backend} backend)")
        figures[backend] = _accuracy(result.stdout)
    if figures["numpy"] is not None:
        assert figures["torch"] is not None, figures
        assert abs(figures["torch"] - figures["numpy"]) <= 0.03, figures
