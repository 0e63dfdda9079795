"""python -m tgemm: compile, problem and run from the shell."""

import json
import os
import subprocess
import sys

import tgemm
from conftest import (EXAMPLES, RUNTIME_INPUTS, needs_extension,
                      needs_runtime)

# The package under test, wherever the subprocess runs.
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(
    tgemm.__file__)))


def tgemm_cli(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [PACKAGE_PARENT, os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "tgemm"] + list(args),
                          cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_usage():
    result = tgemm_cli()
    assert result.returncode == 2
    assert "compile" in result.stderr and "problem" in result.stderr
    result = tgemm_cli("compile", "--help")
    assert result.returncode == 0 and "--lowering" in result.stdout


@needs_extension
def test_compile(tmp_path):
    result = tgemm_cli("compile", os.path.join(EXAMPLES, "gemm-s8-s32.mlir"),
                       "--lowering", "wmma", "--chip", "sm_89", "-o",
                       str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == [
        "wrote " + str(tmp_path / "out.ptx"),
        "wrote " + str(tmp_path / "out.json")]
    ptx = (tmp_path / "out.ptx").read_text()
    assert "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32" in ptx
    manifest = json.loads((tmp_path / "out.json").read_text())
    assert manifest["kernels"][0]["chip"] == "sm_89"


@needs_extension
def test_compile_default_output(tmp_path):
    result = tgemm_cli("compile", os.path.join(EXAMPLES, "gemm-f16-f32.mlir"),
                       "--stages", "2", "--swizzle", "pad", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "gemm-f16-f32.json").read_text())
    assert manifest["kernels"][0]["config"]["stages"] == 2
    assert (tmp_path / "gemm-f16-f32.ptx").exists()


@needs_extension
def test_compile_errors(tmp_path):
    result = tgemm_cli("compile", os.path.join(EXAMPLES, "gemm-e4m3-f32.mlir"),
                       "--lowering", "wmma", "-o", str(tmp_path / "x"))
    assert result.returncode == 1
    assert "gemm-e4m3-f32.mlir:5:3: error: 'tgemm.matmul' op the wmma " \
        "lowering has no wmma instruction" in result.stderr
    assert not (tmp_path / "x.ptx").exists()
    result = tgemm_cli("compile", str(tmp_path / "missing.mlir"))
    assert result.returncode == 1
    assert "tgemm: error: cannot read" in result.stderr
    result = tgemm_cli("compile", os.path.join(EXAMPLES, "gemm-f16-f32.mlir"),
                       "--chip", "sm_70")
    assert result.returncode == 1 and "unknown chip 'sm_70'" in result.stderr


@needs_extension
def test_problem(tmp_path):
    result = tgemm_cli("problem", "--m", "4096", "--n", "4096", "--k", "4096",
                       "--a", "bf16", "--lowering", "ptx", "--chip", "sm_80",
                       "-o", str(tmp_path / "p"))
    assert result.returncode == 0, result.stderr
    ptx = (tmp_path / "p.ptx").read_text()
    assert "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" in ptx
    [k] = json.loads((tmp_path / "p.json").read_text())["kernels"]
    assert k["problem"] == {"m": 4096, "n": 4096, "k": 4096}
    assert k["config"]["block"] == [128, 128, 32]


@needs_extension
def test_problem_dynamic_with_config(tmp_path):
    result = tgemm_cli("problem", "--n", "?", "--a", "s8", "--layout-a",
                       "row", "--layout-b", "col", "--block", "64,64,64",
                       "--warps", "2,2", "--config-stages", "2", "--name",
                       "q", "-o", str(tmp_path / "q"))
    assert result.returncode == 0, result.stderr
    [k] = json.loads((tmp_path / "q.json").read_text())["kernels"]
    assert k["problem"] == {"m": None, "n": None, "k": None}
    assert k["config"]["block"] == [64, 64, 64] and k["name"] == "q_kernel"


def test_problem_print_ir():
    # Needs no extension: the IR is written in Python.
    result = tgemm_cli("problem", "--m", "256", "--n", "128", "--k", "64",
                       "--a", "f16", "--layout-b", "row", "--block",
                       "128,128,32", "--warps", "2,2", "--config-stages",
                       "3", "--print-ir")
    assert result.returncode == 0, result.stderr
    assert "%b: memref<64x128xf16>" in result.stdout
    assert "layout(row, row)" in result.stdout


def test_problem_usage_errors():
    result = tgemm_cli("problem", "--m", "128", "--a", "f64", "--print-ir")
    assert result.returncode == 2
    assert "tgemm: error: unknown element type 'f64'" in result.stderr
    result = tgemm_cli("problem", "--block", "128,128,32", "--print-ir")
    assert result.returncode == 2 and "--config-stages" in result.stderr
    result = tgemm_cli("problem", "--m", "-4")
    assert result.returncode == 2


@needs_runtime
def test_run_bad_input(tmp_path):
    result = tgemm_cli("run", str(tmp_path / "missing.ptx"), "--manifest",
                       os.path.join(RUNTIME_INPUTS, "f16.json"))
    assert result.returncode == 1
    assert "tgemm: error: cannot read kernel file" in result.stderr
    result = tgemm_cli("run", os.path.join(RUNTIME_INPUTS, "gemm.ptx"),
                       "--manifest", os.path.join(RUNTIME_INPUTS,
                                                  "truncated.json"))
    assert result.returncode == 1
    assert "invalid JSON" in result.stderr


def test_run_missing_library(tmp_path):
    result = tgemm_cli("run", os.path.join(RUNTIME_INPUTS, "gemm.ptx"),
                       "--manifest", os.path.join(RUNTIME_INPUTS, "f16.json"),
                       "--library", str(tmp_path / "libnothing.so"))
    assert result.returncode == 1
    assert "libnothing.so, which does not exist" in result.stderr


@needs_runtime
def test_run_no_device_or_result():
    result = tgemm_cli("run", os.path.join(RUNTIME_INPUTS, "gemm.ptx"),
                       "--manifest", os.path.join(RUNTIME_INPUTS, "f16.json"),
                       "--check", "--reps", "1")
    if result.returncode == 4:
        assert "tgemm: error: no CUDA device" in result.stderr or \
            "tgemm: error: unusable CUDA driver" in result.stderr
    else:
        # Where a GPU is, the stand-in kernel has no body: wrong result or
        # a launch failure, never success.
        assert result.returncode in (1, 3), result.stderr


SAMPLE = {
    "kernel": "gemm_f16_f32_kernel", "m": 4096, "n": 4096, "k": 4096,
    "unit": "TFLOP/s", "kernel_ms": 0.5, "kernel_rate": 274.9,
    "anchor": "cublas f16*f16->f32 compute 32F TN", "anchor_ms": 0.25,
    "anchor_rate": 549.8, "ratio": 0.5, "check": "ok", "rel_error": 2e-7,
    "max_error": 1e-5, "mismatches": 0, "first_mismatch": None, "reps": 20,
}


def test_run_report(monkeypatch, capsys):
    # What `run` prints, with the runtime replaced (no GPU needed).
    from tgemm import __main__ as cli
    from tgemm import runtime
    calls = []

    def fake_run(*args, **kwargs):
        calls.append((args, kwargs))
        return SAMPLE

    monkeypatch.setattr(runtime, "run", fake_run)
    assert cli.main(["run", "k.ptx", "--manifest", "k.json", "--m", "4096",
                     "--reps", "5", "--check"]) == 0
    assert calls == [(("k.ptx", "k.json"), dict(
        m=4096, n=None, k=None, reps=5, check=True, kernel_name=None,
        device=0, library=None))]
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "kernel gemm_f16_f32_kernel  M=4096 N=4096 K=4096",
        "  time 0.5000 ms  274.9 TFLOP/s",
        "  anchor cublas f16*f16->f32 compute 32F TN: 0.2500 ms  549.8 "
        "TFLOP/s  ratio 0.50",
        "  check ok  rel_error 2e-07  max_error 1e-05"]
    assert cli.main(["run", "k.ptx", "--manifest", "k.json", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == SAMPLE


def test_run_wrong_result(monkeypatch, capsys):
    from tgemm import __main__ as cli
    from tgemm import runtime

    def fake_run(*args, **kwargs):
        raise runtime.WrongResult("wrong result: C[0][0] = 0, expected 1",
                                  dict(SAMPLE, check="FAIL"))

    monkeypatch.setattr(runtime, "run", fake_run)
    assert cli.main(["run", "k.ptx", "--manifest", "k.json", "--json"]) == 3
    captured = capsys.readouterr()
    assert json.loads(captured.out)["check"] == "FAIL"
    assert captured.err == "tgemm: error: wrong result: C[0][0] = 0, " \
        "expected 1\n"
