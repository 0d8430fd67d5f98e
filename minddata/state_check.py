"""Checks of a saved iterator state before a run resumes from it."""


def check_state(state, dataset):
    """ValueError unless ``state`` looks like an iterator's get_state() of ``dataset``."""
    if not isinstance(state, dict) or not {"seed", "epoch", "root"} <= set(state):
        raise ValueError("state must be a dict returned by an iterator's get_state()")
