"""Fixtures for the dataset-API tests."""
import pytest

from minddata import config


@pytest.fixture(autouse=True)
def _restore_minddata_config():
    # Tests call config.set_seed / set_debug_mode / ...; keep each test's settings its own.
    saved = dict(config._state)
    saved["debug_hooks"] = list(saved["debug_hooks"])
    yield
    config._state.clear()
    config._state.update(saved)
