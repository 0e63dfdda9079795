"""The plan of GPU runs that `prepare` writes and `run` reads, and its time
estimate.

plan.txt, one run per line, paths relative to the plan's folder:

    # columns: ptx manifest m n k precision lowering variant
    ptx-f16-f32-128x128x32-w2x2-s3-r1.ptx ptx-f16-f32-128x128x32-w2x2-s3-r1
    .json 8192 8192 8192 f16-f32 ptx baseline     (one line)

The columns after m n k are tags that `run` appends to each CSV line of
tgemm-run under the same names."""
import collections
import os

from gemmbench.precisions import BY_NAME

PlanLine = collections.namedtuple("PlanLine", "ptx manifest m n k tags")

FIXED = ["ptx", "manifest", "m", "n", "k"]


def write_plan(path, tag_names, lines, comment):
    with open(path, "w") as f:
        for text in comment:
            f.write("# %s\n" % text)
        f.write("# columns: %s\n" % " ".join(FIXED + list(tag_names)))
        for line in lines:
            values = [line.ptx, line.manifest, str(line.m), str(line.n),
                      str(line.k)] + [str(line.tags[t]) for t in tag_names]
            for v in values:
                if not v or any(ch.isspace() or ch in ',"' for ch in v):
                    raise ValueError("plan value %r is empty or has a space,"
                                     " comma or quote" % v)
            f.write(" ".join(values) + "\n")


def read_plan(path):
    """(tag names, [PlanLine]) with paths made relative to the cwd."""
    base = os.path.dirname(os.path.abspath(path))
    names, lines = None, []
    with open(path) as f:
        for number, text in enumerate(f, 1):
            text = text.strip()
            if text.startswith("# columns:"):
                names = text[len("# columns:"):].split()
                if names[:len(FIXED)] != FIXED:
                    raise SystemExit("%s:%d: columns must start with %s" % (
                        path, number, " ".join(FIXED)))
                continue
            if not text or text.startswith("#"):
                continue
            if names is None:
                raise SystemExit("%s:%d: no '# columns:' line before the "
                                 "first run" % (path, number))
            fields = text.split()
            if len(fields) != len(names):
                raise SystemExit("%s:%d: %d fields, expected %d (%s)" % (
                    path, number, len(fields), len(names), " ".join(names)))
            tags = collections.OrderedDict(zip(names[5:], fields[5:]))
            lines.append(PlanLine(os.path.join(base, fields[0]),
                                  os.path.join(base, fields[1]),
                                  int(fields[2]), int(fields[3]),
                                  int(fields[4]), tags))
    return (names or FIXED)[5:], lines


# Rough rates for the estimate only (TFLOP/s or TOP/s: the kernel's through
# ptx, through wmma, through wgmma, and the library's), from the GPU suite
# at 8192^3 (docs/results/README.md) and, for wgmma, the tuned entries of
# configs/h200.json at 4096^3; wgmma has no s4.
EXPECTED_RATES = {
    "f16-f32": (380, 210, 690, 700), "f16-f16": (400, 258, 740, 690),
    "bf16-f32": (360, 212, 730, 780), "tf32-f32": (220, 95, 400, 380),
    "s8-s32": (840, 380, 1260, 1500), "u8-s32": (840, 380, 1290, 1600),
    "s4-s32": (45, 30, None, 1500), "e4m3-f32": (300, 300, 1240, 1400),
    "e5m2-f32": (300, 300, 1240, 1450),
}
RATE_COLUMNS = ("ptx", "wmma", "wgmma")
# Per tgemm-run process: start, CUDA context, cuBLAS handles, the driver's
# JIT of the PTX (about a second), plus host work per element of A, B and C
# (random inputs, the check's comparison).
LAUNCH_S = 1.0
HOST_S_PER_ELEMENT = 5e-9
HBM_BYTES_PER_S = 3.0e12
# The reference GEMM of --check where no library computes the precision
# (tgemm's own 16x16 tiled kernel): a guess.
REFERENCE_RATE = 20.0
FLUSH_S = 2e-4  # two L2 flushes (kernel, anchor) per repetition


def estimate_seconds(precision_name, lowering, m, n, k, reps=20, warmup=5):
    """Wall time of one tgemm-run --check --csv run, roughly."""
    p = BY_NAME[precision_name]
    rates = EXPECTED_RATES[precision_name]
    rate, library_rate = rates[RATE_COLUMNS.index(lowering)], rates[-1]
    ops = 2.0 * m * n * k
    bytes_moved = (m * k + k * n) * p.bits / 8.0 + m * n * 4.0
    kernel = max(ops / (rate * 1e12), bytes_moved / HBM_BYTES_PER_S)
    library = max(ops / (library_rate * 1e12), bytes_moved / HBM_BYTES_PER_S)
    reference = ops / (REFERENCE_RATE * 1e12) if p.a in (
        "u8", "s4", "e5m2") else library
    gpu = (reps + warmup) * (kernel + library + FLUSH_S) + reference
    host = HOST_S_PER_ELEMENT * (m * k + k * n + 2 * m * n)
    return LAUNCH_S + host + gpu


def estimate_plan(lines, reps=20, warmup=5):
    return sum(estimate_seconds(l.tags["precision"], l.tags["lowering"],
                                l.m, l.n, l.k, reps, warmup) for l in lines)


def parse_shape(text):
    parts = text.lower().split("x")
    if len(parts) == 1:
        parts = parts * 3
    if len(parts) != 3:
        raise SystemExit("bad shape %r: MxNxK or one size" % text)
    return tuple(int(x) for x in parts)


def shape_text(m, n, k):
    return "%dx%dx%d" % (m, n, k)
