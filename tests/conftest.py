"""Shared test helpers. Fixture files written by MindSpore 2.10 live in ../shared/fixtures,
relative to the project root (CI has ../shared beside its clone too)."""
import os
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = (PROJECT_ROOT / ".." / "shared" / "fixtures").resolve()


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
