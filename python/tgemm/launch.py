"""Launch a compiled kernel on your own tensors.

    kernel = tgemm.compile(source, chip="sm_90a")
    kernel(a, b, c)            # C = alpha * A @ B + beta * C, on the GPU
    kernel(a, b, c, bias)      # a kernel with a fused epilogue: its
                               # operands follow c, in the manifest's order

`a`, `b` and `c` are the logical matrices A (M x K), B (K x N) and C
(M x N), or batches of them (a leading batch dimension) for a batched
kernel: torch tensors, or any object with `__dlpack__` or
`__cuda_array_interface__`. Their strides say how they lie in memory, which
must be what the kernel was compiled for: a row-major operand (layout row)
has unit stride along its columns, a column-major one (layout col) along
its rows; so for a kernel of layout(row, col), `kernel(x, w.t(), y)` with
`w` an N x K row-major weight. The launch goes to the current torch stream
of the tensors' device (or the stream given), asynchronously, and may be
captured in a CUDA graph. Every argument is checked first; errors name it.

A kernel compiled with a fused epilogue (bias, scale, residual, relu,
gelu_tanh, gelu_erf, silu: the manifest's "epilogue") takes the operands its
steps read after c, positionally, one per epilogue argument (epilogue0,
epilogue1, ...): a bias or scale vector of M (broadcast row), N (col) or 1
(scalar) elements, a residual of C's shape, each contiguous and of the
manifest's type (f32, f16 or bf16), on C's device.

Only the runtime library (libtgemm_runtime.so) is needed, not the compiler:
a `Launcher` can also be made from PTX (or cubin) and manifest files.
"""

import ctypes
import json
import os
import threading

from . import runtime as _rt

__all__ = ["Launcher", "LaunchError"]


class LaunchError(_rt.RunError):
    """The runtime refused a launch (its message names the argument)."""


class _Matrix(ctypes.Structure):
    _fields_ = [("data", ctypes.c_uint64), ("ld", ctypes.c_int64),
                ("batch_stride", ctypes.c_int64)]


class _LaunchArgs(ctypes.Structure):
    _fields_ = [("m", ctypes.c_int64), ("n", ctypes.c_int64),
                ("k", ctypes.c_int64), ("batch", ctypes.c_int64),
                ("a", _Matrix), ("b", _Matrix), ("c", _Matrix),
                ("stream", ctypes.c_void_p),
                ("workspace", ctypes.c_uint64),
                ("workspace_bytes", ctypes.c_int64),
                # ABI 2: the epilogue operands' device addresses.
                ("epilogue", ctypes.POINTER(ctypes.c_uint64)),
                ("num_epilogue", ctypes.c_int64)]


# Element types as the manifest spells them, by torch dtype name, DLPack
# (code, bits) and __cuda_array_interface__ typestr.
_TORCH = {"float16": "f16", "bfloat16": "bf16", "float32": "f32",
          "int8": "s8", "uint8": "u8", "int32": "s32",
          "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}
_DLPACK = {(2, 16): "f16", (4, 16): "bf16", (2, 32): "f32", (0, 8): "s8",
           (1, 8): "u8", (0, 32): "s32"}
_TYPESTR = {"f2": "f16", "f4": "f32", "i1": "s8", "u1": "u8", "i4": "s32"}
# The element type in memory of each manifest type (tf32 lies as f32).
_STORED = {"tf32": "f32"}
# Torch's name of each manifest type, for messages.
_DTYPE_NAME = {v: k for k, v in _TORCH.items()}


def _library(library):
    rt = _rt.load_library(library)
    lib = rt.lib
    if not hasattr(lib, "tgemm_rt_launch"):
        raise _rt.LibraryNotFound("%s predates tgemm_rt_launch; rebuild the "
                                  "runtime" % rt.path)
    if not getattr(lib, "_tgemm_launch_typed", False):
        lib.tgemm_rt_launch_args_size.restype = ctypes.c_size_t
        lib.tgemm_rt_launch_args_size.argtypes = []
        if lib.tgemm_rt_launch_args_size() != ctypes.sizeof(_LaunchArgs):
            raise _rt.LibraryNotFound(
                "%s has launch arguments of %d bytes; this package speaks %d"
                % (rt.path, lib.tgemm_rt_launch_args_size(),
                   ctypes.sizeof(_LaunchArgs)))
        lib.tgemm_rt_launch.restype = ctypes.c_int
        lib.tgemm_rt_launch.argtypes = [ctypes.c_void_p,
                                        ctypes.POINTER(_LaunchArgs)]
        lib.tgemm_rt_workspace_bytes.restype = ctypes.c_int
        lib.tgemm_rt_workspace_bytes.argtypes = [
            ctypes.c_void_p, ctypes.POINTER(_LaunchArgs),
            ctypes.POINTER(ctypes.c_int64)]
        lib._tgemm_launch_typed = True
    return rt


class _Operand:
    """What a launch needs of one tensor: address, shape and strides (in
    elements), element type, device ordinal (None: unknown), and the torch
    stream to launch on (None: not a torch tensor)."""

    def __init__(self, name, obj):
        self.name = name
        self.stream = None
        if _is_torch(obj):
            self._from_torch(obj)
        elif hasattr(obj, "__dlpack__"):
            self._from_dlpack(obj)
        elif hasattr(obj, "__cuda_array_interface__"):
            self._from_cai(obj.__cuda_array_interface__)
        else:
            raise TypeError(
                "argument %r: expected a CUDA tensor (torch, or an object "
                "with __dlpack__ or __cuda_array_interface__), got %s"
                % (name, type(obj).__name__))

    def _from_torch(self, t):
        if not t.is_cuda:
            raise ValueError("argument %r is on %s, not on a CUDA device"
                             % (self.name, t.device))
        dtype = str(t.dtype).replace("torch.", "")
        if dtype not in _TORCH:
            raise TypeError("argument %r has dtype %s, which no tgemm kernel "
                            "takes" % (self.name, t.dtype))
        self.type = _TORCH[dtype]
        self.data = t.data_ptr()
        self.shape = tuple(t.shape)
        self.strides = tuple(t.stride())
        self.device = t.device.index
        import torch
        self.stream = torch.cuda.current_stream(t.device).cuda_stream

    def _from_cai(self, cai):
        typestr = cai["typestr"]
        if typestr[1:] not in _TYPESTR:
            raise TypeError("argument %r has typestr %r, which no tgemm "
                            "kernel takes" % (self.name, typestr))
        self.type = _TYPESTR[typestr[1:]]
        itemsize = int(typestr[2:])
        self.data = int(cai["data"][0])
        self.shape = tuple(int(s) for s in cai["shape"])
        if cai.get("strides") is None:
            self.strides = _contiguous(self.shape)
        else:
            byte_strides = tuple(int(s) for s in cai["strides"])
            if any(s % itemsize for s in byte_strides):
                raise ValueError("argument %r has strides %r bytes, not whole "
                                 "elements" % (self.name, byte_strides))
            self.strides = tuple(s // itemsize for s in byte_strides)
        self.device = None

    def _from_dlpack(self, obj):
        try:
            capsule = obj.__dlpack__()
        except TypeError:
            capsule = obj.__dlpack__(stream=None)
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype = ctypes.c_void_p
        get.argtypes = [ctypes.py_object, ctypes.c_char_p]
        managed = get(capsule, b"dltensor")
        t = _DLTensor.from_address(managed)
        # kDLCUDA = 2, kDLCUDAManaged = 13.
        if t.device_type not in (2, 13):
            raise ValueError("argument %r is not in CUDA memory (DLPack "
                             "device type %d)" % (self.name, t.device_type))
        key = (t.code, t.bits)
        if key not in _DLPACK or t.lanes != 1:
            raise TypeError("argument %r has DLPack type (code %d, %d bits, "
                            "%d lanes), which no tgemm kernel takes"
                            % (self.name, t.code, t.bits, t.lanes))
        self.type = _DLPACK[key]
        self.shape = tuple(t.shape[i] for i in range(t.ndim))
        self.strides = (_contiguous(self.shape) if not t.strides else
                        tuple(t.strides[i] for i in range(t.ndim)))
        self.data = t.data + t.byte_offset
        self.device = t.device_id
        self._keep = capsule  # the memory stays valid while it lives


class _DLTensor(ctypes.Structure):
    # DLPack's DLTensor (dlpack.h): data, device {type, id}, ndim, dtype
    # {code, bits, lanes}, shape, strides, byte_offset.
    _fields_ = [("data", ctypes.c_uint64), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


def _contiguous(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def _is_torch(obj):
    return type(obj).__module__.startswith("torch") and hasattr(
        obj, "data_ptr") and hasattr(obj, "stride")


class Launcher:
    """A compiled kernel loaded for launches on caller memory, one handle
    per CUDA device (made on first use there). Safe to call from several
    threads."""

    def __init__(self, kernel, manifest=None, kernel_name=None, library=None):
        """kernel: a CompiledKernel (its only module, or `kernel_name`'s),
        PTX text or bytes, or the path of a PTX, cubin or fatbin file;
        manifest: its manifest (a dict or a path; a CompiledKernel has its
        own)."""
        self._rt = _library(library)
        path, contents = _rt._kernel_source(kernel, kernel_name)
        if manifest is None and hasattr(kernel, "manifest"):
            manifest = kernel.manifest
        if manifest is None:
            raise TypeError("a manifest is needed with a kernel file or PTX "
                            "text")
        if isinstance(manifest, dict):
            self._manifest = manifest
        else:
            with open(os.fspath(manifest)) as f:
                self._manifest = json.load(f)
        kernels = self._manifest.get("kernels", [])
        entry = [k for k in kernels if kernel_name is None or
                 k.get("name") == kernel_name]
        if len(entry) != 1:
            raise ValueError(
                "the manifest has %d kernels%s; say which with kernel_name"
                % (len(kernels), "" if kernel_name is None else
                   " and none is %r" % kernel_name))
        self.entry = entry[0]
        self.name = self.entry["name"]
        self._path, self._contents = path, contents
        self._handles = {}
        # Split K's workspaces, by (device, stream): one per stream, since
        # launches on one stream run one after another and each leaves its
        # workspace ready for the next.
        self._workspaces = {}
        self._lock = threading.Lock()
        self.split_k = self.entry.get("config", {}).get("split_k", 1)
        # The operands the kernel reads from transposed copies, which its
        # transposing kernels write into the workspace before each launch.
        self.transposed = [t.get("operand", "?").upper()
                           for t in self.entry.get("transposes", [])]
        # Those it reads from copies as stored with aligned rows, which its
        # aligning kernels write likewise.
        self.aligned = [t.get("operand", "?").upper()
                        for t in self.entry.get("aligned_copies", [])]

    def _handle(self, device):
        with self._lock:
            if device in self._handles:
                return self._handles[device]
            files = []
            try:
                path = self._path
                if path is None:
                    suffix = ".ptx" if isinstance(self._contents, str) \
                        else ".bin"
                    path = _rt._as_file(self._contents, suffix, files,
                                        "the kernel")
                manifest = _rt._as_file(json.dumps(self._manifest), ".json",
                                        files, "the manifest")
                handle = self._rt.lib.tgemm_rt_load(
                    path.encode(), manifest.encode(), self.name.encode(),
                    device)
            finally:
                for name, _ in files:
                    os.unlink(name)
            if not handle:
                raise _rt._load_error(self._rt.last_error())
            self._handles[device] = handle
            return handle

    def __del__(self):
        for handle in getattr(self, "_handles", {}).values():
            self._rt.lib.tgemm_rt_free(handle)

    def epilogue_operands(self):
        """The operands the kernel's epilogue reads, in the order a call
        takes them after c: one dict per epilogue argument with its `name`
        (epilogue0, ...), `op` (bias, scale, residual), `broadcast` (row,
        col or scalar; None for a residual) and `type` (f32, f16, bf16)."""
        steps = {s.get("arg"): s for s in self.entry.get("epilogue", [])
                 if "arg" in s}
        out = []
        for arg in self.entry.get("args", []):
            step = steps.get(arg.get("name"))
            if step is None:
                continue
            out.append({"name": arg["name"], "op": step["op"],
                        "broadcast": step.get("broadcast"),
                        "type": arg["type"]})
        return out

    def __call__(self, a, b, c, *epilogue, stream=None, workspace=None):
        """C = alpha * A @ B + beta * C, then the kernel's epilogue steps,
        on the tensors' device, launched on `stream` (a torch.cuda.Stream,
        a CUstream as an int, or None for the current torch stream, else
        the default stream). Returns c.

        `epilogue`: the operands of a kernel with a fused epilogue, after
        c in the order of epilogue_operands(): a bias or scale vector of M
        (broadcast row), N (col) or 1 (scalar) elements, a residual shaped
        like c; each contiguous, of the manifest's type, on c's device.

        A kernel that splits K (`split_k` > 1) or reads an operand from a
        transposed or aligned copy (`transposes`, `aligned_copies`) needs a
        workspace: with torch
        tensors the launcher keeps a zeroed one per device and stream;
        otherwise pass `workspace`, a zeroed CUDA buffer (uint8, or anything
        with __cuda_array_interface__ or __dlpack__) of at least
        workspace_bytes(...) bytes that no launch on another stream uses at
        the same time."""
        ops = [_Operand(n, x) for n, x in (("a", a), ("b", b), ("c", c))]
        args = _LaunchArgs()
        batched = "batch" in self.entry.get("problem", {})
        rank = 3 if batched else 2
        for op in ops:
            if len(op.shape) != rank:
                raise ValueError(
                    "argument %r has shape %r: kernel %r takes %s" % (
                        op.name, op.shape, self.name,
                        "a batch of matrices (3 dimensions)" if batched
                        else "a matrix (2 dimensions)"))
        (m, k), (kb, n), (mc, nc) = (op.shape[-2:] for op in ops)
        if kb != k or mc != m or nc != n:
            raise ValueError(
                "shapes do not make a GEMM: a %r @ b %r -> c %r (A is M x K, "
                "B K x N, C M x N)" % (ops[0].shape, ops[1].shape,
                                       ops[2].shape))
        if batched and not (ops[0].shape[0] == ops[1].shape[0] ==
                            ops[2].shape[0]):
            raise ValueError("batch sizes differ: a %d, b %d, c %d" % tuple(
                op.shape[0] for op in ops))
        epilogue_ops = self._epilogue(epilogue, ops[2].shape, m, n)
        every = ops + epilogue_ops
        devices = {op.device for op in every if op.device is not None}
        if len(devices) > 1:
            raise ValueError("the arguments are on different devices: %s"
                             % ", ".join("%s on %d" % (op.name, op.device)
                                         for op in every
                                         if op.device is not None))
        device = devices.pop() if devices else 0
        for op, spec, field in zip(ops, ("a", "b", "c"), ("a", "b", "c")):
            want = self.entry[spec]
            stored = _STORED.get(want["type"], want["type"])
            if op.type != stored:
                raise TypeError("argument %r is %s; kernel %r takes %s%s" % (
                    op.name, op.type, self.name, stored,
                    "" if stored == want["type"] else
                    " (%s operands lie in memory as %s)" % (want["type"],
                                                          stored)))
            getattr(args, field).data, getattr(args, field).ld = \
                _storage(op, want["layout"], self.name)
            if batched:
                getattr(args, field).batch_stride = op.strides[0]
        args.m, args.n, args.k = m, n, k
        args.batch = ops[0].shape[0] if batched else 0
        args.stream = _stream(stream, ops)
        # Kept alive until the launch returns (the runtime copies them).
        addresses = (ctypes.c_uint64 * max(len(epilogue_ops), 1))(
            *[op.data for op in epilogue_ops])
        args.epilogue = addresses
        args.num_epilogue = len(epilogue_ops)
        handle = self._handle(device)
        if self.split_k > 1 or self.transposed or self.aligned:
            self._set_workspace(handle, args, device, ops, workspace)
        status = self._rt.lib.tgemm_rt_launch(handle, ctypes.byref(args))
        if status != 0:
            raise LaunchError(self._rt.last_error(), status)
        return c

    def _epilogue(self, given, c_shape, m, n):
        """The epilogue operands of a call, checked against the manifest:
        their count, and each one's shape, type and contiguity."""
        wanted = self.epilogue_operands()
        if len(given) != len(wanted):
            listed = ", ".join(
                "%s: %s" % (w["name"], _describe_epilogue(w, c_shape, m, n))
                for w in wanted)
            raise TypeError(
                "kernel %r takes %d epilogue operand%s after c%s, got %d" % (
                    self.name, len(wanted), "" if len(wanted) == 1 else "s",
                    " (%s)" % listed if listed else "", len(given)))
        ops = []
        for want, obj in zip(wanted, given):
            op = _Operand(want["name"], obj)
            shape = _epilogue_shape(want, c_shape, m, n)
            what = "%s (%s)" % (want["name"], want["op"] if not
                                want["broadcast"] else "%s, %s" % (
                                    want["op"], want["broadcast"]))
            elements = 1
            for s in shape:
                elements *= s
            expected = "%d element%s of %s" % (
                elements, "" if elements == 1 else "s",
                _DTYPE_NAME.get(want["type"], want["type"]))
            if want["broadcast"] is None:
                expected += " shaped %r (C's shape)" % (tuple(shape),)
            if op.type != want["type"]:
                raise TypeError("%s: expected %s, got %s" % (
                    what, expected, _DTYPE_NAME.get(op.type, op.type)))
            # A vector is any tensor of its length with one non-unit
            # dimension at most (x, x[None, :], a 0-d scalar); a residual
            # has C's shape exactly.
            got = tuple(op.shape)
            size = 1
            for s in got:
                size *= s
            if want["broadcast"] is None:
                fits = got == tuple(shape)
            else:
                fits = size == elements and \
                    sum(1 for s in got if s != 1) <= 1
            if not fits:
                raise ValueError("%s: expected %s, got shape %r" % (
                    what, expected, got))
            if any(st != ex for sz, st, ex in zip(got, op.strides,
                                                  _contiguous(got))
                   if sz != 1):
                raise ValueError("%s: expected %s, contiguous; got strides "
                                 "%r (use .contiguous())" % (
                                     what, expected, tuple(op.strides)))
            ops.append(op)
        return ops

    def workspace_bytes(self, m, n, k, batch=0, device=0):
        """Bytes of the workspace a launch of this size needs (0 unless the
        kernel splits K or reads an operand from a transposed or aligned
        copy)."""
        args = _LaunchArgs()
        args.m, args.n, args.k, args.batch = m, n, k, batch
        return self._workspace_bytes(self._handle(device), args)

    def _workspace_bytes(self, handle, args):
        bytes_ = ctypes.c_int64(0)
        status = self._rt.lib.tgemm_rt_workspace_bytes(
            handle, ctypes.byref(args), ctypes.byref(bytes_))
        if status != 0:
            raise LaunchError(self._rt.last_error(), status)
        return bytes_.value

    def _set_workspace(self, handle, args, device, ops, workspace):
        need = self._workspace_bytes(handle, args)
        if workspace is not None:
            buf = _Operand("workspace", workspace)
            size = 1
            for s in buf.shape:
                size *= s
            if buf.type not in ("u8", "s8"):
                raise TypeError("workspace must be a byte buffer (uint8), "
                                "not %s" % buf.type)
            args.workspace, args.workspace_bytes = buf.data, size
            return
        if ops[0].stream is None:  # not a torch tensor
            uses = []
            if self.split_k > 1:
                uses.append("splits K into %d parts" % self.split_k)
            for operands, kind, one in ((self.transposed, "transposed", "a"),
                                        (self.aligned, "aligned", "an")):
                if operands:
                    uses.append("reads %s from %s" % (
                        " and ".join(operands),
                        "%s %s copy" % (one, kind) if len(operands) == 1
                        else "%s copies" % kind))
            raise ValueError(
                "kernel %r %s and needs a workspace of %d bytes: pass "
                "workspace=, a zeroed CUDA byte buffer" % (
                    self.name, ", ".join(uses), need))
        import torch
        key = (device, args.stream)
        with self._lock:
            buf = self._workspaces.get(key)
            if buf is None or buf.numel() < need:
                # Made and zeroed on the stream that uses it, so it is
                # ready before the launch (torch's blocks are 512-byte
                # aligned).
                on = "cuda:%d" % device
                use = (torch.cuda.ExternalStream(args.stream, device=on)
                       if args.stream else torch.cuda.default_stream(on))
                with torch.cuda.stream(use):
                    buf = torch.zeros(max(need, 1), dtype=torch.uint8,
                                      device=on)
                self._workspaces[key] = buf
        args.workspace, args.workspace_bytes = buf.data_ptr(), buf.numel()


def _epilogue_shape(want, c_shape, m, n):
    """The shape an epilogue operand has: a vector of M, N or 1 elements,
    or C's shape for a residual."""
    broadcast = want["broadcast"]
    if broadcast is None:
        return tuple(c_shape)
    return ({"row": m, "col": n}.get(broadcast, 1),)


def _describe_epilogue(want, c_shape, m, n):
    """'bias(col) f32[4096]', 'residual f16[256 x 512]'."""
    step = want["op"] + ("(%s)" % want["broadcast"] if want["broadcast"]
                         else "")
    return "%s %s[%s]" % (step, want["type"], " x ".join(
        str(s) for s in _epilogue_shape(want, c_shape, m, n)))


def _storage(op, layout, kernel):
    """(address, leading dimension) of an operand stored as `layout`: a
    row-major matrix steps 1 along its columns, a column-major one along its
    rows."""
    rows, cols = op.strides[-2], op.strides[-1]
    r, c = op.shape[-2], op.shape[-1]
    if layout == "row":
        if cols == 1 or c == 1:
            return op.data, (rows if r > 1 else 0)
    else:
        if rows == 1 or r == 1:
            return op.data, (cols if c > 1 else 0)
    raise ValueError(
        "argument %r has shape %r and strides %r: kernel %r takes it %s, "
        "which needs unit stride along its %s (e.g. %s)" % (
            op.name, op.shape, op.strides, kernel,
            "row-major (layout row)" if layout == "row"
            else "column-major (layout col)",
            "columns" if layout == "row" else "rows",
            "x.contiguous()" if layout == "row" else "x.t().contiguous().t()"))


def _stream(stream, ops):
    if stream is None:
        for op in ops:
            if op.stream is not None:
                return op.stream
        return None
    if hasattr(stream, "cuda_stream"):
        return stream.cuda_stream
    if isinstance(stream, bool) or not isinstance(stream, int):
        raise TypeError("stream must be a torch.cuda.Stream, a CUstream as "
                        "an int, or None, not %r" % (stream,))
    return stream
