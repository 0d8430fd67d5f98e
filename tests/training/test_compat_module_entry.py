"""`python -m training.compat -m module [args]`: a module (pytest here) run as `python -m` runs
it, with the mindspore import hook installed."""
import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(cwd, *args):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "training.compat", *args], capture_output=True,
                          text=True, timeout=300, cwd=str(cwd), env=env)


def test_pytest_runs_mindspore_tests_through_the_hook(tmp_path):
    (tmp_path / "helper.py").write_text("VALUE = 3\n")  # found from the current directory
    (tmp_path / "test_ms.py").write_text(textwrap.dedent("""
        import mindspore.dataset as ds
        from mindspore import log as logger
        from helper import VALUE

        def test_pass():
            logger.info("through the hook")
            assert ds.config.get_seed() == 5489 and VALUE == 3

        def test_fail():
            assert ds.config.get_seed() == 0
    """))
    result = _run(tmp_path, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_ms.py")
    assert result.returncode == 1, result.stderr  # pytest's own exit status: a test failed
    assert "1 failed, 1 passed" in result.stdout
    assert "training.compat mapped: mindspore -> training" in result.stderr


def test_module_gets_its_arguments_and_runs_as_main(tmp_path):
    (tmp_path / "mod.py").write_text(textwrap.dedent("""
        import sys
        import mindspore
        print("ARGS", sys.argv[1:], __name__, sys.argv[0].endswith("mod.py"))
    """))
    result = _run(tmp_path, "-m", "mod", "--x", "1")
    assert result.returncode == 0, result.stderr
    assert "ARGS ['--x', '1'] __main__ True" in result.stdout


def test_m_without_a_module_is_a_usage_error(tmp_path):
    result = _run(tmp_path, "-m")
    assert result.returncode == 2
    assert "-m needs a module name" in result.stderr and "-m module" in result.stderr
