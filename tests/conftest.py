"""Shared test helpers. Fixture files written by MindSpore 2.10 live in ../shared/fixtures,
relative to the project root (CI has ../shared beside its clone too)."""
import importlib.util
import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# CI runs every property test on a fixed sequence of examples, so that a landing never depends
# on the luck of the draw; developers' runs keep exploring new examples (and replay, from
# .hypothesis/, any failure they found).
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None,
                                     print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = (PROJECT_ROOT / ".." / "shared" / "fixtures").resolve()


def load_script(path):
    """A script of the repository (``tools/x.py``, ``examples/...``; relative to the project
    root or absolute), loaded as a module without running its ``main``: the scripts are not
    packages."""
    path = PROJECT_ROOT / path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def shared_fixtures():
    if not SHARED_FIXTURES.is_dir():
        pytest.fail(f"shared fixtures not found at {SHARED_FIXTURES}")
    return SHARED_FIXTURES


@pytest.fixture(autouse=True)
def _chdir_root(monkeypatch):
    # Tests may use paths relative to the project root whatever directory pytest starts in.
    monkeypatch.chdir(PROJECT_ROOT)
    yield


@pytest.fixture
def ctrl_c_raises():
    """Python raises KeyboardInterrupt on SIGINT for this test, even when pytest was started in
    the background by a shell (which starts it with SIGINT ignored, and Python then keeps it so)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
