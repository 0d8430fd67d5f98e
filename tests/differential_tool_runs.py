"""The self-test run every differential tool shares: the tool with this package on both sides
(`--reference minddata`, this interpreter as the reference's), which must exit 0."""
import subprocess
import sys


def run_against_itself(tool, cases, seed, timeout):
    """The tool's summary line for `cases` cases of `seed`, after checking it exited 0."""
    done = subprocess.run([sys.executable, str(tool), "--cases", str(cases), "--seed", str(seed),
                           "--mindspore-python", sys.executable, "--reference", "minddata"],
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip()


def no_difference(cases, seed):
    """The summary line of a run where every case came out the same."""
    return (f"{cases} cases, seed {seed}: {cases} same, 0 documented, 0 error type, "
            f"0 error elsewhere, 0 MindSpore crashed, 0 different")
