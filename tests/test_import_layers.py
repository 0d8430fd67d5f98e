"""The layers import downward only (docs/internals.md): the import-linter contracts of
.importlinter, and no import cycle through the engine."""
import os
import subprocess
import sys

import grimp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("minddata", "mindrecord", "transforms_c", "training")


def test_import_contracts_are_kept():
    lint = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    out = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout


def _graph():
    sys.path.insert(0, ROOT)
    try:
        return grimp.build_graph(*PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(ROOT)


def test_no_import_cycle_runs_through_the_engine():
    graph = _graph()
    engine = {m for m in graph.modules if m == "minddata.engine" or
              m.startswith("minddata.engine.")}
    outside = set(graph.modules) - engine
    # Modules the engine needs (directly or not), and modules that need the engine.
    needed = set()
    for m in engine:
        needed |= graph.find_upstream_modules(m)
    needing = set()
    for m in engine:
        needing |= graph.find_downstream_modules(m)
    both = sorted((needed & needing) & outside)
    assert not both, f"import cycles through minddata.engine via {both}"


def test_the_checks_catch_a_cycle_through_the_engine():
    """The cycle check itself: an engine module importing the API is found."""
    graph = _graph()
    graph.add_import(importer="minddata.engine.runtime", imported="minddata.dataset")
    needed = graph.find_upstream_modules("minddata.engine.runtime")
    needing = graph.find_downstream_modules("minddata.engine.runtime")
    assert "minddata.dataset" in needed & needing
