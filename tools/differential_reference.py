"""What the differential tools that run MindSpore case by case share (text, memory, TFRecord
sources, samplers, MindRecord, converters, save, op arguments): their command line, running a
tool again in MindSpore's interpreter (``--emit``), reading back the outcomes it pickled case by
case, going on past a case that kills or hangs it, and the report."""
import argparse
import faulthandler
import os
import pickle
import signal
import subprocess
import tempfile
import warnings

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
    # (a self-check's reference, minddata or training, is this package)
    env = dict(os.environ, GLOG_v="3",
               PYTHONPATH=with_package if args.reference != "mindspore" else "")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "reference.pkl")
        while len(results) < count:
            done = run_as_group([args.mindspore_python, os.path.abspath(script), "--start",
                                  str(len(results))] + emit_args(path), env, preexec_fn, tmp)
            results.extend(_pickled(path))
            if done.returncode != 0 and not results and not tried:
                check_importable(args.mindspore_python, args.reference, env, done.returncode)
            if done.returncode != 0 and len(results) < count:
                if len(results) in tried:
                    results.append(CRASH)
                tried.add(len(results))
    return results


def check_importable(python, reference, env, returncode):
    """Ends the run where ``python`` failed on the first case (``returncode``) because it
    cannot import ``reference``; a first case that crashes it is a crash like any other."""
    imported = subprocess.run([python, "-c", f"import {reference}"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if imported.returncode != 0:
        raise SystemExit(f"{python} failed on the first case (exit status {returncode}) and "
                         f"cannot import {reference}")


def run_as_group(command, env, preexec_fn, directory):
    """Runs ``command`` in a session of its own, in ``directory`` (MindSpore's Decode leaves
    an ``abnormal_image.jpg`` in its working directory for every image it cannot decode), and,
    once it has ended, kills what it left in that session: a reference run ended by its hang
    timeout (or a crash) leaves the worker processes MindSpore forked (its parallel writer's,
    its converters') spinning on their queues for ever."""
    process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL, cwd=directory,
                               preexec_fn=preexec_fn, start_new_session=True)
    try:
        process.wait()
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
    return process


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
    kinds = KINDS + tuple(kind for kind in soft if kind not in KINDS)    # a tool's own soft kinds
    print(f"{args.cases} cases, seed {args.seed}: " + ", ".join(
        f"{counts.get(k, 0)} {k}" for k in kinds))
    return 1 if counts.get("different") else 0


def first_undocumented(case, ours, theirs, found, documented):
    """(kind, item, why) of a case whose differences are ``found`` ([(kind, item, why)], hard
    ones first): the first "different" one ``documented(case, item, ours, theirs)`` does not
    explain, else "documented" where every one is, else the first soft one; (None, None,
    None) if the same."""
    hard = [difference for difference in found if difference[0] == "different"]
    for kind, item, why in hard:
        if not documented(case, item, ours, theirs):
            return kind, item, why
    if hard:
        return ("documented", hard[0][1], documented(case, hard[0][1], ours, theirs))
    return found[0] if found else (None, None, None)


def command_line(description, default_cases, emit=("LIBRARY", "FILE"), more=None):
    """The differential tools' arguments, parsed: --seed, --cases, --mindspore-python,
    --reference, --show-error-types, --show-documented, --case N, the reference
    interpreter's hidden --start and --emit (``emit`` names its values), and those
    ``more(parser)`` adds (a tool's own)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=default_cases)
    parser.add_argument("--mindspore-python", default="/work/msvenv/bin/python")
    parser.add_argument("--reference", default="mindspore",
                        help="the library the reference interpreter runs (minddata: a self-check)")
    parser.add_argument("--show-error-types", action="store_true",
                        help="also print the cases where both raise, with other error types or at "
                        "other steps")
    parser.add_argument("--show-documented", action="store_true",
                        help="also print the cases whose differences the README documents")
    parser.add_argument("--case", type=int, action="append",
                        help="print this case's data and both outcomes in full")
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--emit", nargs=len(emit), metavar=emit, help=argparse.SUPPRESS)
    if more:
        more(parser)
    return parser.parse_args()


def run_tool(description, default_cases, script, cases, outcomes, classify, describe,
             case_timeout_s, soft=("error type", "error elsewhere"), full=2000):
    """A differential tool's command line: --seed, --cases, --mindspore-python, --reference,
    --show-error-types, --show-documented, --case N; run by the reference interpreter with
    --emit (its outcomes pickled case by case). ``cases(seed, count)`` and
    ``outcomes(library_name, seed, count, start)`` are the tool's. Returns the exit status."""
    args = command_line(description, default_cases)
    if args.emit:                       # the reference interpreter's part
        emit_outcomes(outcomes(args.emit[0], args.seed, args.cases, args.start), args.emit[1],
                      case_timeout_s)
        return 0
    reference = reference_outcomes(script, args, args.cases, lambda path: [
        "--seed", str(args.seed), "--cases", str(args.cases), "--emit", args.reference, path])
    return print_report(args, cases(args.seed, args.cases),
                        outcomes("minddata", args.seed, args.cases), reference, classify,
                        describe, soft=soft, full=full)


def case_by_case(make_library, cases, run_case, in_directory=False):
    """A tool's ``outcomes(library_name, seed, count, start=0)``: each case's
    ``run_case(library, case)`` from case ``start`` on, in the library
    ``make_library(library_name)`` (a generator: a crash loses no case before it); with
    ``in_directory``, ``run_case(library, case, directory)`` in a new temporary directory each."""
    def outcomes(library_name, seed, count, start=0):
        warnings.simplefilter("ignore")
        library = make_library(library_name)
        for case in cases(seed, count)[start:]:
            if not in_directory:
                yield run_case(library, case)
                continue
            with tempfile.TemporaryDirectory() as directory:
                yield run_case(library, case, directory)
    return outcomes


def item_differences(pairs, rows, difference, keep=()):
    """[(kind, item, why)] of ``pairs`` ([(item, ours, theirs)] outcomes) that differ by
    ``difference(ours, theirs)`` -> (kind, why), hard ones first. A difference in an item that
    is no row item (``rows``) nor in ``keep``, where every row item fails on both sides (one
    missing counts as failing), is an error at another step ("error elsewhere")."""
    found = []
    sides = ({label: mine for label, mine, _ in pairs}, {label: theirs for label, _, theirs in
                                                          pairs})
    for label, mine, theirs in pairs:
        kind, why = difference(mine, theirs)
        if kind == "different" and label not in rows and label not in keep and all(
                side.get(item, ("error",))[0] == "error" for side in sides for item in rows):
            kind = "error elsewhere"
        if kind:
            found.append((kind, label, why))
    order = ("different", "error type", "error elsewhere")     # a tool's own soft kinds last
    found.sort(key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    return found
