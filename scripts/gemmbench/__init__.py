"""Shared parts of the study (scripts/study.py) and the autotuner
(scripts/tune.py): the precisions and their ceilings (precisions.py),
compiling kernels to PTX + manifest and reading ptxas -v (kernels.py), the
plan of runs and its time estimate (plan.py), running a plan with tgemm-run
on the GPU host (runner.py), reading result CSVs (results.py) and the tuned
config database (configdb.py).

Plain Python 3 standard library: the GPU host has no LLVM and no network.
"""
