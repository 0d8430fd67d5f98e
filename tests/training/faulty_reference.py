"""Stands in for MindSpore's interpreter in the training tools' self-tests (`--mindspore-python`
a shell script running this file): runs the tool given as its first argument, this package the
reference, but dies of SIGSEGV at the case numbered in $FAULTY_REFERENCE_CRASH and sleeps for an
hour at the one in $FAULTY_REFERENCE_HANG (comma-separated case numbers), as MindSpore did on
some cases: the tool must count them and go on with the next case."""
import importlib.util
import itertools
import os
import signal
import sys
import time


def interpreter(folder):
    """The path of a shell script in ``folder`` (a pathlib.Path) that runs this file with this
    interpreter: the self-tests' ``--mindspore-python``."""
    script = folder / "python"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{os.path.abspath(__file__)}" "$@"\n')
    script.chmod(0o755)
    return str(script)


def numbers(variable):
    return {int(n) for n in os.environ.get(variable, "").split(",") if n}


def main():
    tool_path, arguments = sys.argv[1], sys.argv[2:]
    spec = importlib.util.spec_from_file_location("tool", tool_path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    start = int(arguments[arguments.index("--start") + 1]) if "--start" in arguments else 0
    numbered, run_case = itertools.count(start), tool.run_case
    crash, hang = numbers("FAULTY_REFERENCE_CRASH"), numbers("FAULTY_REFERENCE_HANG")

    def faulty_run_case(lib, case):
        number = next(numbered)
        if number in crash:
            os.kill(os.getpid(), signal.SIGSEGV)
        if number in hang:
            time.sleep(3600)
        return run_case(lib, case)
    tool.run_case = faulty_run_case
    sys.argv = [tool_path] + arguments
    return tool.main()


if __name__ == "__main__":
    sys.exit(main())
