# -*- Python -*-
import glob
import os
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TGEMM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tgemm_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs",
                   "mutate.py", "check-ptxas.py", "check-manifest.py",
                   "check-legality.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%tgemm_src", config.tgemm_src_root))
config.substitutions.append(("%tgemm_libs", config.tgemm_lib_dir))
config.substitutions.append(("%python", config.python_executable))
# project()'s version (CMakeLists.txt), which every tool must report.
config.substitutions.append(("%tgemm_version", config.tgemm_version))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# `not`, `FileCheck`, `count` come from the LLVM tools directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Scripts run by tests find tgemm's tools on PATH.
llvm_config.with_environment("PATH", config.tgemm_tools_dir, append_path=True)

tool_dirs = [config.tgemm_tools_dir, config.llvm_tools_dir]
tools = [
    "tgemm-opt",
    "tgemm-translate",
    # The stock mlir-opt, spelled apart so no test picks it up by accident.
    ToolSubst("%mlir_opt", config.mlir_opt),
]

# The runtime is built only where the CUDA toolkit is (runtime/). Its tests
# need the feature `runtime`; those that need a usable GPU, or its absence,
# need `gpu` or `no-gpu`, decided by asking tgemm-run for devices.
if os.path.exists(os.path.join(config.tgemm_tools_dir, "tgemm-run")):
    config.available_features.add("runtime")
    tools += ["tgemm-run", "tgemm-runtime-tests"]
    try:
        probe = subprocess.run(
            [os.path.join(config.tgemm_tools_dir, "tgemm-run"), "--list-devices"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        has_gpu = probe.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        has_gpu = False
    config.available_features.add("gpu" if has_gpu else "no-gpu")

llvm_config.add_tool_substitutions(tools, tool_dirs)

# The Python package (python/) is built only where pybind11 is; its pytest
# suite needs the feature `python-bindings` and imports it from here. The
# suite runs with %python, the interpreter the extension was built for; the
# feature `pytest` says that interpreter has pytest (the Makefile picks
# Debian's, where scripts/install-deps.sh installs it).
python_package = os.path.join(config.tgemm_obj_root, "python")
if glob.glob(os.path.join(python_package, "tgemm", "_tgemm*.so")):
    config.available_features.add("python-bindings")
    config.substitutions.append(("%tgemm_python_path", python_package))
    try:
        probe = subprocess.run([config.python_executable, "-c", "import pytest"],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=60)
        if probe.returncode == 0:
            config.available_features.add("pytest")
    except (OSError, subprocess.TimeoutExpired):
        pass

# The study's plots (scripts/study.py report) need matplotlib in %python
# (Debian: python3-matplotlib); the tests that draw them need `matplotlib`.
try:
    probe = subprocess.run([config.python_executable, "-c",
                            "import matplotlib"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=60)
    if probe.returncode == 0:
        config.available_features.add("matplotlib")
except (OSError, subprocess.TimeoutExpired):
    pass

# ptxas validates emitted PTX; without it those tests are UNSUPPORTED.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
