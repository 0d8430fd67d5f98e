"""The reference interpreter's side of the differential tools (text sources, memory sources,
TFRecord): running a tool again in MindSpore's interpreter (``--emit``), reading back the
outcomes it pickled case by case, and going on past a case that kills or hangs it."""
import faulthandler
import os
import pickle
import subprocess
import tempfile

CRASH = [("crash", ("error", "crash", "killed by a signal or hung", ("crash",)))]


def emit_outcomes(outcomes, out_path, timeout_s):
    """Pickles each of ``outcomes`` (an iterator) to ``out_path`` as it is done; a case that runs
    past ``timeout_s`` ends the process (the reading side counts it as a hang)."""
    with open(out_path, "wb") as f, open(os.devnull, "w") as quiet:
        faulthandler.dump_traceback_later(timeout_s, exit=True, file=quiet)
        for outcome in outcomes:
            pickle.dump(outcome, f)
            f.flush()
            faulthandler.dump_traceback_later(timeout_s, exit=True, file=quiet)


def reference_outcomes(script, args, count, emit_args, preexec_fn=None):
    """The outcomes of ``count`` cases from ``script`` run in ``args.mindspore_python`` with
    ``emit_args`` (a function of the output path giving the arguments after ``--start N``); a
    case that kills or hangs it is tried once more in a new process, then recorded as CRASH and
    the run goes on after it."""
    results, tried = [], set()
    with_package = os.path.dirname(os.path.dirname(os.path.abspath(script)))
    env = dict(os.environ, GLOG_v="3",
               PYTHONPATH=with_package if args.reference == "minddata" else "")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "reference.pkl")
        while len(results) < count:
            done = subprocess.run([args.mindspore_python, os.path.abspath(script), "--start",
                                   str(len(results))] + emit_args(path), env=env,
                                  stderr=subprocess.DEVNULL, preexec_fn=preexec_fn)
            results.extend(_pickled(path))
            if done.returncode != 0 and not results:
                raise SystemExit(f"{args.mindspore_python} failed on the first case "
                                 f"(exit status {done.returncode}): is {args.reference} there?")
            if done.returncode != 0 and len(results) < count:
                if len(results) in tried:
                    results.append(CRASH)
                tried.add(len(results))
    return results


def _pickled(path):
    out = []
    if not os.path.exists(path):
        return out
    with open(path, "rb") as f:
        while True:
            try:
                out.append(pickle.load(f))
            except (EOFError, pickle.UnpicklingError):
                return out


KINDS = ("same", "documented", "error type", "error elsewhere", "MindSpore crashed", "different")


def print_report(args, all_cases, ours, reference, classify, describe, soft=("error type",),
                 full=None):
    """Classifies and counts every case, prints the undocumented differences and crashes (with
    ``args.show_error_types`` the ``soft`` kinds, with ``args.show_documented`` the documented
    ones, and the cases of ``args.case`` in full: ``describe(case, full)``) and the counts;
    returns the exit status: 1 if a difference is undocumented."""
    counts = {}
    for number, (case, mine, theirs) in enumerate(zip(all_cases, ours, reference)):
        kind, item, why = classify(case, mine, theirs)
        kind = kind or "same"
        counts[kind] = counts.get(kind, 0) + 1
        if number in (args.case or ()):
            print(f"case {number}: {describe(case, full)}\n    here: {mine}\n    "
                  f"MindSpore: {theirs}")
        if kind in ("different", "MindSpore crashed") or (
                kind in soft and args.show_error_types) or (
                kind == "documented" and args.show_documented):
            print(f"case {number}: {describe(case)}\n    {item}: {why}")
    print(f"{args.cases} cases, seed {args.seed}: " + ", ".join(
        f"{counts.get(k, 0)} {k}" for k in KINDS))
    return 1 if counts.get("different") else 0
