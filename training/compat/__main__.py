"""`python -m training.compat script.py [args]` or `python -m training.compat -m module [args]`:
run a MindSpore script (or a module as `python -m` runs it, e.g. `-m pytest tests/`) with
`mindspore.*` imports mapped onto this project; prints once, to stderr, which names it mapped."""
import atexit
import os
import runpy
import sys

from training.compat import install

USAGE = ("usage: python -m training.compat script.py [args ...]\n"
         "       python -m training.compat -m module [args ...]")


def _report(finder):
    if finder.mapped:
        pairs = ", ".join(f"{k} -> {v}" for k, v in sorted(finder.mapped.items()))
        print(f"training.compat mapped: {pairs}", file=sys.stderr)


def _usage_error(message):
    print(f"training.compat: {message}\n{USAGE}", file=sys.stderr)
    return 2


def _run_module(argv):
    """`-m module args`: as `python -m module args` would, with the current directory first on
    sys.path and sys.argv[0] the module's file (runpy sets it)."""
    sys.argv = list(argv[1:])
    sys.path.insert(0, os.getcwd())
    runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    return 0


def _run_script(argv):
    script = argv[0]
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 0 if argv else 2
    as_module = argv[0] == "-m"
    if as_module and len(argv) < 2:
        return _usage_error("-m needs a module name")
    if not as_module and not os.path.isfile(argv[0]):
        return _usage_error(f"script {argv[0]!r} does not exist")
    finder = install()
    atexit.register(_report, finder)
    return _run_module(argv) if as_module else _run_script(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
