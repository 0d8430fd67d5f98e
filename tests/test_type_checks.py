"""The logical graph, the planner and the op contract type-check: mypy with the project's
configuration ([tool.mypy] in pyproject.toml), in make test. Skipped when mypy is not installed
(it is in requirements-dev.txt)."""
import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (requirements-dev.txt)")


@pytest.fixture(scope="module")
def mypy(tmp_path_factory):
    """mypy run in the repository root: on [tool.mypy]'s files, or on a snippet's file."""
    cache = str(tmp_path_factory.mktemp("mypy_cache"))
    snippets = tmp_path_factory.mktemp("snippets")

    def run(snippet=None):
        args = []
        if snippet is not None:
            path = snippets / f"snippet_{len(list(snippets.iterdir()))}.py"
            path.write_text(textwrap.dedent(snippet))
            args.append(str(path))
        return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", cache, *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=600)
    return run


def test_graph_planner_and_op_contract_type_check(mypy):
    out = mypy()    # the files and options of [tool.mypy]
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    assert "Success" in out.stdout


def test_the_ops_satisfy_the_op_contract_statically(mypy):
    out = mypy("""
        from typing import List
        from minddata.vision.py_transforms import Decode as PilDecode, ToTensor
        from transforms_c.contract import FusableOperation, FusedPlanLike, Operation
        from transforms_c.fusion import FusedPlan
        from transforms_c.transforms import Compose
        from transforms_c.vision import Decode, Normalize, RandomCropDecodeResize, Resize

        ops: List[FusableOperation] = [Decode(), Resize(10), RandomCropDecodeResize(8),
                                       Normalize([0.0], [1.0]), PilDecode(), ToTensor()]
        plan: FusedPlanLike = FusedPlan([Decode(), Resize(10)])
        op: Operation = Compose([Resize(10)])
        """)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]


def test_the_checker_refuses_an_op_missing_a_member_of_the_contract(mypy):
    out = mypy("""
        from transforms_c.contract import Operation

        class NoApply:
            is_random = False

            def __call__(self, *arrays: object) -> object:
                return arrays

        op: Operation = NoApply()
        """)
    assert out.returncode == 1, out.stdout + out.stderr
    assert 'missing following "Operation" protocol member' in out.stdout
    assert "apply" in out.stdout
