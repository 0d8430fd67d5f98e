"""The state harness over randomly composed pipelines (hypothesis)."""
from hypothesis import HealthCheck, given, settings, strategies as st

from .engine_helpers import RandomAdd, check_resume, numbers

STEPS = {
    "map": lambda d, k: d.map(RandomAdd(), "x", num_parallel_workers=1 + k % 3),
    "shuffle": lambda d, k: d.shuffle(2 + k % 4),
    "repeat": lambda d, k: d.repeat(1 + k % 2),
    "take": lambda d, k: d.take(1 + k % 9),
    "skip": lambda d, k: d.skip(k % 3),
    "filter": lambda d, k: d.filter(lambda y: y % (2 + k % 2) == 0, ["y"]),
    "project": lambda d, k: d.project(["y", "x"]),
}


@settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(0, 14), shuffle=st.booleans(),
       steps=st.lists(st.tuples(st.sampled_from(sorted(STEPS)), st.integers(0, 5)),
                      max_size=4),
       batch=st.integers(0, 3), stop=st.integers(0, 20))
def test_any_pipeline_resumes_exactly(n, shuffle, steps, batch, stop):
    d = numbers(n, shuffle=shuffle)
    for name, k in steps:
        d = STEPS[name](d, k)
    if batch:
        d = d.batch(batch, num_parallel_workers=1 + stop % 2)
    check_resume(d, num_epochs=2, stops=(stop, stop // 2 + 1))
