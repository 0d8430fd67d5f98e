"""`python -m training.compat script.py [args]`: run a MindSpore script with `mindspore.*`
imports mapped onto this project; prints once, to stderr, which names it mapped."""
import atexit
import os
import runpy
import sys

from training.compat import install

USAGE = "usage: python -m training.compat script.py [args ...]"


def _report(finder):
    if finder.mapped:
        pairs = ", ".join(f"{k} -> {v}" for k, v in sorted(finder.mapped.items()))
        print(f"training.compat mapped: {pairs}", file=sys.stderr)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 0 if argv else 2
    script = argv[0]
    if not os.path.isfile(script):
        print(f"training.compat: script {script!r} does not exist\n{USAGE}", file=sys.stderr)
        return 2
    finder = install()
    atexit.register(_report, finder)
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
