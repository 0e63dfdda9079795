"""Reading result CSVs: tgemm-run's columns (docs/runtime.md) followed by a
plan's tags (and, from `study.py run --repeats`, the repeat)."""
import collections
import csv
import re
import statistics


def load(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        for key in ("m", "n", "k"):
            row[key] = int(row[key])
        for key in ("kernel_rate", "anchor_rate"):
            try:
                row[key] = float(row[key])
            except (TypeError, ValueError):
                row[key] = None
    return rows


def passed(row):
    return row["check"] == "ok" and row["kernel_rate"] is not None


def shape(row):
    return (row["m"], row["n"], row["k"])


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fastest(rows):
    """The checked row with the highest kernel rate (the first in the list on
    a tie), or None."""
    best = None
    for row in rows:
        if passed(row) and (best is None
                            or row["kernel_rate"] > best["kernel_rate"]):
            best = row
    return best


# The measure of one kernel over its checked rows (the plan's repeats):
# its first row, the median, lowest and highest rate, the number of rows,
# and the median of its rate over the library's timed in the same rows
# (None without a library), with that ratio's lowest and highest.
Measure = collections.namedtuple(
    "Measure", "row rate low high count ratio ratio_low ratio_high")


def measure(rows):
    """The Measure of rows of one kernel, or None when none passed."""
    ok = [r for r in rows if passed(r)]
    if not ok:
        return None
    rates = [r["kernel_rate"] for r in ok]
    ratios = [r["kernel_rate"] / r["anchor_rate"] for r in ok
              if r["anchor_rate"]]
    return Measure(ok[0], median(rates), min(rates), max(rates), len(ok),
                   median(ratios), min(ratios) if ratios else None,
                   max(ratios) if ratios else None)


def best_kernel(rows):
    """The Measure of the kernel (by name) whose checked rows have the
    highest median rate (the first kernel in the list on a tie), or
    None."""
    by_kernel = collections.OrderedDict()
    for row in rows:
        by_kernel.setdefault(row["kernel"], []).append(row)
    best = None
    for kernel_rows in by_kernel.values():
        m = measure(kernel_rows)
        if m is not None and (best is None or m.rate > best.rate):
            best = m
    return best


def repeats(rows):
    """How many times the plan ran: the distinct values of the repeat
    column (1 without one)."""
    return max(1, len({row["repeat"] for row in rows if row.get("repeat")}))


def devices(rows):
    return sorted({row["device"] for row in rows if row.get("device")})


def device_name(device):
    """'NVIDIA H200' from 'NVIDIA H200 (sm_90, 132 SMs)'."""
    return re.sub(r"\s*\(.*\)\s*$", "", device)
