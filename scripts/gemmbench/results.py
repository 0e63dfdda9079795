"""Reading result CSVs: tgemm-run's columns (docs/runtime.md) followed by a
plan's tags."""
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


def devices(rows):
    return sorted({row["device"] for row in rows if row.get("device")})


def device_name(device):
    """'NVIDIA H200' from 'NVIDIA H200 (sm_90, 132 SMs)'."""
    return re.sub(r"\s*\(.*\)\s*$", "", device)
