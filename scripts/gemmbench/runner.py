"""Running a plan on the GPU host: build tgemm-run the way
scripts/gpu-suite.sh does, then one `tgemm-run --check --csv` process per
plan line, its CSV line followed by the line's tags; with repeats, the plan
runs that many rounds and each CSV line ends with its round (`repeat`)."""
import csv
import io
import os
import subprocess
import sys
import time

from gemmbench.plan import estimate_seconds, read_plan, shape_text
from gemmbench.precisions import REPO

# tgemm-run's exit status for a wrong result (docs/runtime.md): the CSV line
# is printed, with check FAIL.
EXIT_MISMATCH = 3
# run_plan's result when it stopped at --max-seconds with runs left.
EXIT_INCOMPLETE = 3
# The column of the round, with repeats.
REPEAT = "repeat"


def build_runtime(log_dir):
    """`scripts/gpu-suite.sh build`: configures build-gpu with the compiler
    off and builds tgemm-run (logs under log_dir)."""
    os.makedirs(log_dir, exist_ok=True)
    print("== building tgemm-run (scripts/gpu-suite.sh build %s)" % log_dir)
    sys.stdout.flush()
    built = subprocess.run(["bash", os.path.join(REPO, "scripts",
                                                  "gpu-suite.sh"),
                            "build", os.path.abspath(log_dir)])
    if built.returncode != 0:
        raise SystemExit("building tgemm-run failed: see %s/cmake.log and "
                         "%s/ninja.log" % (log_dir, log_dir))
    return os.path.join(REPO, "build-gpu", "bin", "tgemm-run")


def _key(tags, m, n, k):
    return tuple(tags) + (str(m), str(n), str(k))


def _done_keys(csv_path, tag_names):
    done = set()
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            done.add(_key([row.get(t, "") for t in tag_names], row["m"],
                          row["n"], row["k"]))
    return done


def _line_key(line, repeat):
    """The key of a plan line's run in round `repeat` (None: no rounds)."""
    tags = list(line.tags.values())
    if repeat is not None:
        tags.append(str(repeat))
    return _key(tags, line.m, line.n, line.k)


def run_plan(plan_path, csv_path, tgemm_run, reps=20, warmup=5,
             resume=False, max_seconds=None, timeout=600, repeats=None):
    """Runs every plan line, appending to csv_path. With `repeats`, runs
    the whole plan that many times, round by round (every line once per
    round, so that drift spreads over all kernels), and tags each CSV line
    with its round in a `repeat` column. With `resume`, keeps csv_path and
    skips the runs it already has. Stops starting runs after max_seconds.
    Keeps going after a failure. Returns 0 when every run passed, 1 when any
    failed, EXIT_INCOMPLETE when it stopped early with no failure."""
    tag_names, lines = read_plan(plan_path)
    errors_path = os.path.join(os.path.dirname(os.path.abspath(csv_path)),
                               "errors.log")
    header = subprocess.run([tgemm_run, "--csv-header"], check=True,
                            stdout=subprocess.PIPE,
                            universal_newlines=True).stdout.strip()
    columns = next(csv.reader(io.StringIO(header)))
    # A tag that tgemm-run already reports (lowering) is not repeated.
    appended = [t for t in tag_names if t not in columns]
    columns += appended
    keys = list(tag_names)
    if repeats is not None:
        columns.append(REPEAT)
        keys.append(REPEAT)
    done = set()
    if resume and os.path.exists(csv_path):
        with open(csv_path) as f:
            found = next(csv.reader(f), [])
        if found != columns:
            raise SystemExit("%s has other columns than this tgemm-run and "
                             "plan write; run without --resume" % csv_path)
        done = _done_keys(csv_path, keys)
    else:
        with open(csv_path, "w") as f:
            f.write(",".join(columns) + "\n")
    rounds = [None] if repeats is None else list(range(1, repeats + 1))
    todo = [(l, r) for r in rounds for l in lines
            if _line_key(l, r) not in done]
    estimate = sum(estimate_seconds(l.tags["precision"], l.tags["lowering"],
                                    l.m, l.n, l.k, reps, warmup)
                   for l, _ in todo)
    print("== %d runs%s (%d already in %s), estimated %.0f s" % (
        len(todo), ", %d rounds of %d plan lines" % (len(rounds), len(lines))
        if len(rounds) > 1 else "", len(lines) * len(rounds) - len(todo),
        csv_path, estimate))
    sys.stdout.flush()
    failed = 0
    start = time.time()
    left = 0
    for i, (line, repeat) in enumerate(todo, 1):
        if max_seconds is not None and time.time() - start >= max_seconds:
            left = len(todo) - i + 1
            break
        what = "%s %s" % (" ".join(line.tags.values()),
                          shape_text(line.m, line.n, line.k))
        if len(rounds) > 1:
            what += ", repeat %d" % repeat
        cmd = [tgemm_run, line.ptx, "--manifest", line.manifest,
               "--m", str(line.m), "--n", str(line.n), "--k", str(line.k),
               "--check", "--csv", "--reps", str(reps),
               "--warmup", str(warmup)]
        t0 = time.time()
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE,
                                  universal_newlines=True, timeout=timeout)
            rc, out, err = proc.returncode, proc.stdout, proc.stderr
        except subprocess.TimeoutExpired:
            rc, out, err = -1, "", "timed out after %d s" % timeout
        seconds = time.time() - t0
        row = [l for l in out.splitlines() if l.strip()]
        status, fields = "", {}
        if row and rc in (0, EXIT_MISMATCH):
            text = ",".join([row[-1]] + [str(line.tags[t])
                                         for t in appended] +
                            ([] if repeat is None else [str(repeat)]))
            fields = dict(zip(columns, next(csv.reader(io.StringIO(text)))))
            with open(csv_path, "a") as f:
                f.write(text + "\n")
            status = "%s %s, check %s" % (fields.get("kernel_rate"),
                                          fields.get("unit"),
                                          fields.get("check"))
        if rc != 0:
            failed += 1
            status = "FAILED (exit %d%s)" % (
                rc, ", check %s" % fields.get("check") if row and rc ==
                EXIT_MISMATCH else "")
            with open(errors_path, "a") as f:
                f.write("FAILED: %s\n  %s\n%s\n" % (
                    what, " ".join(cmd), err.strip()))
        print("[%d/%d] %s: %s (%.1f s)" % (i, len(todo), what, status,
                                           seconds))
        sys.stdout.flush()
    print("== %.0f s; %d failed%s" % (time.time() - start, failed,
                                     "; see %s" % errors_path if failed
                                     else ""))
    if left:
        print("== stopped at --max-seconds with %d runs left: rerun with "
              "--resume" % left)
    if failed:
        return 1
    return EXIT_INCOMPLETE if left else 0


def list_devices(tgemm_run):
    subprocess.run([tgemm_run, "--list-devices"])
    sys.stdout.flush()


def run_directory(args, script, csv_name, repeats=None):
    """`SCRIPT run`: the plan of args.dir, run with tgemm-run (built here
    unless args.tgemm_run names one) into args.dir/CSV_NAME, `repeats`
    rounds when given (run_plan). Returns the CSV's path and run_plan's
    status."""
    plan = os.path.join(args.dir, "plan.txt")
    if not os.path.exists(plan):
        raise SystemExit("%s not found: run `scripts/%s prepare` on the "
                         "build host and copy the folder" % (plan, script))
    tgemm_run = args.tgemm_run or build_runtime(args.dir)
    list_devices(tgemm_run)
    csv_path = os.path.join(args.dir, csv_name)
    status = run_plan(plan, csv_path, tgemm_run, reps=args.reps,
                      warmup=args.warmup, resume=args.resume,
                      max_seconds=args.max_seconds, repeats=repeats)
    return csv_path, status
