"""What the torch benchmark scripts share (bench/torch-launch.py,
bench/epilogue-torch.py, bench/split-k-determinism.py): the command line
(`prepare` here, `run` on the GPU host), the runtime library's build there
and the CUDA-event timing."""

import os
import statistics
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def use_package():
    """The build's package (with the compiler extension) where there is one;
    the source package (runtime only) on the GPU host; PYTHONPATH's where it
    is set."""
    if os.environ.get("PYTHONPATH"):
        return
    built = os.path.join(REPO, "build", "python")
    sys.path.insert(0, built if os.path.isdir(os.path.join(built, "tgemm"))
                    else os.path.join(REPO, "python"))


def build_runtime(out):
    """Builds the runtime library alone (build-gpu: the GPU host has no
    LLVM/MLIR), its logs in `out`, and points tgemm.launch at it."""
    subprocess.run(
        "cmake -G Ninja -S . -B build-gpu -DTGEMM_ENABLE_COMPILER=OFF "
        "-DCMAKE_BUILD_TYPE=Release > %s/cmake.log && ninja -C build-gpu "
        "tgemm_runtime > %s/ninja.log" % (out, out), shell=True, check=True,
        cwd=REPO)
    os.environ.setdefault("TGEMM_RUNTIME_LIB", os.path.join(
        REPO, "build-gpu", "lib", "libtgemm_runtime.so"))


def timed(fn, warmup=5, samples=5, launches=10):
    """The median over `samples` samples of `launches` back-to-back calls
    of fn after `warmup` calls, timed with CUDA events (the host's launch
    overhead, Python's included, overlaps the GPU's work), in ms per call."""
    import torch
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(samples):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(launches):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / launches)
    return statistics.median(times)


def main(argv, doc, prepare, run, name):
    """`SCRIPT prepare|run [DIR]`, DIR defaulting to build/NAME; prepare
    returns nothing, run its exit status."""
    if len(argv) < 2 or argv[1] not in ("prepare", "run"):
        print(doc.strip(), file=sys.stderr)
        return 2
    out = argv[2] if len(argv) > 2 else os.path.join(REPO, "build", name)
    if argv[1] == "prepare":
        prepare(out)
        return 0
    return run(out)
