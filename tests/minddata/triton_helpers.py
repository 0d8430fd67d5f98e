"""Running a test module's comparison in Triton's interpreter: TRITON_INTERPRET must be set
before a kernel is made, so the module runs again as a child process (its ``__main__`` prints
what it compared) with this checkout on its path."""
import os
import subprocess
import sys


def interpreted_lines(test_file):
    """The lines the test module ``test_file`` printed run as ``__main__`` (``python -m``,
    from the checkout's root) with TRITON_INTERPRET=1; AssertionError with the end of its
    stderr where it failed."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(test_file))))
    module = os.path.splitext(os.path.relpath(os.path.abspath(test_file), root))[0]
    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=path)
    done = subprocess.run([sys.executable, "-m", module.replace(os.sep, ".")], env=env,
                          cwd=root, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()
