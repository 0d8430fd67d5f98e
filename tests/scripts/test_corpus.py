"""The corpus of MindSpore-style scripts (this directory), each run unmodified through
`python -m training.compat` in its own process and temporary directory. The whole corpus is in
the slow suite; a short subset runs in the normal one."""
import os
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


def _run(script, tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT, TRAINING_NUMPY_THREADS="1")
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
