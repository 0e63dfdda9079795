#!/usr/bin/env python3
"""The multi-precision study: does hand-written PTX (cp.async, ldmatrix,
mma.sync: the ptx lowering) beat the WMMA API (the wmma lowering), per
precision, and what does each PTX feature buy?

  scripts/study.py prepare [DIR]        here (LLVM/MLIR, no GPU): compile the
                                        study's kernels to PTX + manifest
                                        under DIR (default build/study), with
                                        ptxas -v registers and spills for
                                        sm_89 and sm_90 (DIR/ptxas.csv) and
                                        the list of runs (DIR/plan.txt)
  scripts/study.py run [DIR]            on the GPU host (CUDA, cmake, ninja):
                                        build tgemm-run as scripts/gpu-suite.sh
                                        does, run every plan line with --check
                                        (cuBLAS/cuBLASLt timed in the same
                                        process) into DIR/study.csv, print the
                                        headline tables
  scripts/study.py report CSV [OUTDIR]  here: OUTDIR/README.md (default
                                        docs/study) with the tables and PNG
                                        plots (matplotlib)

The sweep: every precision through both lowerings (WMMA has no fp8) at the
square sizes 1024-8192 and the LLM shapes, one kernel per precision, lowering
and config (dynamic sizes, so one kernel serves every shape). The config is
the one the tuned database (configs/h200.json) gives for the shape (nearest
entry in log space, as the compiler's `config auto` picks it), else the GPU
suite's default (the first line per precision in scripts/gpu-suite.sh). The
ablation switches one ptx feature off at a time at 8192^3.
"""
import argparse
import collections
import csv
import os
import shutil
import sys

from gemmbench import configdb, results
from gemmbench.kernels import (Kernel, compile_many, find_tools,
                               require_tools, shape_breaks_requires)
from gemmbench.plan import (PlanLine, estimate_plan, parse_shape,
                            shape_text, write_plan)
from gemmbench.precisions import (BY_NAME, CEILING_NOTES, LOWERINGS,
                                  PRECISIONS, REPO, by_types, ceiling,
                                  config_tag, has_lowering, select,
                                  suite_defaults)
from gemmbench.runner import run_directory

SHAPES = ["1024x1024x1024", "2048x2048x2048", "4096x4096x4096",
          "8192x8192x8192", "4096x11008x4096", "4096x4096x11008",
          "16x4096x4096", "128x4096x4096"]
HEADLINE = "8192x8192x8192"
# Each ptx feature switched off alone: (variant, pipeline option, value,
# what the table calls it). A variant equal to the baseline is left out
# (swizzle-xor exists only for a baseline that is not xor).
ABLATIONS = [
    ("no-async-copy", "async-copy", "false", "cp.async off"),
    ("no-ldmatrix", "ldmatrix", "false", "ldmatrix off"),
    ("swizzle-none", "swizzle", "none", "swizzle none"),
    ("swizzle-pad", "swizzle", "pad", "swizzle pad"),
    ("swizzle-xor", "swizzle", "xor", "swizzle xor"),
    # One stage: synchronous copies, no pipelining at all (the pipeline
    # accepts stages=1); two: double buffering only.
    ("stages-1", "stages", "1", "1 stage"),
    ("stages-2", "stages", "2", "2 stages"),
]
ABLATION_LABELS = {name: label for name, _, _, label in ABLATIONS}
# The wmma lowering's one switch: its copies through registers instead of
# cp.async (what the ptx lowering's async-copy=false does too).
WMMA_ABLATIONS = ["no-async-copy"]
PIPELINE_DEFAULTS = {"async-copy": "true", "ldmatrix": "true",
                     "swizzle": "xor"}
TAGS = ["precision", "lowering", "variant"]
PTXAS_COLUMNS = ["kernel", "precision", "lowering", "variants", "config",
                 "options", "chip", "status", "registers", "spill_stores",
                 "spill_loads", "dynamic_shared_memory", "message"]
# The study should fit ~8 minutes of GPU-host wall time.
RUN_BUDGET_S = 480


# ---------------------------------------------------------------- prepare


def fresh_dir(path):
    """Empties a previous `prepare`'s folder; refuses any other folder."""
    if os.path.isdir(path) and os.listdir(path):
        if not os.path.exists(os.path.join(path, "plan.txt")):
            raise SystemExit("%s exists and has no plan.txt: not removing it"
                             % path)
        shutil.rmtree(path)
    os.makedirs(os.path.join(path, "src"))


def explicit(options):
    """Pipeline options without those that repeat the pipeline's default,
    so that one kernel has one file name."""
    return tuple(sorted((k, v) for k, v in options
                        if PIPELINE_DEFAULTS.get(k) != v))


def baseline_kernel(precision, lowering, shape, db, defaults, chip):
    entry = configdb.nearest(db, chip, lowering, precision, *shape)
    if entry is not None:
        return Kernel(precision, lowering, configdb.entry_config(entry),
                      explicit(configdb.entry_options(entry))), "configs"
    return Kernel(precision, lowering, defaults[precision.name], ()), "suite"


def ablation_kernels(base, names):
    """(variant, kernel) for each ablation in `names` that differs from the
    baseline kernel `base`."""
    options = dict(base.options)
    current = dict(PIPELINE_DEFAULTS, stages=str(base.config.stages))
    current.update(options)
    out = []
    for name, option, value, _ in ABLATIONS:
        if name not in names or current.get(option) == value:
            continue
        changed = dict(options)
        changed[option] = value
        out.append((name, base._replace(options=explicit(
            changed.items()))))
    return out


def prepare(args):
    tools = find_tools(args.bin, args.ptxas)
    require_tools(tools)
    precisions = select(args.only)
    lowerings = [l for l in args.lowerings.split(",") if l]
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
            switched = names if lowering == "ptx" else \
                [n for n in names if n in WMMA_ABLATIONS]
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
    chips = [args.chip] + [c for c in args.ptxas_chips.split(",")
                           if c and c != args.chip]
    print("== compiling %d kernels for %s (%d jobs at a time)" % (
        len(stems), ", ".join(chips), args.jobs))
    sys.stdout.flush()
    jobs = []
    for stem in stems:
        with open(os.path.join(args.dir, "src", stem + ".mlir"), "w") as f:
            f.write("// tgemm-opt --tgemm-pipeline=\"lowering=%s chip=CHIP%s\""
                    "\n" % (kernels[stem].lowering,
                            " " + kernels[stem].option_string()
                            if kernels[stem].options else ""))
            f.write(kernels[stem].source())
        for chip in chips:
            out_stem = os.path.join(args.dir, stem) if chip == args.chip \
                else None
            jobs.append((kernels[stem], chip, tools, out_stem))
    compiled = compile_many(jobs, args.jobs)

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
                if chip == args.chip:
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
    write_plan(os.path.join(args.dir, "plan.txt"), TAGS, lines, [
        "tgemm study plan (scripts/study.py prepare): %d runs of %d kernels "
        "compiled for %s" % (len(lines), len(stems) - len(failed), args.chip),
        "configs of the sweep's runs: %s" % (", ".join("%d from %s" % (n, {
            "configs": db_path, "suite": "scripts/gpu-suite.sh"}[s])
            for s, n in sorted(sources.items()))),
        "estimated GPU-host time: %.0f s (tgemm-run --reps 20 --warmup 5 "
        "per line)" % estimate])
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
    print("== estimated run time on the GPU host: %.0f s (%.1f min), plus "
          "building tgemm-run" % (estimate, estimate / 60))
    if estimate > RUN_BUDGET_S:
        print("warning: over the %d s budget; trim with --shapes, --only or "
              "--ablation" % RUN_BUDGET_S)
    if failed:
        print("error: %d kernels did not compile for %s; plan.txt leaves "
              "them out (DIR/ptxas.csv has the messages)" % (
                  len(failed), args.chip))
        return 1
    return 0


# -------------------------------------------------------------------- run


def run(args):
    csv_path, status = run_directory(args, "study.py", "study.csv")
    rows = results.load(csv_path)
    if rows:
        print()
        print("\n".join(headline_table(rows, headline_shape(rows))))
        ptxas_path = os.path.join(args.dir, "ptxas.csv")
        ablation = ablation_table(rows, load_ptxas(ptxas_path)[0]
                                  if os.path.exists(ptxas_path) else None)
        if ablation:
            print()
            print("\n".join(ablation))
    return status


# ----------------------------------------------------------------- report


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
    """The rows of a study CSV, indexed for the tables."""

    def __init__(self, rows):
        self.rows = rows
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

    def best(self, precision, lowering, shape, variant="baseline"):
        return results.fastest(self.cells.get(
            (precision, lowering, variant, shape), []))

    def rate(self, precision, lowering, shape, variant="baseline"):
        row = self.best(precision, lowering, shape, variant)
        return row["kernel_rate"] if row else None

    def library(self, precision, shape):
        """The median of the library rates timed beside this precision's
        sweep kernels at this shape, and the library's name."""
        rows = [r for key, rs in self.cells.items()
                if key[0] == precision and key[2] == "baseline" and
                key[3] == shape for r in rs]
        names = collections.Counter(r["anchor"] for r in rows if r["anchor"])
        name = sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] \
            if names else ""
        return results.median(r["anchor_rate"] for r in rows), name

    def variants(self, precision):
        return sorted({key[2] for key in self.cells
                       if key[0] == precision and key[2] != "baseline"})


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


def headline_table(rows, shape):
    study = Study(rows)
    out = ["M x N x K = %s (TFLOP/s; TOP/s for integers)" % shape_text(*shape),
           "",
           "| precision | wmma | ptx | ptx / wmma | library | ptx / library "
           "| mma.sync ceiling | ptx % of ceiling | wmma ceiling "
           "| wmma % of ceiling |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
           "| ---: |"]
    for p in study.precisions():
        wmma = study.rate(p.name, "wmma", shape)
        ptx = study.rate(p.name, "ptx", shape)
        library, _ = study.library(p.name, shape)
        if wmma is None and ptx is None:
            continue
        ptx_ceiling, wmma_ceiling = (ceiling(p.name, "ptx"),
                                     ceiling(p.name, "wmma"))
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            p.label, fmt(wmma), fmt(ptx), fmt(ratio(ptx, wmma), "%.2f×"),
            fmt(library), fmt(ratio(ptx, library), "%.2f"),
            fmt(ptx_ceiling, "%.0f"), percent(ptx, ptx_ceiling),
            fmt(wmma_ceiling, "%.0f"), percent(wmma, wmma_ceiling)))
    return out


def percent(rate, limit):
    return fmt(None if rate is None or limit is None
               else 100.0 * rate / limit, "%.0f%%")


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
    names = [name for name, _, _, _ in ABLATIONS]
    if lowering == "wmma":
        names = [n for n in names if n in WMMA_ABLATIONS]
    variants = [name for name in names
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
            row = study.best(p.name, lowering, shape, v)
            cell = fmt(ratio(row["kernel_rate"] if row else None, base),
                       "%.2f×")
            if spills(ptxas_of(ptxas, row)):
                cell += " (spills)"
            cells.append(cell)
        out.append("| %s | %s | %s |" % (p.label, fmt(base),
                                         " | ".join(cells)))
    if ptxas:
        out += ["", "(spills): ptxas -v reports register spills for that "
                "kernel on its chip (Registers and spills, below)."]
    return out


def precision_table(study, p):
    ptx_ceiling, wmma_ceiling = ceiling(p.name, "ptx"), ceiling(p.name, "wmma")
    out = ["| shape | wmma | ptx | ptx / wmma | library | ptx / library "
           "| ptx % of ceiling | wmma % of ceiling | wmma config "
           "| ptx config |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- "
           "| --- |"]
    for shape in study.shapes(p.name):
        wmma_row = study.best(p.name, "wmma", shape)
        ptx_row = study.best(p.name, "ptx", shape)
        wmma = wmma_row["kernel_rate"] if wmma_row else None
        ptx = ptx_row["kernel_rate"] if ptx_row else None
        library, _ = study.library(p.name, shape)
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            shape_text(*shape), fmt(wmma), fmt(ptx),
            fmt(ratio(ptx, wmma), "%.2f×"), fmt(library),
            fmt(ratio(ptx, library), "%.2f"),
            percent(ptx, ptx_ceiling), percent(wmma, wmma_ceiling),
            config_of(wmma_row) if has_lowering(p, "wmma") else "—",
            config_of(ptx_row)))
    return out


def flops_order(shape):
    return (shape[0] * shape[1] * shape[2], shape)


def plot_throughput(study, p, path, plt):
    shapes = sorted(study.shapes(p.name), key=flops_order)
    x = list(range(len(shapes)))
    unit = "TOP/s" if p.acc == "s32" else "TFLOP/s"
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for lowering, marker in (("wmma", "o"), ("ptx", "s")):
        if not has_lowering(p, lowering):
            continue
        ys = [study.rate(p.name, lowering, s) for s in shapes]
        ax.plot(x, [float("nan") if y is None else y for y in ys],
                marker=marker, label=lowering)
    libs = [study.library(p.name, s) for s in shapes]
    names = sorted({name for _, name in libs if name})
    ax.plot(x, [float("nan") if y is None else y for y, _ in libs],
            marker="^", linestyle="--", color="gray",
            label="library: %s" % ("; ".join(names) or "none"))
    plotted = [y for line in ax.get_lines() for y in line.get_ydata()
               if y == y and y > 0]
    for lowering, style, name in (("ptx", ":", "mma.sync ceiling"),
                                  ("wmma", "-.", "wmma ceiling")):
        value = ceiling(p.name, lowering)
        if value is not None and has_lowering(p, lowering):
            ax.axhline(value, linestyle=style, color="black", linewidth=1,
                       label="%s (%.0f)" % (name, value))
    ax.set_xticks(x)
    ax.set_xticklabels([shape_text(*s) for s in shapes], rotation=30,
                       ha="right", fontsize=8)
    ax.set_ylabel(unit)
    # Emulated s4 and fp8 sit far below their library: a log axis keeps
    # both readable.
    if plotted and max(plotted) > 8 * min(plotted):
        ax.set_yscale("log")
        ax.set_ylabel(unit + " (log scale)")
    else:
        ax.set_ylim(bottom=0)
    ax.set_title("%s: throughput by shape (M x N x K)" % p.label)
    ax.legend(fontsize=8, loc="best")
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


def plot_bars(groups, series, values, ylabel, title, path, plt):
    """Grouped bars: values[(group, series)] or None; a line at 1."""
    fig, ax = plt.subplots(figsize=(9, 4.2))
    width = 0.8 / max(1, len(series))
    for j, name in enumerate(series):
        xs = [i + (j - (len(series) - 1) / 2.0) * width
              for i in range(len(groups))]
        ys = [values.get((g, name)) for g in groups]
        ax.bar([x for x, y in zip(xs, ys) if y is not None],
               [y for y in ys if y is not None], width, label=name)
    ax.axhline(1.0, color="black", linewidth=1)
    top = max([v for v in values.values() if v is not None] + [1.0])
    ax.set_ylim(0, top * 1.3)  # room for the legend above the bars
    ax.set_xticks(list(range(len(groups))))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=4, loc="upper center")
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


def report(args):
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
    os.makedirs(args.outdir, exist_ok=True)
    shape = headline_shape(rows)
    failed = [r for r in rows if r["check"] != "ok"]
    devices = results.devices(rows)
    md = ["# The multi-precision study: ptx vs wmma", "",
          "GPU: %s. Generated by `scripts/study.py report %s` from %d runs; "
          "failed checks: %d." % (", ".join(devices) or "unknown",
                                  os.path.basename(args.csv), len(rows),
                                  len(failed)), "",
          "Every number is a median of the timed repetitions (L2 flushed "
          "between them) from one run of `tgemm-run` whose output was "
          "checked against the reference; runs that failed their check are "
          "left out. \"library\" is cuBLAS/cuBLASLt timed in the same "
          "process (for u8, s4 and e5m2, which no library computes, the s8 "
          "or e4m3 GEMM of the same size). The kernels have dynamic sizes; "
          "each precision and lowering uses one tile config per shape "
          "(wmma/ptx config columns). Ceilings are the tensor-core issue "
          "rates measured on the H200 (`../shared/DESIGN.md`), in the same "
          "unit: TFLOP/s, TOP/s for integers.", ""]
    md += ["## Headline", ""] + headline_table(rows, shape) + [""]
    if not args.no_plots:
        md += ["![ptx / wmma](speedup.png)", ""]
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
    md += ["## Per precision", ""]
    for p in study.precisions():
        ptx_ceiling, wmma_ceiling = (ceiling(p.name, "ptx"),
                                     ceiling(p.name, "wmma"))
        _, library_name = study.library(p.name, shape)
        md += ["### %s" % p.label, "",
               "Ceilings: mma.sync %s, wmma %s%s. Library: %s." % (
                   fmt(ptx_ceiling, "%.0f"),
                   fmt(wmma_ceiling, "%.0f") if has_lowering(p, "wmma")
                   else "none (WMMA has no fp8)",
                   "; " + CEILING_NOTES[p.name]
                   if p.name in CEILING_NOTES else "",
                   library_name or "none"), ""]
        md += precision_table(study, p) + [""]
        if not args.no_plots:
            md += ["![%s](throughput-%s.png)" % (p.label, p.name), ""]
    if failed:
        md += ["## Failed checks", "",
               "| precision | lowering | variant | shape | kernel | check |",
               "| --- | --- | --- | --- | --- | --- |"]
        for r in sorted(failed, key=lambda r: (r.get("precision", ""),
                                               r["lowering"],
                                               r.get("variant", ""),
                                               results.shape(r))):
            md.append("| %s | %s | %s | %s | %s | %s |" % (
                r.get("precision", ""), r["lowering"], r.get("variant", ""),
                shape_text(*results.shape(r)), r["kernel"], r["check"]))
        md.append("")
    if ptxas_rows:
        md += ["## Registers and spills (ptxas -v)", "",
               "Registers per thread of every kernel the study compiled, for "
               "each chip (`%s`); spills as bytes stored/loaded." %
               os.path.basename(ptxas_path), ""] + ptxas_table(ptxas_rows) + \
            [""]
    with open(os.path.join(args.outdir, "README.md"), "w") as f:
        f.write("\n".join(md))

    if args.no_plots:
        return 0
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("error: the plots need matplotlib (Debian: apt-get install "
              "python3-matplotlib); --no-plots writes the tables alone",
              file=sys.stderr)
        return 1
    plt.rcParams["svg.hashsalt"] = "tgemm"
    for p in study.precisions():
        plot_throughput(study, p, os.path.join(
            args.outdir, "throughput-%s.png" % p.name), plt)
    both = [p for p in study.precisions() if has_lowering(p, "wmma")]
    shapes = sorted({s for p in both for s in study.shapes(p.name)},
                    key=flops_order)
    values = {(p.label, shape_text(*s)): ratio(
        study.rate(p.name, "ptx", s), study.rate(p.name, "wmma", s))
        for p in both for s in shapes}
    plot_bars([p.label for p in both], [shape_text(*s) for s in shapes],
              values, "ptx / wmma", "ptx speedup over wmma, per precision "
              "and shape", os.path.join(args.outdir, "speedup.png"), plt)
    if ablation:
        variants = [name for name, _, _, _ in ABLATIONS
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
                  "rate / ptx baseline", "ptx with one feature off",
                  os.path.join(args.outdir, "ablation.png"), plt)
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
    pp.add_argument("--lowerings", default=",".join(LOWERINGS))
    pp.add_argument("--shapes", default=",".join(SHAPES),
                    help="comma-separated MxNxK")
    pp.add_argument("--ablation", default=",".join(
        n for n, _, _, _ in ABLATIONS),
        help="comma-separated variants, or none (default all: %(default)s)")
    pp.add_argument("--ablation-shape", default=HEADLINE)
    pp.add_argument("--configs", default=os.path.join(REPO, "configs",
                                                      "h200.json"),
                    help="tuned config database, or none")
    pp.add_argument("--chip", default="sm_90", help="the GPU's chip")
    pp.add_argument("--ptxas-chips", default="sm_89,sm_90",
                    help="chips for ptxas.csv (besides --chip)")
    pp.add_argument("--bin", help="folder of tgemm-opt and tgemm-translate")
    pp.add_argument("--ptxas", help="ptxas (default: PATH, else "
                    "/usr/local/cuda/bin/ptxas)")
    pp.add_argument("--jobs", type=int, default=2)

    rp = sub.add_parser("run", help="run the plan on the GPU host")
    rp.add_argument("dir", nargs="?",
                    default=os.path.join(REPO, "build", "study"))
    rp.add_argument("--tgemm-run", help="use this tgemm-run instead of "
                    "building one")
    rp.add_argument("--reps", type=int, default=20)
    rp.add_argument("--warmup", type=int, default=5)
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
