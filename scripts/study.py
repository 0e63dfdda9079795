#!/usr/bin/env python3
"""The multi-precision study: how do the three instruction families compare,
per precision, with each other and with cuBLAS, and what does each of their
features buy? The families are the WMMA API (the wmma lowering),
hand-written PTX with cp.async, ldmatrix and mma.sync (the ptx lowering),
and Hopper's TMA, mbarriers and wgmma.mma_async (the wgmma lowering).

  scripts/study.py prepare [DIR]        here (LLVM/MLIR, no GPU): compile the
                                        study's kernels to PTX + manifest
                                        under DIR (default build/study), with
                                        ptxas -v registers and spills
                                        (DIR/ptxas.csv: wmma and ptx for
                                        sm_89 and sm_90, wgmma for sm_90a)
                                        and the list of runs (DIR/plan.txt)
  scripts/study.py run [DIR]            on the GPU host (CUDA, cmake, ninja):
                                        build tgemm-run as scripts/gpu-suite.sh
                                        does, run every plan line with --check
                                        (cuBLAS/cuBLASLt timed in the same
                                        process) into DIR/study.csv, the whole
                                        plan --repeats times round by round,
                                        print the headline tables
  scripts/study.py report CSV [OUTDIR]  here: OUTDIR/README.md (default
                                        docs/study) with the tables and PNG
                                        plots (matplotlib)

The sweep: every precision through the three families (WMMA has no fp8,
wgmma no s4) at the square sizes 1024-8192 and the LLM shapes, one kernel
per precision, family and config (dynamic sizes, so one kernel serves every
shape). wmma and ptx compile for the GPU's chip (--chip, sm_90), wgmma for
sm_90a (its PTX runs on the H200). The config is the one the tuned database
(configs/h200.json) gives for the shape (nearest entry in log space, as the
compiler's `config auto` picks it), else the family's default: for wmma and
ptx the GPU suite's (the first line per precision in scripts/gpu-suite.sh),
for wgmma the compiler's (gemmbench.precisions.wgmma_default). The
ablation switches one feature off at a time at 8192^3: by default ptx's and
wmma's; wgmma's schedule (no-tma, no-warp-specialize, no-persistent,
no-tma-store) on request.
"""
import argparse
import collections
import csv
import os
import shutil
import sys

from gemmbench import configdb, results
from gemmbench.kernels import (Kernel, compile_many, default_jobs,
                               find_tools, require_tools,
                               shape_breaks_requires)
from gemmbench.plan import (PlanLine, estimate_plan, parse_shape,
                            shape_text, write_plan)
from gemmbench.precisions import (BY_NAME, CEILING_NOTES, DATASHEET_NOTE,
                                  FAMILIES, PRECISIONS, REPO, by_types,
                                  ceiling, config_tag, datasheet_peak,
                                  has_lowering, kernel_chip, select,
                                  suite_defaults, wgmma_default)
from gemmbench.runner import run_directory

SHAPES = ["1024x1024x1024", "2048x2048x2048", "4096x4096x4096",
          "8192x8192x8192", "4096x11008x4096", "4096x4096x11008",
          "16x4096x4096", "128x4096x4096"]
HEADLINE = "8192x8192x8192"
# Each feature switched off alone: (variant, pipeline options, what the
# table calls it). A variant equal to the baseline is left out
# (swizzle-xor exists only for a baseline that is not xor).
WITHOUT_TMA = (("cluster", "1"), ("setmaxnreg", "false"),
               ("tma-store", "false"))
ABLATIONS = [
    ("no-async-copy", (("async-copy", "false"),), "cp.async off"),
    ("no-ldmatrix", (("ldmatrix", "false"),), "ldmatrix off"),
    ("swizzle-none", (("swizzle", "none"),), "swizzle none"),
    ("swizzle-pad", (("swizzle", "pad"),), "swizzle pad"),
    ("swizzle-xor", (("swizzle", "xor"),), "swizzle xor"),
    # One stage: synchronous copies, no pipelining at all (the pipeline
    # accepts stages=1); two: double buffering only.
    ("stages-1", (("stages", "1"),), "1 stage"),
    ("stages-2", (("stages", "2"),), "2 stages"),
    # wgmma's producer warpgroup copying with cp.async instead of TMA (and
    # so without what needs TMA: the TMA store, setmaxnreg, clusters); no
    # producer at all (every warp copies with cp.async, then multiplies).
    ("no-tma", (("tma", "false"),) + WITHOUT_TMA, "TMA off"),
    ("no-warp-specialize", (("tma", "false"), ("warp-specialize", "false"))
     + WITHOUT_TMA, "no producer warpgroup"),
    # wgmma's other schedule features, where the database turned them on:
    # one block per tile instead of a persistent grid; C stored by the
    # consumers' threads instead of through a tensor map.
    ("no-persistent", (("persistent", "false"),), "one block per tile"),
    ("no-tma-store", (("tma-store", "false"),), "TMA store off"),
]
ABLATION_LABELS = {name: label for name, _, label in ABLATIONS}
# The variants each family has: every ptx switch; wmma's copies through
# registers instead of cp.async (what ptx's async-copy=false does too);
# wgmma's copy schedule.
FAMILY_ABLATIONS = {
    "ptx": ["no-async-copy", "no-ldmatrix", "swizzle-none", "swizzle-pad",
            "swizzle-xor", "stages-1", "stages-2"],
    "wmma": ["no-async-copy"],
    "wgmma": ["no-tma", "no-warp-specialize", "no-persistent",
              "no-tma-store"],
}
# The pipeline's schedule where no option overrides it, in the switches the
# ablations turn (tgemm::defaultSchedule, lib/Target/Legality.cpp); options
# equal to it are left out of kernel names.
PIPELINE_DEFAULTS = {"async-copy": "true", "ldmatrix": "true",
                     "swizzle": "xor"}
WGMMA_DEFAULTS = {"warp-specialize": "true", "tma": "true",
                  "setmaxnreg": "false", "persistent": "false",
                  "cluster": "1", "tma-store": "false"}
TAGS = ["precision", "lowering", "variant"]
PTXAS_COLUMNS = ["kernel", "precision", "lowering", "variants", "config",
                 "options", "chip", "status", "registers", "spill_stores",
                 "spill_loads", "dynamic_shared_memory", "message"]
# One repeat of the study should fit ~8 minutes of GPU-host wall time.
RUN_BUDGET_S = 480
# Where a sweep kernel's config comes from, besides the database.
CONFIG_SOURCES = {
    "suite": "scripts/gpu-suite.sh",
    "default": "the wgmma default (lib/Target/DefaultConfigs.cpp)"}


# ---------------------------------------------------------------- prepare


def fresh_dir(path):
    """Empties a previous `prepare`'s folder; refuses any other folder."""
    if os.path.isdir(path) and os.listdir(path):
        if not os.path.exists(os.path.join(path, "plan.txt")):
            raise SystemExit("%s exists and has no plan.txt: not removing it"
                             % path)
        shutil.rmtree(path)
    os.makedirs(os.path.join(path, "src"))


def pipeline_defaults(lowering):
    return WGMMA_DEFAULTS if lowering == "wgmma" else PIPELINE_DEFAULTS


def explicit(lowering, options):
    """Pipeline options without those that repeat the lowering's default,
    so that one kernel has one file name."""
    defaults = pipeline_defaults(lowering)
    return tuple(sorted((k, v) for k, v in options
                        if defaults.get(k) != v))


def baseline_kernel(precision, lowering, shape, db, defaults, chip):
    """The sweep's kernel at `shape` and where its config comes from: the
    database's nearest entry for the GPU's chip ('configs'), else the wgmma
    default ('default') or the GPU suite's ('suite')."""
    entry = configdb.nearest(db, chip, lowering, precision, *shape)
    if entry is not None:
        return Kernel(precision, lowering, configdb.entry_config(entry),
                      explicit(lowering, configdb.entry_options(entry))), \
            "configs"
    if lowering == "wgmma":
        return Kernel(precision, lowering, wgmma_default(precision), ()), \
            "default"
    return Kernel(precision, lowering, defaults[precision.name], ()), "suite"


def ablation_kernels(base, names):
    """(variant, kernel) for each ablation in `names` that differs from the
    baseline kernel `base`."""
    options = dict(base.options)
    current = dict(pipeline_defaults(base.lowering),
                   stages=str(base.config.stages))
    current.update(options)
    out = []
    for name, switched, _ in ABLATIONS:
        if name not in names or all(current.get(option) == value
                                    for option, value in switched):
            continue
        changed = dict(options)
        changed.update(switched)
        out.append((name, base._replace(options=explicit(
            base.lowering, changed.items()))))
    return out


def compile_chips(lowering, chip, ptxas_chips):
    """The chips a family's kernels compile for, the one they run on first:
    wgmma's only for sm_90a; the others also for each of ptxas_chips."""
    run_chip = kernel_chip(lowering, chip)
    if lowering == "wgmma":
        return [run_chip]
    return [run_chip] + [c for c in ptxas_chips if c != run_chip]


def chips_text(chips_of):
    """'wmma, ptx for sm_90, sm_89; wgmma for sm_90a' from {lowering:
    chips}."""
    groups = collections.OrderedDict()
    for lowering in FAMILIES:
        if lowering in chips_of:
            groups.setdefault(tuple(chips_of[lowering]), []).append(lowering)
    return "; ".join("%s for %s" % (", ".join(lowerings), ", ".join(chips))
                     for chips, lowerings in groups.items())


def print_progress(done, total, job, result):
    """One line per finished compile: '[12/216] compiled STEM for CHIP:
    STATUS'."""
    kernel, chip = job[0], job[1]
    print("[%d/%d] compiled %s for %s: %s" % (
        done, total, kernel.stem(), chip, result["status"]))
    sys.stdout.flush()


def prepare(args):
    if args.jobs < 1:
        raise SystemExit("--jobs must be 1 or more")
    tools = find_tools(args.bin, args.ptxas)
    require_tools(tools)
    precisions = select(args.only)
    lowerings = [l for l in args.lowerings.split(",") if l]
    unknown = set(lowerings) - set(FAMILIES)
    if unknown:
        raise SystemExit("unknown lowering %s; known: %s" % (
            ", ".join(sorted(unknown)), " ".join(FAMILIES)))
    shapes = [parse_shape(s) for s in args.shapes.split(",") if s]
    ablation_shape = parse_shape(args.ablation_shape)
    names = [n for n in args.ablation.split(",") if n and n != "none"]
    unknown = set(names) - set(ABLATION_LABELS)
    if unknown:
        raise SystemExit("unknown ablation %s; known: %s" % (
            ", ".join(sorted(unknown)), " ".join(ABLATION_LABELS)))
    db_path = None if args.configs == "none" else args.configs
    db = configdb.load(db_path) if db_path else None
    defaults = suite_defaults()
    fresh_dir(args.dir)

    # (kernel, shape, variant) per run; kernels by file stem.
    runs, kernels, sources = [], {}, collections.Counter()
    for p in precisions:
        for lowering in lowerings:
            if not has_lowering(p, lowering):
                continue
            for shape in shapes:
                kernel, source = baseline_kernel(p, lowering, shape, db,
                                                 defaults, args.chip)
                runs.append((kernel, shape, "baseline"))
                sources[source] += 1
            switched = [n for n in names if n in FAMILY_ABLATIONS[lowering]]
            if switched:
                base, _ = baseline_kernel(p, lowering, ablation_shape, db,
                                          defaults, args.chip)
                if ablation_shape not in shapes:
                    runs.append((base, ablation_shape, "baseline"))
                for variant, kernel in ablation_kernels(base, switched):
                    runs.append((kernel, ablation_shape, variant))
    variants = collections.defaultdict(set)
    for kernel, _, variant in runs:
        kernels[kernel.stem()] = kernel
        variants[kernel.stem()].add(variant)
    stems = sorted(kernels)
    ptxas_chips = [c for c in args.ptxas_chips.split(",") if c]
    chips_of = {l: compile_chips(l, args.chip, ptxas_chips)
                for l in {k.lowering for k in kernels.values()}}
    print("== compiling %d kernels: %s (%d jobs at a time)" % (
        len(stems), chips_text(chips_of), args.jobs))
    sys.stdout.flush()
    jobs = []
    for stem in stems:
        kernel = kernels[stem]
        run_chip = kernel_chip(kernel.lowering, args.chip)
        with open(os.path.join(args.dir, "src", stem + ".mlir"), "w") as f:
            f.write("// tgemm-opt --tgemm-pipeline=\"lowering=%s chip=%s%s\""
                    "\n" % (kernel.lowering, run_chip,
                            " " + kernel.option_string()
                            if kernel.options else ""))
            f.write(kernel.source())
        for chip in chips_of[kernel.lowering]:
            out_stem = os.path.join(args.dir, stem) if chip == run_chip \
                else None
            jobs.append((kernel, chip, tools, out_stem))
    compiled = compile_many(jobs, args.jobs, progress=print_progress)

    failed = set()
    with open(os.path.join(args.dir, "ptxas.csv"), "w") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(PTXAS_COLUMNS)
        for (kernel, chip, _, _), r in zip(jobs, compiled):
            writer.writerow([
                kernel.stem(), kernel.precision.name, kernel.lowering,
                " ".join(sorted(variants[kernel.stem()])),
                config_tag(kernel.config),
                " ".join("%s=%s" % kv for kv in kernel.options), chip,
                r["status"]] + ["" if r[key] is None else str(r[key]) for key
                                in ("registers", "spill_stores",
                                    "spill_loads", "smem")] +
                [r["message"]])
            spills = (r["spill_stores"] or 0) + (r["spill_loads"] or 0)
            if r["status"] != "ok":
                print("%s %s: %s: %s" % (kernel.stem(), chip, r["status"],
                                         r["message"]))
                if chip == kernel_chip(kernel.lowering, args.chip):
                    failed.add(kernel.stem())
            elif spills:
                print("%s %s: spills (%d bytes stored, %d loaded)" % (
                    kernel.stem(), chip, r["spill_stores"], r["spill_loads"]))

    lines, skipped = [], []
    for kernel, shape, variant in runs:
        stem = kernel.stem()
        if stem in failed:
            continue
        why = shape_breaks_requires(os.path.join(args.dir, stem + ".json"),
                                    *shape)
        if why:
            skipped.append("%s at %s: %s" % (stem, shape_text(*shape), why))
            continue
        lines.append(PlanLine(stem + ".ptx", stem + ".json", shape[0],
                              shape[1], shape[2], collections.OrderedDict(
                                  [("precision", kernel.precision.name),
                                   ("lowering", kernel.lowering),
                                   ("variant", variant)])))
    estimate = estimate_plan(lines)
    run_chips = chips_text({l: chips[:1] for l, chips in chips_of.items()})
    write_plan(os.path.join(args.dir, "plan.txt"), TAGS, lines, [
        "tgemm study plan (scripts/study.py prepare): %d runs of %d kernels "
        "compiled: %s" % (len(lines), len(stems) - len(failed), run_chips),
        "configs of the sweep's runs: %s" % (", ".join("%d from %s" % (
            n, CONFIG_SOURCES.get(s, db_path))
            for s, n in sorted(sources.items()))),
        "estimated GPU-host time: %.0f s per repeat (tgemm-run --reps 20 "
        "--warmup 5 per line)" % estimate])
    for text in skipped:
        print("skipped: " + text)
    print("== %s/plan.txt: %d runs (%d sweep, %d ablation), %d kernels; "
          "configs: %s" % (args.dir, len(lines),
                           sum(1 for l in lines if l.tags["variant"] ==
                               "baseline"),
                           sum(1 for l in lines if l.tags["variant"] !=
                               "baseline"),
                           len(stems) - len(failed),
                           ", ".join("%s %d" % kv
                                     for kv in sorted(sources.items()))))
    print("== estimated run time on the GPU host: %.0f s (%.1f min) per "
          "repeat, plus building tgemm-run" % (estimate, estimate / 60))
    if estimate > RUN_BUDGET_S:
        print("warning: over the %d s budget; trim with --shapes, --only or "
              "--ablation" % RUN_BUDGET_S)
    if failed:
        print("error: %d kernels did not compile for the chip they run on "
              "(%s); plan.txt leaves them out (DIR/ptxas.csv has the "
              "messages)" % (len(failed), run_chips))
        return 1
    return 0


# -------------------------------------------------------------------- run


def run(args):
    if args.repeats < 1:
        raise SystemExit("--repeats must be 1 or more")
    csv_path, status = run_directory(args, "study.py", "study.csv",
                                     repeats=args.repeats)
    rows = results.load(csv_path)
    if rows:
        print()
        print("\n".join(headline_table(rows, headline_shape(rows))))
        ptxas_path = os.path.join(args.dir, "ptxas.csv")
        ptxas = load_ptxas(ptxas_path)[0] if os.path.exists(ptxas_path) \
            else None
        for lowering in ABLATED:
            ablation = ablation_table(rows, ptxas, lowering)
            if ablation:
                print()
                print("\n".join(ablation))
    return status


# ----------------------------------------------------------------- report

# The families compared pairwise: the first one's rate over the second's.
FAMILY_PAIRS = [("ptx", "wmma"), ("wgmma", "wmma"), ("wgmma", "ptx")]
# The ablation tables, in the report's order.
ABLATED = ("ptx", "wmma", "wgmma")
# One colour and marker per family (and the library) in every plot.
COLOURS = {"wmma": "tab:blue", "ptx": "tab:orange", "wgmma": "tab:green",
           "library": "tab:gray"}
MARKERS = {"wmma": "o", "ptx": "s", "wgmma": "D", "library": "^"}
LIBRARY_OFF_AXIS = 4.0


def fmt(value, pattern="%.1f"):
    return "—" if value is None else pattern % value


def ratio(a, b):
    if a is None or b is None or not b:
        return None
    return a / b


def precision_of(row):
    name = row.get("precision")
    if name in BY_NAME:
        return BY_NAME[name]
    return by_types(row["a"], row["b"], row["acc"], row["c"])


class Study(object):
    """The rows of a study CSV, indexed for the tables: a cell is a
    precision, lowering, variant and shape; its rows are the runs of its
    kernels, each in every repeat of the plan."""

    def __init__(self, rows):
        self.rows = rows
        self.repeats = results.repeats(rows)
        self.cells = collections.defaultdict(list)
        for row in rows:
            p = precision_of(row)
            if p is None:
                continue
            self.cells[(p.name, row["lowering"], row.get("variant") or
                        "baseline", results.shape(row))].append(row)

    def precisions(self):
        present = {key[0] for key in self.cells}
        return [p for p in PRECISIONS if p.name in present]

    def shapes(self, precision, variant="baseline"):
        return sorted({key[3] for key in self.cells
                       if key[0] == precision and key[2] == variant})

    def measure(self, precision, lowering, shape, variant="baseline"):
        """The results.Measure of the cell's kernel with the highest median
        rate over the repeats, or None."""
        return results.best_kernel(self.cells.get(
            (precision, lowering, variant, shape), []))

    def best(self, precision, lowering, shape, variant="baseline"):
        m = self.measure(precision, lowering, shape, variant)
        return m.row if m else None

    def rate(self, precision, lowering, shape, variant="baseline"):
        m = self.measure(precision, lowering, shape, variant)
        return m.rate if m else None

    def library_rates(self, precision, shape):
        """The library rates timed beside this precision's sweep kernels at
        this shape (every family and repeat), and the library's name."""
        rows = [r for key, rs in self.cells.items()
                if key[0] == precision and key[2] == "baseline" and
                key[3] == shape for r in rs]
        names = collections.Counter(r["anchor"] for r in rows if r["anchor"])
        name = sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] \
            if names else ""
        return [r["anchor_rate"] for r in rows
                if r["anchor_rate"] is not None], name

    def library(self, precision, shape):
        """The median of library_rates, and the library's name."""
        rates, name = self.library_rates(precision, shape)
        return results.median(rates), name

    def variants(self, precision):
        return sorted({key[2] for key in self.cells
                       if key[0] == precision and key[2] != "baseline"})

    def spread(self, lowering):
        """The largest spread over the repeats of any sweep kernel of the
        lowering (highest minus lowest rate, over the median), or None."""
        spreads = []
        for precision, family, variant, shape in self.cells:
            if family == lowering and variant == "baseline":
                m = self.measure(precision, lowering, shape)
                if m is not None and m.count > 1:
                    spreads.append((m.high - m.low) / m.rate)
        return max(spreads) if spreads else None

    def library_spread(self):
        """The same for the library's rates per precision and shape."""
        spreads = []
        for p in self.precisions():
            for shape in self.shapes(p.name):
                rates, _ = self.library_rates(p.name, shape)
                if len(rates) > 1:
                    spreads.append((max(rates) - min(rates)) /
                                   results.median(rates))
        return max(spreads) if spreads else None


def config_of(row):
    """128x128x32_w2x2_s3_r1 from the kernel name."""
    if row is None:
        return "—"
    name = row["kernel"]
    if name.endswith("_kernel"):
        name = name[:-len("_kernel")]
    p = precision_of(row)
    prefix = p.name.replace("-", "_") + "_" if p else ""
    return name[len(prefix):] if name.startswith(prefix) else name


def load_ptxas(path):
    """ptxas.csv of `prepare` as {(precision, lowering, variant, config,
    chip): row}, and its rows."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    index = {}
    for r in rows:
        for variant in r.get("variants", "").split():
            index[(r["precision"], r["lowering"], variant, r["config"],
                   r["chip"])] = r
    return index, rows


def spills(ptxas_row):
    if ptxas_row is None or ptxas_row["status"] != "ok":
        return False
    return int(ptxas_row["spill_stores"] or 0) + int(
        ptxas_row["spill_loads"] or 0) > 0


def ptxas_of(ptxas, row):
    """The ptxas.csv line of the kernel of a result row, or None."""
    if not ptxas or row is None:
        return None
    p = precision_of(row)
    return ptxas.get((p.name if p else "", row["lowering"],
                      row.get("variant") or "baseline",
                      config_of(row).replace("_", "-"), row["chip"]))


def ptxas_table(rows):
    chips = sorted({r["chip"] for r in rows})
    cells = collections.OrderedDict()
    for r in sorted(rows, key=lambda r: r["kernel"]):
        key = (r["kernel"], r.get("variants", ""))
        if r["status"] != "ok":
            text = r["status"]
        else:
            text = "%s" % r["registers"]
            if spills(r):
                text += ", spills %s/%s B" % (r["spill_stores"],
                                              r["spill_loads"])
        cells.setdefault(key, {})[r["chip"]] = text
    out = ["| kernel | variants | %s |" % " | ".join(chips),
           "| --- | --- | %s |" % " | ".join("---:" for _ in chips)]
    for (kernel, variants), by_chip in cells.items():
        out.append("| %s | %s | %s |" % (kernel, variants, " | ".join(
            by_chip.get(c, "—") for c in chips)))
    return out


def headline_shape(rows):
    shapes = {results.shape(r) for r in rows}
    wanted = parse_shape(HEADLINE)
    if wanted in shapes:
        return wanted
    squares = sorted(s for s in shapes if s[0] == s[1] == s[2])
    return squares[-1] if squares else max(shapes)


def speedups(study, precision, shape):
    """The rate ratio of each of FAMILY_PAIRS, or None where one lacks
    it."""
    rates = {l: study.rate(precision, l, shape) for l in FAMILIES}
    return [ratio(rates[a], rates[b]) for a, b in FAMILY_PAIRS]


def library_ratios(study, precision, shape):
    """Each family's rate over the library's timed in the same run, the
    median over its runs."""
    out = []
    for lowering in FAMILIES:
        m = study.measure(precision, lowering, shape)
        out.append(m.ratio if m else None)
    return out


def has_any(study, precision, shape):
    return any(study.rate(precision, l, shape) is not None
               for l in FAMILIES)


def table_head(first, columns, text_columns=()):
    """A markdown header: `first`, then `columns` right-aligned, then
    `text_columns` left-aligned."""
    return ["| %s |" % " | ".join([first] + list(columns) +
                                  list(text_columns)),
            "| --- |" + " ---: |" * len(columns) +
            " --- |" * len(text_columns)]


def pair_names():
    return ["%s / %s" % pair for pair in FAMILY_PAIRS]


def headline_table(rows, shape):
    """The three families per precision at `shape`: rates, each over the
    library timed in the same runs, and the speedups between them."""
    study = Study(rows)
    out = ["M x N x K = %s (TFLOP/s; TOP/s for integers). FAMILY / library "
           "is the family's rate over the library's timed in the same runs "
           "(median over them)." % shape_text(*shape), ""]
    out += table_head("precision", list(FAMILIES) + ["library"] +
                      ["%s / library" % l for l in FAMILIES] +
                      pair_names())
    for p in study.precisions():
        if not has_any(study, p.name, shape):
            continue
        library, _ = study.library(p.name, shape)
        cells = [fmt(study.rate(p.name, l, shape)) for l in FAMILIES]
        cells += [fmt(library)]
        cells += [fmt(r, "%.2f") for r in library_ratios(study, p.name,
                                                          shape)]
        cells += [fmt(s, "%.2f×") for s in speedups(study, p.name, shape)]
        out.append("| %s | %s |" % (p.label, " | ".join(cells)))
    return out


def percent(rate, limit):
    return fmt(None if rate is None or limit is None
               else 100.0 * rate / limit, "%.0f%%")


def ceilings_table(study, shape):
    """At `shape`: wmma's and ptx's share of their instruction's issue
    ceiling, and every family's and the library's share of the chip's
    dense datasheet peak."""
    out = table_head("precision", [
        "wmma ceiling", "mma.sync ceiling", "dense peak",
        "wmma % of ceiling", "ptx % of ceiling"] +
        ["%s %% of peak" % l for l in FAMILIES] + ["library % of peak"])
    for p in study.precisions():
        if not has_any(study, p.name, shape):
            continue
        rates = {l: study.rate(p.name, l, shape) for l in FAMILIES}
        library, _ = study.library(p.name, shape)
        peak = datasheet_peak(p.name)
        wmma_ceiling, ptx_ceiling = (ceiling(p.name, "wmma"),
                                     ceiling(p.name, "ptx"))
        cells = [fmt(wmma_ceiling, "%.0f"), fmt(ptx_ceiling, "%.0f"),
                 fmt(peak), percent(rates["wmma"], wmma_ceiling),
                 percent(rates["ptx"], ptx_ceiling)]
        cells += [percent(rates[l], peak) for l in FAMILIES]
        cells += [percent(library, peak)]
        out.append("| %s | %s |" % (p.label, " | ".join(cells)))
    return out


def ablation_shape_of(study, precision, lowering="ptx"):
    shapes = collections.Counter(
        key[3] for key, rows in study.cells.items()
        if key[0] == precision and key[1] == lowering and
        key[2] != "baseline")
    return sorted(shapes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] \
        if shapes else None


def ablation_table(rows, ptxas=None, lowering="ptx"):
    """`lowering` with one feature off, relative to its baseline, per
    precision; with ptxas.csv's index, kernels that spill are marked."""
    study = Study(rows)
    variants = [name for name in FAMILY_ABLATIONS[lowering]
                if any(key[1] == lowering and key[2] == name
                       for key in study.cells)]
    if not variants:
        return []
    shapes = {ablation_shape_of(study, p.name, lowering)
              for p in study.precisions()}
    shapes.discard(None)
    out = ["%s with one feature off, relative to the %s baseline at %s "
           "(baseline in TFLOP/s or TOP/s)" % (lowering, lowering, ", ".join(
               shape_text(*s) for s in sorted(shapes))), "",
           "| precision | baseline | %s |" % " | ".join(
               ABLATION_LABELS[v] for v in variants),
           "| --- | ---: | %s |" % " | ".join("---:" for _ in variants)]
    for p in study.precisions():
        shape = ablation_shape_of(study, p.name, lowering)
        if shape is None:
            continue
        base = study.rate(p.name, lowering, shape)
        cells = []
        for v in variants:
            m = study.measure(p.name, lowering, shape, v)
            cell = fmt(ratio(m.rate if m else None, base), "%.2f×")
            if spills(ptxas_of(ptxas, m.row if m else None)):
                cell += " (spills)"
            cells.append(cell)
        out.append("| %s | %s | %s |" % (p.label, fmt(base),
                                         " | ".join(cells)))
    if ptxas:
        out += ["", "(spills): ptxas -v reports register spills for that "
                "kernel on its chip (Registers and spills, below)."]
    return out


def ceilings_line(p, library_name):
    """The per-precision line of ceilings, peak and library."""
    wmma_ceiling = fmt(ceiling(p.name, "wmma"), "%.0f") \
        if has_lowering(p, "wmma") else "none (WMMA has no fp8)"
    peak = datasheet_peak(p.name)
    return "Ceilings: mma.sync %s, wmma %s%s; dense peak %s. Library: %s." % (
        fmt(ceiling(p.name, "ptx"), "%.0f"), wmma_ceiling,
        "; " + CEILING_NOTES[p.name] if p.name in CEILING_NOTES else "",
        fmt(peak) if peak is not None else "none (no 4-bit rate)",
        library_name or "none")


def precision_table(study, p):
    peak = datasheet_peak(p.name)
    out = table_head("shape", list(FAMILIES) + ["library"] +
                     ["%s / library" % l for l in FAMILIES] +
                     pair_names() +
                     ["wmma % of ceiling", "ptx % of ceiling",
                      "wgmma % of peak"],
                     ["%s config" % l for l in FAMILIES])
    for shape in study.shapes(p.name):
        rates = {l: study.rate(p.name, l, shape) for l in FAMILIES}
        library, _ = study.library(p.name, shape)
        cells = [fmt(rates[l]) for l in FAMILIES] + [fmt(library)]
        cells += [fmt(r, "%.2f") for r in library_ratios(study, p.name,
                                                          shape)]
        cells += [fmt(s, "%.2f×") for s in speedups(study, p.name, shape)]
        cells += [percent(rates["wmma"], ceiling(p.name, "wmma")),
                  percent(rates["ptx"], ceiling(p.name, "ptx")),
                  percent(rates["wgmma"], peak)]
        cells += [config_of(study.best(p.name, l, shape)) for l in FAMILIES]
        out.append("| %s | %s |" % (shape_text(*shape), " | ".join(cells)))
    return out


def flops_order(shape):
    return (shape[0] * shape[1] * shape[2], shape)


def save(fig, path, plt):
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


def plot_series(ax, x, points, name, label, errors, style="-"):
    """One line of (median, lowest, highest) points (None: no point), with
    error bars from lowest to highest when `errors`; returns the values it
    spans."""
    nan = float("nan")
    ys = [p[0] if p else nan for p in points]
    yerr = None
    if errors:
        yerr = [[p[0] - p[1] if p else nan for p in points],
                [p[2] - p[0] if p else nan for p in points]]
    ax.errorbar(x, ys, yerr=yerr, marker=MARKERS[name], color=COLOURS[name],
                linestyle=style, capsize=3, label=label)
    return [v for p in points if p for v in p]


def plot_throughput(study, p, path, plt):
    """Rate by shape per family and the library, one colour each, on a
    linear axis over the range of the data and the ceilings. A library more
    than LIBRARY_OFF_AXIS times faster than every family (s4, whose library
    is the s8 GEMM) would flatten them: the axis leaves it out and its
    legend entry says so."""
    from matplotlib.container import ErrorbarContainer
    shapes = sorted(study.shapes(p.name), key=flops_order)
    x = list(range(len(shapes)))
    errors = study.repeats >= 2
    unit = "TOP/s" if p.acc == "s32" else "TFLOP/s"
    fig, ax = plt.subplots(figsize=(8, 5.4))
    spanned = []
    for lowering in FAMILIES:
        measures = [study.measure(p.name, lowering, s) for s in shapes]
        if not any(measures):
            continue
        spanned += plot_series(ax, x, [(m.rate, m.low, m.high) if m else None
                                       for m in measures], lowering,
                               lowering, errors)
    libs = [study.library_rates(p.name, s) for s in shapes]
    names = sorted({name for _, name in libs if name})
    points = [(results.median(rates), min(rates), max(rates)) if rates
              else None for rates, _ in libs]
    lowest = min([q[1] for q in points if q] or [0.0])
    off_axis = spanned and lowest > LIBRARY_OFF_AXIS * max(spanned)
    label = "library: %s" % ("; ".join(names) or "none")
    if off_axis:
        label += " (%.0f-%.0f, above the axis)" % (
            lowest, max(q[2] for q in points if q))
    drawn = plot_series(ax, x, points, "library", label, errors, "--")
    if not off_axis:
        spanned += drawn
    for lowering, style, name in (("wmma", "-.", "wmma ceiling"),
                                  ("ptx", ":", "mma.sync ceiling")):
        value = ceiling(p.name, lowering)
        if value is not None and has_lowering(p, lowering):
            ax.axhline(value, linestyle=style, color=COLOURS[lowering],
                       linewidth=1, label="%s (%.0f)" % (name, value))
            spanned.append(value)
    peak = datasheet_peak(p.name)
    if peak is not None:
        ax.axhline(peak, linestyle="--", color="black", linewidth=1,
                   label="dense peak, datasheet (%.1f)" % peak)
        spanned.append(peak)
    if spanned:
        low, high = min(spanned), max(spanned)
        margin = 0.08 * (high - low) or 0.1 * high or 1.0
        ax.set_ylim(max(0.0, low - margin), high + margin)
    ax.set_xticks(x)
    ax.set_xticklabels([shape_text(*s) for s in shapes], rotation=30,
                       ha="right", fontsize=8)
    ax.set_ylabel(unit)
    ax.set_title("%s: throughput by shape (M x N x K)%s" % (
        p.label, "; medians, bars lowest to highest of %d repeats" %
        study.repeats if errors else ""), fontsize=10)
    # The families and the library first, then the horizontal lines.
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(handles)), key=lambda i: not isinstance(
        handles[i], ErrorbarContainer))
    ax.legend([handles[i] for i in order], [labels[i] for i in order],
              fontsize=8, ncol=2, loc="upper center",
              bbox_to_anchor=(0.5, -0.24))
    ax.grid(True, axis="y", alpha=0.3)
    save(fig, path, plt)


def plot_bars(groups, series, values, ylabel, title, path, plt,
              colours=None, ranges=None):
    """Grouped bars: values[(group, series)] or None, each series in
    colours[series] where given, with error bars from ranges[(group,
    series)] = (lowest, highest) where given; a line at 1."""
    fig, ax = plt.subplots(figsize=(9, 4.2))
    width = 0.8 / max(1, len(series))
    top = 1.0
    for j, name in enumerate(series):
        xs = [i + (j - (len(series) - 1) / 2.0) * width
              for i in range(len(groups))]
        keys = [(g, name) for x, g in zip(xs, groups)
                if values.get((g, name)) is not None]
        heights = [values[k] for k in keys]
        yerr = None
        if ranges:
            yerr = [[values[k] - ranges[k][0] for k in keys],
                    [ranges[k][1] - values[k] for k in keys]]
            top = max([top] + [ranges[k][1] for k in keys])
        top = max([top] + heights)
        ax.bar([x for x, g in zip(xs, groups)
                if values.get((g, name)) is not None], heights, width,
               yerr=yerr, capsize=2, label=name,
               color=colours.get(name) if colours else None)
    ax.axhline(1.0, color="black", linewidth=1)
    ax.set_ylim(0, top * 1.3)  # room for the legend above the bars
    ax.set_xticks(list(range(len(groups))))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=4, loc="upper center")
    ax.grid(True, axis="y", alpha=0.3)
    save(fig, path, plt)


def plot_ratios(study, shape, path, plt):
    """Each family's rate over the library's in the same runs, per
    precision at `shape`."""
    precisions = [p for p in study.precisions()
                  if has_any(study, p.name, shape)]
    values, ranges = {}, {}
    for p in precisions:
        for lowering in FAMILIES:
            m = study.measure(p.name, lowering, shape)
            if m is None or m.ratio is None:
                continue
            values[(p.label, lowering)] = m.ratio
            ranges[(p.label, lowering)] = (m.ratio_low, m.ratio_high)
    plot_bars([p.label for p in precisions], list(FAMILIES), values,
              "rate / library (same runs)",
              "each family over cuBLAS/cuBLASLt at %s%s" % (
                  shape_text(*shape), ", bars lowest to highest of %d "
                  "repeats" % study.repeats if study.repeats >= 2 else ""),
              path, plt, COLOURS, ranges if study.repeats >= 2 else None)


def plot_speedups(study, shape, path, plt):
    """A heatmap of FAMILY_PAIRS x precisions at `shape`: colour on a log2
    scale centred at 1x, each cell annotated."""
    import math
    import matplotlib
    precisions = [p for p in study.precisions()
                  if has_any(study, p.name, shape)]
    table = [[None] * len(precisions) for _ in FAMILY_PAIRS]
    for j, p in enumerate(precisions):
        for i, value in enumerate(speedups(study, p.name, shape)):
            table[i][j] = value
    logs = [[math.log2(v) if v else float("nan") for v in row]
            for row in table]
    limit = max([abs(v) for row in logs for v in row if v == v] + [0.25])
    cmap = matplotlib.colormaps["RdBu"].copy()
    cmap.set_bad("lightgray")
    fig, ax = plt.subplots(figsize=(2.0 + 1.0 * len(precisions), 2.8))
    image = ax.imshow(logs, cmap=cmap, vmin=-limit, vmax=limit,
                      aspect="auto")
    for i, row in enumerate(table):
        for j, value in enumerate(row):
            dark = value is not None and abs(logs[i][j]) > 0.6 * limit
            ax.text(j, i, fmt(value, "%.2f×"), ha="center", va="center",
                    fontsize=9, color="white" if dark else "black")
    ax.set_xticks(list(range(len(precisions))))
    ax.set_xticklabels([p.label for p in precisions], rotation=30,
                       ha="right", fontsize=8)
    ax.set_yticks(list(range(len(FAMILY_PAIRS))))
    ax.set_yticklabels(pair_names(), fontsize=9)
    bar = fig.colorbar(image, ax=ax)
    ticks = [t for t in (0.25, 0.5, 0.8, 1.0, 1.25, 2.0, 4.0)
             if abs(math.log2(t)) <= limit]
    bar.set_ticks([math.log2(t) for t in ticks])
    bar.set_ticklabels(["%g×" % t for t in ticks])
    ax.set_title("speedups at %s (median rates)" % shape_text(*shape),
                 fontsize=9)
    save(fig, path, plt)


def plot_ablation(study, path, plt):
    """ptx with one feature off, over its baseline, per precision."""
    variants = [name for name in FAMILY_ABLATIONS["ptx"]
                if any(name in study.variants(p.name)
                       for p in study.precisions())]
    values = {}
    for p in study.precisions():
        s = ablation_shape_of(study, p.name)
        if s is None:
            continue
        base = study.rate(p.name, "ptx", s)
        for v in variants:
            values[(p.label, ABLATION_LABELS[v])] = ratio(
                study.rate(p.name, "ptx", s, v), base)
    plot_bars([p.label for p in study.precisions()
               if ablation_shape_of(study, p.name)],
              [ABLATION_LABELS[v] for v in variants], values,
              "rate / ptx baseline", "ptx with one feature off", path, plt)


def spread_text(study):
    """How far the repeats spread, per family and the library."""
    parts = ["%s %s" % (l, fmt(study.spread(l) and 100 * study.spread(l),
                                "%.1f%%"))
             for l in FAMILIES]
    library = study.library_spread()
    parts.append("library %s" % fmt(library and 100 * library, "%.1f%%"))
    return ("Spread over the %d repeats (highest minus lowest rate over the "
            "median), the largest of any sweep kernel: %s." % (
                study.repeats, ", ".join(parts)))


def intro(study, args, rows, failed):
    devices = results.devices(rows)
    out = ["GPU: %s. Generated by `scripts/study.py report %s` from %d runs%s;"
           " failed checks: %d." % (
               ", ".join(devices) or "unknown", os.path.basename(args.csv),
               len(rows), ", %d repeats of the plan" % study.repeats
               if study.repeats > 1 else "", len(failed)), "",
           "Each run of `tgemm-run` times the kernel and the library in the "
           "same process, reports the median of its timed repetitions (L2 "
           "flushed between them) and checks the kernel's output against "
           "the reference; runs that failed their check are left out. With "
           "repeats (the whole plan run round by round, the `repeat` "
           "column), a kernel's rate is the median over its repeats and the "
           "plots' error bars span the lowest to the highest; FAMILY / "
           "library is the median over those runs of the kernel's rate over "
           "the library's in the same run. \"library\" is cuBLAS/cuBLASLt "
           "(for u8, s4 and e5m2, which no library computes, the s8 or e4m3 "
           "GEMM of the same size). The kernels have dynamic sizes; each "
           "precision and family uses one tile config per shape (config "
           "columns), compiled: %s. "
           "Ceilings are the issue rates of the mma.sync and wmma "
           "instructions measured on the H200 (registers only, 32 warps per "
           "SM); wgmma has none measured, and every family is also set "
           "against the chip's dense datasheet peak (Ceilings and the "
           "chip's peak, below). All in one unit: TFLOP/s, TOP/s for "
           "integers." % chips_text({
               l: sorted({r["chip"] for r in rows if r["lowering"] == l})
               for l in FAMILIES if any(r["lowering"] == l for r in rows)}),
           ""]
    if study.repeats > 1:
        out += [spread_text(study), ""]
    return out


def import_pyplot():
    """matplotlib.pyplot with the Agg backend, or None after saying on
    stderr why it cannot be imported."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        print("error: the plots need matplotlib, which %s cannot import "
              "(%s); install it (Debian: apt-get install "
              "python3-matplotlib) or pass --no-plots for the tables alone; "
              "nothing was written" % (sys.executable, error),
              file=sys.stderr)
        return None
    return plt


class Staged(object):
    """The report's files, written under temporary names in the output
    folder and renamed into place together by commit(), so that a failure
    leaves the previous report (or none) and no half-written file. The
    temporary names are hidden (.tmp-PID-NAME) and keep NAME's extension,
    which matplotlib's savefig reads the format from."""

    def __init__(self, outdir):
        self.outdir = outdir
        self.created = not os.path.isdir(outdir)
        os.makedirs(outdir, exist_ok=True)
        self.files = []  # (temporary, final)

    def path(self, name):
        final = os.path.join(self.outdir, name)
        temporary = os.path.join(self.outdir, ".tmp-%d-%s" % (os.getpid(),
                                                              name))
        self.files.append((temporary, final))
        return temporary

    def write_text(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())

    def commit(self):
        # The README last: it never links a plot that is not there yet.
        for temporary, final in sorted(
                self.files, key=lambda tf: tf[1].endswith(".md")):
            os.replace(temporary, final)
        self.files = []

    def discard(self):
        for temporary, _ in self.files:
            if os.path.exists(temporary):
                os.unlink(temporary)
        self.files = []
        if self.created and not os.listdir(self.outdir):
            os.rmdir(self.outdir)


def report(args):
    # Whatever can fail for a missing dependency fails before anything is
    # written.
    plt = None
    if not args.no_plots:
        plt = import_pyplot()
        if plt is None:
            return 1
    rows = results.load(args.csv)
    if not rows:
        raise SystemExit("%s: no runs" % args.csv)
    study = Study(rows)
    ptxas_path = args.ptxas
    if ptxas_path is None:
        beside = os.path.join(os.path.dirname(os.path.abspath(args.csv)),
                              "ptxas.csv")
        ptxas_path = beside if os.path.exists(beside) else "none"
    ptxas, ptxas_rows = load_ptxas(ptxas_path) if ptxas_path != "none" \
        else (None, [])
    shape = headline_shape(rows)
    failed = [r for r in rows if r["check"] != "ok"]
    md = ["# The multi-precision study: wmma, ptx and wgmma", ""]
    md += intro(study, args, rows, failed)
    md += ["## Headline", ""] + headline_table(rows, shape) + [""]
    if not args.no_plots:
        md += ["![each family over the library at %s](ratio.png)" %
               shape_text(*shape), "",
               "![speedups between the families at %s](speedup.png)" %
               shape_text(*shape), ""]
    md += ["### Ceilings and the chip's peak", "",
           "At %s: wmma and ptx against the issue ceilings of their "
           "instructions, every family and the library against the %s." % (
               shape_text(*shape), DATASHEET_NOTE), ""] + \
        ceilings_table(study, shape) + [""]
    ablation = ablation_table(rows, ptxas)
    if ablation:
        md += ["## Ablation: one ptx feature off at a time", ""] + ablation + \
            [""]
        if not args.no_plots:
            md += ["![ablation](ablation.png)", ""]
    wmma_ablation = ablation_table(rows, ptxas, "wmma")
    if wmma_ablation:
        md += ["## Ablation: wmma's copies", "",
               "The wmma lowering copies with cp.async (NVVM's "
               "intrinsics, what `__pipeline_memcpy_async` gives a CUDA "
               "programmer); `async-copy=false` copies through registers, "
               "the pre-Ampere WMMA kernel.", ""] + wmma_ablation + [""]
    wgmma_ablation = ablation_table(rows, ptxas, "wgmma")
    if wgmma_ablation:
        md += ["## Ablation: wgmma's schedule", "",
               "The wgmma lowering's default schedule has a producer "
               "warpgroup that copies the tiles with TMA while the config's "
               "warps multiply (mbarriers between them); `tma=false` has "
               "the producer copy with cp.async (and so drops what needs "
               "TMA: the TMA store, setmaxnreg, clusters), "
               "`warp-specialize=false` drops the producer: every warp "
               "copies with cp.async, then multiplies. Where the database "
               "turns them on, `persistent=false` launches one block per "
               "tile instead of a persistent grid, and `tma-store=false` "
               "has the consumers' threads store C instead of bulk tensor "
               "stores from shared memory; — where the baseline has no "
               "such feature.", ""] + wgmma_ablation + [""]
    md += ["## Per precision", ""]
    for p in study.precisions():
        _, library_name = study.library(p.name, shape)
        md += ["### %s" % p.label, "", ceilings_line(p, library_name), ""]
        md += precision_table(study, p) + [""]
        if not args.no_plots:
            md += ["![%s](throughput-%s.png)" % (p.label, p.name), ""]
    if failed:
        md += ["## Failed checks", "",
               "| precision | lowering | variant | shape | repeat | kernel "
               "| check |",
               "| --- | --- | --- | --- | ---: | --- | --- |"]
        for r in sorted(failed, key=lambda r: (r.get("precision", ""),
                                               r["lowering"],
                                               r.get("variant", ""),
                                               results.shape(r),
                                               r.get("repeat", ""))):
            md.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                r.get("precision", ""), r["lowering"], r.get("variant", ""),
                shape_text(*results.shape(r)), r.get("repeat") or "—",
                r["kernel"], r["check"]))
        md.append("")
    if ptxas_rows:
        md += ["## Registers and spills (ptxas -v)", "",
               "Registers per thread of every kernel the study compiled, for "
               "each chip (`%s`); spills as bytes stored/loaded." %
               os.path.basename(ptxas_path), ""] + ptxas_table(ptxas_rows) + \
            [""]
    staged = Staged(args.outdir)
    try:
        staged.write_text("README.md", "\n".join(md))
        if plt is not None:
            plt.rcParams["svg.hashsalt"] = "tgemm"
            for p in study.precisions():
                plot_throughput(study, p, staged.path(
                    "throughput-%s.png" % p.name), plt)
            plot_ratios(study, shape, staged.path("ratio.png"), plt)
            plot_speedups(study, shape, staged.path("speedup.png"), plt)
            if ablation:
                plot_ablation(study, staged.path("ablation.png"), plt)
        staged.commit()
    finally:
        staged.discard()
    return 0


# ------------------------------------------------------------------- main


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="mode")
    sub.required = True

    pp = sub.add_parser("prepare", help="compile the kernels and the plan")
    pp.add_argument("dir", nargs="?",
                    default=os.path.join(REPO, "build", "study"))
    pp.add_argument("--only", default="",
                    help="comma-separated precisions (default all): %s" %
                    ",".join(p.name for p in PRECISIONS))
    pp.add_argument("--lowerings", default=",".join(FAMILIES),
                    help="comma-separated families (default all: "
                    "%(default)s)")
    pp.add_argument("--shapes", default=",".join(SHAPES),
                    help="comma-separated MxNxK")
    pp.add_argument("--ablation", default=",".join(FAMILY_ABLATIONS["ptx"]),
                    help="comma-separated variants, or none (default ptx's "
                    "and wmma's: %%(default)s; wgmma's: %s)" % ",".join(
                        FAMILY_ABLATIONS["wgmma"]))
    pp.add_argument("--ablation-shape", default=HEADLINE)
    pp.add_argument("--configs", default=os.path.join(REPO, "configs",
                                                      "h200.json"),
                    help="tuned config database, or none")
    pp.add_argument("--chip", default="sm_90", help="the GPU's chip (wgmma: "
                    "sm_90a)")
    pp.add_argument("--ptxas-chips", default="sm_89,sm_90",
                    help="chips for ptxas.csv besides --chip, for wmma and "
                    "ptx (wgmma: sm_90a alone)")
    pp.add_argument("--bin", help="folder of tgemm-opt and tgemm-translate")
    pp.add_argument("--ptxas", help="ptxas (default: PATH, else "
                    "/usr/local/cuda/bin/ptxas)")
    pp.add_argument("--jobs", type=int, default=default_jobs(), metavar="N",
                    help="compiles at a time (default: the CPU cores this "
                    "process may use, here %(default)s)")

    rp = sub.add_parser("run", help="run the plan on the GPU host")
    rp.add_argument("dir", nargs="?",
                    default=os.path.join(REPO, "build", "study"))
    rp.add_argument("--tgemm-run", help="use this tgemm-run instead of "
                    "building one")
    rp.add_argument("--reps", type=int, default=20)
    rp.add_argument("--warmup", type=int, default=5)
    rp.add_argument("--repeats", type=int, default=1,
                    help="run the whole plan this many times, round by "
                    "round (the CSV's repeat column)")
    rp.add_argument("--resume", action="store_true",
                    help="keep study.csv and run only what it lacks")
    rp.add_argument("--max-seconds", type=float,
                    help="start no run after this many seconds (exit 3 when "
                    "runs are left; rerun with --resume)")

    sp = sub.add_parser("report", help="tables and plots from a study CSV")
    sp.add_argument("csv")
    sp.add_argument("outdir", nargs="?",
                    default=os.path.join(REPO, "docs", "study"))
    sp.add_argument("--no-plots", action="store_true",
                    help="write the tables alone (no matplotlib needed)")
    sp.add_argument("--ptxas", help="prepare's ptxas.csv for the register "
                    "table (default: beside CSV if there), or none")

    args = ap.parse_args(argv)
    return {"prepare": prepare, "run": run, "report": report}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
