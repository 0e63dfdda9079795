"""The tgemm Python package, built by CMake:

    python3 -m venv --system-site-packages venv     # Debian's setuptools, wheel
    venv/bin/pip install --no-build-isolation .

pip runs this file; it configures tgemm with CMake in build-pip/ (against the
installed LLVM/MLIR 22, for the interpreter pip runs under), builds the
compiler extension (tgemm._tgemm) and, where the CUDA toolkit is, the runtime
library (libtgemm_runtime.so), and puts both into the package next to its
modules. TGEMM_CMAKE_ARGS adds arguments to the configure step (build-pip/
is configured once: remove it to change them); with
TGEMM_CMAKE_ARGS=-DTGEMM_ENABLE_COMPILER=OFF (a GPU host without LLVM) it
builds the runtime library alone, and the package launches kernels compiled
elsewhere but cannot compile. Set TGEMM_BUILD_DIR to take what it needs from
a build directory that already has it built (e.g. build/, made with `make`)
instead, without building anything. Nothing here needs the network.

The version is the one the top-level CMakeLists.txt's project() names."""

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        found = re.search(r"^project\(tgemm\s+VERSION\s+([0-9.]+)", f.read(),
                          re.MULTILINE)
    if not found:
        sys.exit("setup.py: no `project(tgemm VERSION ...)` in CMakeLists.txt")
    return found.group(1)


def fail(message):
    # setuptools prints the traceback of an exception; a build error is a
    # message, so it leaves through SystemExit with status 1.
    print("tgemm setup.py: error: " + message, file=sys.stderr)
    sys.exit(1)


class BinaryDistribution(Distribution):
    """The wheel holds compiled code: tag it for this interpreter and
    platform, not py3-none-any."""

    def has_ext_modules(self):
        return True


def _run(command, log):
    print("tgemm setup.py: " + " ".join(shlex.quote(c) for c in command),
          flush=True)
    with open(log, "a") as out:
        status = subprocess.call(command, stdout=out, stderr=subprocess.STDOUT)
    if status != 0:
        with open(log) as f:
            tail = f.read()[-6000:]
        fail("%s failed (status %d); the end of %s:\n%s"
             % (command[0], status, log, tail))


def _targets(build_dir):
    out = subprocess.run(["cmake", "--build", build_dir, "--target", "help"],
                         capture_output=True, text=True).stdout
    return set(re.findall(r"[\w.+-]+", out))


def cmake_build():
    """The build directory with the extension (and the runtime library where
    CUDA is) built: TGEMM_BUILD_DIR as it is, else build-pip/, configured
    and built here."""
    given = os.environ.get("TGEMM_BUILD_DIR")
    if given:
        if not os.path.isdir(os.path.join(given, "python", "tgemm")):
            fail("TGEMM_BUILD_DIR=%s has no python/tgemm: it is not a tgemm "
                 "build directory, or its Python package is not built" % given)
        return os.path.abspath(given)
    if shutil.which("cmake") is None:
        fail("cmake not found (Debian: apt install cmake ninja-build; "
             "scripts/install-deps.sh installs every build dependency)")
    build_dir = os.path.join(ROOT, "build-pip")
    os.makedirs(build_dir, exist_ok=True)
    log = os.path.join(build_dir, "pip-build.log")
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        command = ["cmake", "-S", ROOT, "-B", build_dir,
                   "-DCMAKE_BUILD_TYPE=Release",
                   "-DPython3_EXECUTABLE=" + sys.executable,
                   "-DTGEMM_ENABLE_FUZZERS=OFF"]
        if shutil.which("ninja"):
            command += ["-G", "Ninja"]
        command += shlex.split(os.environ.get("TGEMM_CMAKE_ARGS", ""))
        _run(command, log)
    targets = _targets(build_dir)
    if _runtime_only(build_dir):
        # A GPU host without LLVM: the modules and the runtime library.
        if "tgemm_runtime" not in targets:
            fail("%s builds neither the compiler nor the runtime (no CUDA "
                 "toolkit found): nothing to install" % build_dir)
        _run(["cmake", "--build", build_dir, "--target", "tgemm_runtime",
              "TGemmPythonSources"], log)
        return build_dir
    if "TGemmPythonExtension" not in targets:
        fail("%s has no Python extension to build: pybind11 or Python's "
             "headers were not found when it was configured (Debian: "
             "pybind11-dev python3-dev), or the compiler is off "
             "(TGEMM_ENABLE_COMPILER)" % build_dir)
    wanted = ["TGemmPythonExtension"]
    if "tgemm_runtime" in targets:
        wanted.append("tgemm_runtime")
    _run(["cmake", "--build", build_dir, "--target"] + wanted, log)
    return build_dir


def _runtime_only(build_dir):
    """Whether the build was configured with -DTGEMM_ENABLE_COMPILER=OFF."""
    cache = os.path.join(build_dir, "CMakeCache.txt")
    if not os.path.isfile(cache):  # a tree of built files only
        return False
    with open(cache) as f:
        return re.search(r"^TGEMM_ENABLE_COMPILER:BOOL=(OFF|0|FALSE|NO)$",
                         f.read(), re.MULTILINE | re.IGNORECASE) is not None


class CMakeBuildPy(build_py):
    """The modules as setuptools copies them, plus what CMake made: the
    extension, _version.py and libtgemm_runtime.so."""

    def run(self):
        super().run()
        build_dir = cmake_build()
        package = os.path.join(build_dir, "python", "tgemm")
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        extension = os.path.join(package, "_tgemm" + suffix)
        runtime_only = _runtime_only(build_dir)
        if runtime_only:
            extension = None
        elif not os.path.isfile(extension):
            built = [os.path.basename(p) for p in
                     glob.glob(os.path.join(package, "_tgemm*.so"))]
            fail("no %s in %s (found: %s): build the extension there "
                 "(target TGemmPythonExtension), for this Python "
                 "(-DPython3_EXECUTABLE=%s)" % (
                     os.path.basename(extension), package,
                     ", ".join(built) or "none", sys.executable))
        destination = os.path.join(self.build_lib, "tgemm")
        files = [os.path.join(package, "_version.py")]
        if extension:
            files.append(extension)
        runtime = os.path.join(build_dir, "lib", "libtgemm_runtime.so")
        if os.path.isfile(runtime):
            files.append(runtime)
        else:
            print("tgemm setup.py: no libtgemm_runtime.so (no CUDA toolkit "
                  "at configure time): the package compiles but runs nothing "
                  "unless TGEMM_RUNTIME_LIB names one", flush=True)
        for path in files:
            self.copy_file(path, os.path.join(destination,
                                              os.path.basename(path)))


try:
    import wheel  # noqa: F401  (setuptools' bdist_wheel comes from it)
except ImportError:
    if any(a in sys.argv for a in ("bdist_wheel", "dist_info", "egg_info")):
        fail("building the wheel needs the `wheel` package, which this "
             "environment does not have: make the virtual environment with "
             "--system-site-packages (Debian's python3-wheel and "
             "python3-setuptools), or install wheel into it")

os.makedirs(os.path.join(ROOT, "build-pip"), exist_ok=True)
setup(
    name="tgemm",
    version=project_version(),
    description="An MLIR-based compiler for tiled GEMM on NVIDIA tensor "
                "cores: compile to PTX and launch on your own tensors",
    long_description=open(os.path.join(ROOT, "docs", "python.md")).read(),
    long_description_content_type="text/markdown",
    python_requires=">=3.9",
    packages=["tgemm"],
    package_dir={"tgemm": "python/tgemm"},
    cmdclass={"build_py": CMakeBuildPy},
    # setuptools' own scratch space, out of the CMake build's way (build/
    # is `make`'s).
    options={"build": {"build_base": os.path.join("build-pip", "setuptools")},
             "egg_info": {"egg_base": "build-pip"}},
    distclass=BinaryDistribution,
    zip_safe=False,
)
