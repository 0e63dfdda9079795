"""Running compiled kernels on a GPU through the runtime's C API
(libtgemm_runtime.so, runtime/include/tgemm/runtime/c_api.h) with ctypes.

Needs neither the compiled extension nor LLVM, only the runtime library and,
to run anything, a CUDA driver and GPU. The library is looked for in the
`library` argument, then $TGEMM_RUNTIME_LIB, then inside this package (a
pip install puts it there), then the prefix's lib/ (cmake --install), then
the build tree next to this package (build/lib), then the dynamic loader's
path."""

import ctypes
import json
import numbers
import os
import tempfile

# 2: tgemm_rt_launch_args ends with the epilogue operands.
ABI_VERSION = 2

# Statuses of tgemm_rt_run (the exit codes of tgemm-run).
OK, ERROR, USAGE, WRONG_RESULT, NO_DEVICE = 0, 1, 2, 3, 4

LIBRARY_NAME = "libtgemm_runtime.so"


class RunError(RuntimeError):
    """The runtime refused or failed a run; `status` is tgemm-run's exit
    code for it (1 bad input or device error, 2 usage, 3 wrong result, 4 no
    device)."""

    def __init__(self, message, status=ERROR):
        super().__init__(message)
        self.status = status


class LibraryNotFound(RunError):
    """libtgemm_runtime.so could not be found or loaded."""


class NoDevice(RunError):
    """No usable CUDA driver or GPU."""

    def __init__(self, message):
        super().__init__(message, NO_DEVICE)


class WrongResult(RunError):
    """The kernel's C differs from the reference; `result` holds the run's
    numbers (errors, mismatches, times)."""

    def __init__(self, message, result):
        super().__init__(message, WRONG_RESULT)
        self.result = result


class ArgumentTypeError(RunError, TypeError):
    """An argument of run() that must be an int is not one (bools and floats
    included); the message names the argument. A RunError with status USAGE
    and a TypeError."""

    def __init__(self, message):
        super().__init__(message, USAGE)


class ArgumentValueError(RunError, ValueError):
    """An int argument of run() outside the values it may take; the message
    names the argument and the range. A RunError with status USAGE and a
    ValueError."""

    def __init__(self, message):
        super().__init__(message, USAGE)


class ArgumentOverflowError(ArgumentValueError, OverflowError):
    """An int argument of run() that the C type the C API takes it as
    (int64_t, int32_t) cannot hold: ctypes would silently keep its low bits.
    Also an OverflowError."""


# The ranges of the C API's integer types.
INT32 = ("int32_t", -2 ** 31, 2 ** 31 - 1)
INT64 = ("int64_t", -2 ** 63, 2 ** 63 - 1)


def _checked_int(name, value, least, ctype, wanted, optional=False):
    """`value` as an int for an argument the C API takes as `ctype` (INT32 or
    INT64), at least `least`; None stays None when `optional`. Raises
    ArgumentTypeError for anything but an int (a bool or a float too; a
    numpy integer counts as an int),
    ArgumentOverflowError beyond the C type and ArgumentValueError below
    `least`; `wanted` words what the argument must be, for the message."""
    if value is None and optional:
        return None
    # numbers.Integral: int and numpy's integers, not numpy's bool.
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentTypeError("%s must be %s, not %r (of type %s)" % (
            name, wanted, value, type(value).__name__))
    number = int(value)
    type_name, low, high = ctype
    if number > high or number < low:
        raise ArgumentOverflowError(
            "%s must be %s, not %d: out of the range of the C API's %s "
            "(%d to %d)" % (name, wanted, number, type_name, max(low, least),
                            high))
    if number < least:
        raise ArgumentValueError("%s must be %s, not %d (from %d to %d)" % (
            name, wanted, number, least, high))
    return number


class _Result(ctypes.Structure):
    # tgemm_rt_result, field for field.
    _fields_ = [(name, ctypes.c_double) for name in (
        "kernel_ms", "kernel_rate", "anchor_ms", "anchor_rate", "ratio",
        "rel_error", "max_error")] + [
        ("mismatches", ctypes.c_int64), ("first_mismatch", ctypes.c_int64),
        ("checked", ctypes.c_int32), ("passed", ctypes.c_int32),
        ("integer", ctypes.c_int32), ("reps", ctypes.c_int32),
        ("anchor", ctypes.c_char * 128)]


class _Options(ctypes.Structure):
    # tgemm_rt_options, field for field; 0 means "not given" throughout.
    _fields_ = [(name, ctypes.c_int64) for name in (
        "m", "n", "k", "batch", "lda", "ldb", "ldc", "offset_a", "offset_b",
        "offset_c")] + [("reps", ctypes.c_int32), ("check", ctypes.c_int32)]


# The keywords of run() that only tgemm_rt_run_with understands.
_STORAGE_KNOBS = ("batch", "lda", "ldb", "ldc", "offset_a", "offset_b",
                  "offset_c")


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    installed = []
    try:
        # cmake --install: the prefix's lib/.
        from . import _install
        installed.append(os.path.join(here, _install.RUNTIME_LIBRARY_DIR,
                                      LIBRARY_NAME))
    except ImportError:
        pass
    return [
        # pip install: the library inside the package
        os.path.join(here, LIBRARY_NAME),
    ] + installed + [
        # build/python/tgemm -> build/lib
        os.path.join(here, os.pardir, os.pardir, "lib", LIBRARY_NAME),
        # python/tgemm in the source tree -> build/lib
        os.path.join(here, os.pardir, os.pardir, "build", "lib",
                     LIBRARY_NAME),
    ]


def find_library(library=None):
    """The path of the runtime library to load (see the module's doc), or
    the bare name for the dynamic loader to find. Raises LibraryNotFound
    when an explicitly named library does not exist."""
    explicit = library or os.environ.get("TGEMM_RUNTIME_LIB")
    if explicit:
        explicit = os.fspath(explicit)
        if not os.path.isfile(explicit):
            source = "library" if library else "TGEMM_RUNTIME_LIB"
            raise LibraryNotFound("%s names %s, which does not exist"
                                  % (source, explicit))
        return explicit
    for path in _candidates():
        if os.path.isfile(path):
            return os.path.normpath(path)
    return LIBRARY_NAME


_loaded = {}


class Runtime:
    """The loaded runtime library with its functions' signatures."""

    def __init__(self, path):
        try:
            lib = ctypes.CDLL(path)
        except OSError as error:
            where = ", ".join(os.path.normpath(p) for p in _candidates())
            raise LibraryNotFound(
                "cannot load the tgemm runtime (%s): %s. Build it (it needs "
                "the CUDA toolkit; see docs/runtime.md) or set "
                "TGEMM_RUNTIME_LIB; looked in %s and the loader's path"
                % (path, error, where)) from None
        self.path = path
        if not hasattr(lib, "tgemm_rt_abi_version"):
            raise LibraryNotFound("%s is not the tgemm runtime (it has no "
                                  "tgemm_rt_abi_version)" % path)
        lib.tgemm_rt_abi_version.restype = ctypes.c_int
        lib.tgemm_rt_result_size.restype = ctypes.c_size_t
        version = lib.tgemm_rt_abi_version()
        if version != ABI_VERSION or \
                lib.tgemm_rt_result_size() != ctypes.sizeof(_Result):
            raise LibraryNotFound(
                "%s has C API version %d (result of %d bytes); this package "
                "speaks version %d (%d bytes)" % (
                    path, version, lib.tgemm_rt_result_size(), ABI_VERSION,
                    ctypes.sizeof(_Result)))
        lib.tgemm_rt_load.restype = ctypes.c_void_p
        lib.tgemm_rt_load.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                      ctypes.c_char_p, ctypes.c_int]
        lib.tgemm_rt_run.restype = ctypes.c_int
        lib.tgemm_rt_run.argtypes = [ctypes.c_void_p] + [ctypes.c_int64] * 3 \
            + [ctypes.c_int, ctypes.c_int, ctypes.POINTER(_Result)]
        lib.tgemm_rt_last_error.restype = ctypes.c_char_p
        lib.tgemm_rt_last_error.argtypes = []
        lib.tgemm_rt_free.restype = None
        lib.tgemm_rt_free.argtypes = [ctypes.c_void_p]
        # Added to the C API later (same ABI version): batches, leading
        # dimensions and offsets, and checking them without a device.
        self.has_options = hasattr(lib, "tgemm_rt_run_with") and \
            hasattr(lib, "tgemm_rt_validate")
        if self.has_options:
            lib.tgemm_rt_options_size.restype = ctypes.c_size_t
            if lib.tgemm_rt_options_size() != ctypes.sizeof(_Options):
                raise LibraryNotFound(
                    "%s has options of %d bytes; this package speaks %d" % (
                        path, lib.tgemm_rt_options_size(),
                        ctypes.sizeof(_Options)))
            lib.tgemm_rt_run_with.restype = ctypes.c_int
            lib.tgemm_rt_run_with.argtypes = [
                ctypes.c_void_p, ctypes.POINTER(_Options),
                ctypes.POINTER(_Result)]
            lib.tgemm_rt_validate.restype = ctypes.c_int
            lib.tgemm_rt_validate.argtypes = [
                ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_Options)]
        if hasattr(lib, "tgemm_rt_element_types"):
            lib.tgemm_rt_element_types.restype = ctypes.c_char_p
            lib.tgemm_rt_element_types.argtypes = []
        self.lib = lib

    def last_error(self):
        return (self.lib.tgemm_rt_last_error() or b"").decode(
            "utf-8", "replace")


def element_types_json(library=None):
    """The element-type table as JSON text, from the runtime library (the
    same table as the compiler's; tgemm.problem.element_types reads it)."""
    rt = load_library(library)
    if not hasattr(rt.lib, "tgemm_rt_element_types"):
        raise LibraryNotFound("%s predates tgemm_rt_element_types; rebuild "
                              "the runtime" % rt.path)
    return rt.lib.tgemm_rt_element_types().decode("utf-8")


def load_library(library=None):
    """The Runtime for `library` (see find_library), loaded once."""
    path = find_library(library)
    if path not in _loaded:
        _loaded[path] = Runtime(path)
    return _loaded[path]


def _load_error(message):
    # tgemm_rt_load returns NULL without a status; the runtime words every
    # device-less failure (ErrorKind::NoDevice) this way (docs/runtime.md).
    if message.startswith(("no CUDA device", "unusable CUDA driver")):
        return NoDevice(message)
    return RunError(message)


def _as_file(data, suffix, stack, label):
    """A path holding `data` (bytes or text), made for the duration of the
    run; `label` replaces the path in the runtime's messages."""
    handle = tempfile.NamedTemporaryFile(prefix="tgemm-", suffix=suffix,
                                         delete=False)
    with handle:
        handle.write(data if isinstance(data, bytes) else data.encode())
    stack.append((handle.name, label))
    return handle.name


def _kernel_source(kernel, kernel_name):
    """(path, contents): exactly one is not None. A CompiledKernel gives the
    PTX of the module holding `kernel_name` (or its only module)."""
    if kernel is None:
        return None, None
    if hasattr(kernel, "modules") and hasattr(kernel, "manifest"):
        modules = kernel.modules
        if kernel_name is not None:
            modules = [m for m in modules if any(
                k["name"] == kernel_name and k["module"] == m.name
                for k in kernel.manifest["kernels"])] or modules
        if len(modules) != 1:
            raise RunError("the compiled source has %d kernel modules; say "
                           "which kernel to run with kernel_name"
                           % len(modules), USAGE)
        return None, modules[0].ptx
    if isinstance(kernel, (bytes, bytearray)):
        return None, bytes(kernel)
    if isinstance(kernel, str) and "\n" in kernel:
        return None, kernel  # PTX text; a path has no newline
    return os.fspath(kernel), None


def _manifest_entry(manifest, kernel_name):
    """The manifest entry the runtime will pick, for the report; None when
    the manifest cannot be read here (the runtime then says why)."""
    if not isinstance(manifest, dict):
        try:
            with open(manifest) as f:
                manifest = json.load(f)
        except (OSError, ValueError):
            return None
    kernels = manifest.get("kernels") if isinstance(manifest, dict) else None
    if not isinstance(kernels, list):
        return None
    for entry in kernels:
        if isinstance(entry, dict) and (
                entry.get("name") == kernel_name or
                kernel_name is None and len(kernels) == 1):
            return entry
    return None


def run(kernel, manifest=None, m=None, n=None, k=None, reps=20, check=True,
        kernel_name=None, device=0, library=None, batch=None, lda=None,
        ldb=None, ldc=None, offset_a=None, offset_b=None, offset_c=None):
    """Runs a compiled kernel on GPU `device`: one checked launch (when
    `check`), then `reps` timed launches of it and of the reference library
    (the anchor, docs/runtime.md).

    kernel: a path to a PTX, cubin or fatbin file; PTX text (str with
    newlines) or cubin bytes; a CompiledKernel (its PTX); or None to time
    the anchor only. manifest: a path or a dict (a CompiledKernel's own by
    default). m, n, k: the problem size; None for a size the kernel has
    statically. kernel_name: the manifest entry, when it has several.
    batch: the number of GEMMs of a batched kernel; None for its static
    batch. lda, ldb, ldc: leading dimensions (row strides, in elements) of
    the stored A, B, C, and offset_a, offset_b, offset_c: where each starts
    in its allocation, in elements; only for arguments the manifest marks
    strided (tgemm-run's --lda ... --offset-c); None (or offset 0) for
    packed rows at offset 0.

    Returns a dict: kernel, m, n, k, batch, lda, ldb, ldc, offset_a,
    offset_b, offset_c, unit (TFLOP/s or TOP/s), kernel_ms, kernel_rate,
    anchor, anchor_ms, anchor_rate, ratio, check (ok, FAIL or skipped),
    rel_error, max_error, mismatches, first_mismatch, reps; what did not
    happen (or was not given) is None. Raises LibraryNotFound, NoDevice,
    WrongResult (with .result) or RunError, whose message is the
    runtime's."""
    if manifest is None and hasattr(kernel, "manifest"):
        manifest = kernel.manifest
    if manifest is None:
        raise RunError("run needs the kernel's manifest (a path or a dict)",
                       USAGE)
    # Every integer reaches the C API through ctypes, which keeps the low
    # bits of one its C type cannot hold (m=2**64+256 would run M=256):
    # each is checked against its type here, before the library is loaded
    # or a device looked for.
    reps = _checked_int("reps", reps, 0, INT32, "an int >= 0")
    device = _checked_int("device", device, 0, INT32, "an int >= 0")
    sizes = {}
    for dim, value in (("m", m), ("n", n), ("k", k)):
        sizes[dim] = _checked_int(dim, value, 1, INT64,
                                  "a positive int or None", optional=True)
    knobs = {"batch": batch, "lda": lda, "ldb": ldb, "ldc": ldc,
             "offset_a": offset_a, "offset_b": offset_b,
             "offset_c": offset_c}
    for name, value in knobs.items():
        least = 0 if name.startswith("offset") else 1
        knobs[name] = _checked_int(name, value, least, INT64,
                                   "an int >= %d or None" % least,
                                   optional=True)
    if kernel is None and check:
        raise RunError("timing the anchor alone (kernel=None) needs "
                       "check=False: there is no kernel to check", USAGE)
    rt = load_library(library)
    given = [name for name in _STORAGE_KNOBS if knobs[name] is not None]
    if given and not rt.has_options:
        raise RunError("%s lacks tgemm_rt_run_with, which %s need; rebuild "
                       "the runtime" % (rt.path, ", ".join(given)), USAGE)

    temporaries = []
    try:
        path, contents = _kernel_source(kernel, kernel_name)
        if contents is not None:
            binary = isinstance(contents, bytes) and \
                contents.startswith(b"\x7fELF")
            path = _as_file(contents, ".cubin" if binary else ".ptx",
                            temporaries, "<kernel>")
        if isinstance(manifest, dict):
            manifest_path = _as_file(json.dumps(manifest), ".json",
                                     temporaries, "<manifest>")
        else:
            manifest_path = os.fspath(manifest)

        def message():
            text = rt.last_error()
            for temporary, label in temporaries:
                text = text.replace(temporary, label)
            return text

        def encode(text):
            return None if text is None else os.fsencode(text)

        options = None
        if rt.has_options:
            options = _Options(m=sizes["m"] or 0, n=sizes["n"] or 0,
                               k=sizes["k"] or 0, reps=reps,
                               check=1 if check else 0,
                               **{name: knobs[name] or 0
                                  for name in _STORAGE_KNOBS})
            # Sizes, batch, leading dimensions and offsets are checked
            # before a device is looked for, as tgemm-run does.
            status = rt.lib.tgemm_rt_validate(
                encode(manifest_path), encode(kernel_name),
                ctypes.byref(options))
            if status != OK:
                raise RunError(message(), status)
        handle = rt.lib.tgemm_rt_load(encode(path), encode(manifest_path),
                                      encode(kernel_name), device)
        if not handle:
            raise _load_error(message())
        try:
            result = _Result()
            if options is not None:
                status = rt.lib.tgemm_rt_run_with(
                    handle, ctypes.byref(options), ctypes.byref(result))
            else:
                status = rt.lib.tgemm_rt_run(
                    handle, sizes["m"] or 0, sizes["n"] or 0,
                    sizes["k"] or 0, reps, 1 if check else 0,
                    ctypes.byref(result))
            error = message()
        finally:
            rt.lib.tgemm_rt_free(handle)
    finally:
        for temporary, _ in temporaries:
            os.unlink(temporary)

    if status not in (OK, WRONG_RESULT):
        if status == NO_DEVICE:
            raise NoDevice(error)
        raise RunError(error, status)
    entry = _manifest_entry(manifest, kernel_name) or {}
    problem = entry.get("problem") if isinstance(entry.get("problem"),
                                                 dict) else {}
    for dim in "mnk":
        if sizes[dim] is None:
            sizes[dim] = problem.get(dim)
    sizes["batch"] = knobs["batch"] if knobs["batch"] is not None \
        else problem.get("batch")
    for name in _STORAGE_KNOBS[1:]:
        sizes[name] = knobs[name]
    report = _report(result, entry.get("name", kernel_name), sizes)
    if status == WRONG_RESULT:
        raise WrongResult(error, report)
    return report


def _report(r, kernel_name, sizes):
    timed = r.reps > 0

    def when(condition, value):
        return value if condition else None
    anchor = r.anchor.decode("utf-8", "replace").strip() or None
    return {
        "kernel": kernel_name,
        "m": sizes["m"], "n": sizes["n"], "k": sizes["k"],
        "batch": sizes["batch"],
        "lda": sizes["lda"], "ldb": sizes["ldb"], "ldc": sizes["ldc"],
        "offset_a": sizes["offset_a"], "offset_b": sizes["offset_b"],
        "offset_c": sizes["offset_c"],
        "unit": "TOP/s" if r.integer else "TFLOP/s",
        "kernel_ms": when(timed and r.kernel_ms > 0, r.kernel_ms),
        "kernel_rate": when(timed and r.kernel_ms > 0, r.kernel_rate),
        "anchor": anchor,
        "anchor_ms": when(timed and r.anchor_ms > 0, r.anchor_ms),
        "anchor_rate": when(timed and r.anchor_ms > 0, r.anchor_rate),
        "ratio": when(timed and r.kernel_ms > 0 and r.anchor_ms > 0, r.ratio),
        "check": ("ok" if r.passed else "FAIL") if r.checked else "skipped",
        "rel_error": when(r.checked, r.rel_error),
        "max_error": when(r.checked, r.max_error),
        "mismatches": when(r.checked, r.mismatches),
        "first_mismatch": when(r.checked and r.first_mismatch >= 0,
                               r.first_mismatch),
        "reps": r.reps,
    }
