"""Writing a GEMM problem as `tgemm.matmul` IR, and compiling it.

Element types are named as in the launch manifest (docs/manifest.md); the
MLIR spellings are accepted too."""

import json
import math

from . import compiler

_TYPES = None
LAYOUTS = ("row", "col")


def element_types():
    """tgemm's element types: one dict per type (name, mlir, bits, integer,
    float8, operand, result), in the order of the table that the compiler
    and the runtime share (runtime/include/tgemm/runtime/ElementTypes.def).
    Read from the compiled extension, else from the runtime library; raises
    ExtensionMissing when neither is there."""
    global _TYPES
    if _TYPES is None:
        if compiler.extension_available():
            text = compiler.extension().element_types()
        else:
            from . import runtime
            try:
                text = runtime.element_types_json()
            except runtime.RunError as error:
                try:
                    compiler.extension()
                except compiler.ExtensionMissing as missing:
                    raise compiler.ExtensionMissing(
                        "%s; the runtime library cannot say either: %s"
                        % (missing, error)) from None
        _TYPES = json.loads(text)
    return _TYPES


def _aliases(entry):
    # The manifest's name, MLIR's spelling (either case), and MLIR's signed
    # spelling of a signless integer (si8 for i8).
    mlir = entry["mlir"]
    names = {entry["name"], mlir, mlir.lower()}
    if mlir.startswith("i"):
        names.add("s" + mlir)
    return names


def _lookup(name, what, column):
    """The manifest name of element type `name` among the types whose
    `column` (operand or result) is true; an f32 A/B operand is tf32."""
    candidates = [t for t in element_types() if t[column]]
    for entry in candidates:
        if name == entry["name"]:
            return entry
    for entry in candidates:
        if name in _aliases(entry):
            return entry
    raise ValueError("unknown element type %r for %s; expected one of %s"
                     % (name, what, ", ".join(t["name"] for t in candidates)))


def _operand_type(name, what):
    return _lookup(name, what, "operand")["name"]


def _result_type(name, what):
    return _lookup(name, what, "result")["name"]


def _mlir_type(name, column):
    return _lookup(name, name, column)["mlir"]


def _size(value, name):
    if value is None:
        return "?"
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError("%s must be a positive int or None (dynamic), not %r"
                         % (name, value))
    return str(value)


def _float_literal(value, name):
    value = float(value)
    if not math.isfinite(value):
        raise ValueError("%s must be finite, not %r" % (name, value))
    text = repr(value)
    # MLIR float literals need a decimal point: 1e-05 is spelled 1.0e-05.
    if "." not in text:
        text = text.replace("e", ".0e") if "e" in text else text + ".0"
    return text


def _config_text(config):
    missing = {"block", "warps", "stages"} - set(config)
    unknown = set(config) - {"block", "warps", "stages", "raster", "split_k"}
    if missing or unknown:
        raise ValueError("config needs block, warps and stages (raster and "
                         "split_k are optional); got %r" % (config,))
    block, warps = list(config["block"]), list(config["warps"])
    stages, raster = config["stages"], config.get("raster", 1)
    split_k = config.get("split_k", 1)
    if len(block) != 3 or len(warps) != 2:
        raise ValueError("config needs block = [BM, BN, BK] and warps = "
                         "[WM, WN], got %r" % (config,))
    for v in block + warps + [stages, raster, split_k]:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError("config values must be ints, got %r" % (config,))
    text = "<block = [%d, %d, %d], warps = [%d, %d], stages = %d" % (
        tuple(block) + tuple(warps) + (stages,))
    if raster != 1:
        text += ", raster = %d" % raster
    if split_k != 1:
        text += ", split_k = %d" % split_k
    return text + ">"


def default_config(a="f16", b=None, acc=None):
    """The default tile config for A x B -> acc (tgemm::defaultConfig in C++,
    the one table every front end uses), as a dict with block, warps, stages,
    raster and split_k. Needs the compiled extension."""
    a = _operand_type(a, "A")
    b = a if b is None else _operand_type(b, "B")
    acc = _natural_acc(a) if acc is None else _result_type(acc, "acc")
    config = compiler.extension().default_config(a, b, acc)
    if config is None:
        raise ValueError("no tensor-core instruction computes %s x %s -> %s"
                         % (a, b, acc))
    return {"block": list(config["block"]), "warps": list(config["warps"]),
            "stages": config["stages"], "raster": config["raster"],
            "split_k": config["split_k"]}


def _natural_acc(a):
    return "s32" if _lookup(a, "A", "operand")["integer"] else "f32"


def matmul_ir(m, n, k, a="f16", b=None, acc=None, c=None, layout_a="row",
              layout_b="col", config=None, alpha=1.0, beta=0.0, name=None):
    """The MLIR text of a function computing C = alpha * A * B + beta * C
    with one `tgemm.matmul`.

    m, n, k: sizes, or None for a dynamic (`?`) size. a, b: operand types
    (f16, bf16, tf32, s8, u8, s4, e4m3, e5m2; b defaults to a). acc: the
    accumulator (default f32, or s32 for integers); c: C's type (default
    acc). layout_a, layout_b: "row" or "col" (README.md, `tgemm.matmul`).
    config: a dict {block: [BM, BN, BK], warps: [WM, WN], stages: S,
    raster: G}, or None / "auto" to let the compiler choose (the tuned config
    for the chip and shape from configs/*.json, else default_config(); see
    docs/tuning.md). name: the function's
    name (the kernel is NAME_kernel in NAME_module)."""
    a = _operand_type(a, "A")
    b = a if b is None else _operand_type(b, "B")
    acc = _natural_acc(a) if acc is None else _result_type(acc, "acc")
    c = acc if c is None else _result_type(c, "C")
    for layout, what in ((layout_a, "layout_a"), (layout_b, "layout_b")):
        if layout not in LAYOUTS:
            raise ValueError("%s must be 'row' or 'col', not %r"
                             % (what, layout))
    if config == "auto":
        config = None
    if config is not None and not isinstance(config, dict):
        raise ValueError("config must be a dict, None or 'auto', not %r"
                         % (config,))
    ms, ns, ks = _size(m, "m"), _size(n, "n"), _size(k, "k")
    if name is None:
        name = "gemm_%s_%s" % (a, c)
    a_shape = (ms, ks) if layout_a == "row" else (ks, ms)
    b_shape = (ks, ns) if layout_b == "row" else (ns, ks)
    a_type = "memref<%sx%sx%s>" % (a_shape + (_mlir_type(a, "operand"),))
    b_type = "memref<%sx%sx%s>" % (b_shape + (_mlir_type(b, "operand"),))
    c_type = "memref<%sx%sx%s>" % (ms, ns, _mlir_type(c, "result"))
    epilogue = ""
    if float(alpha) != 1.0:
        epilogue += " alpha(%s)" % _float_literal(alpha, "alpha")
    if float(beta) != 0.0:
        epilogue += " beta(%s)" % _float_literal(beta, "beta")
    return (
        "func.func @{name}(%a: {at}, %b: {bt}, %c: {ct}) {{\n"
        "  tgemm.matmul %a, %b, %c layout({la}, {lb}) acc({acc}){epi}\n"
        "{config}"
        "      : {at}, {bt}, {ct}\n"
        "  return\n"
        "}}\n").format(name=name, at=a_type, bt=b_type, ct=c_type,
                       la=layout_a, lb=layout_b, acc=_mlir_type(acc, "result"),
                       epi=epilogue,
                       config="" if config is None else
                       "      config(%s)\n" % _config_text(config))


def compile_problem(m, n, k, a="f16", b=None, acc=None, c=None,
                    layout_a="row", layout_b="col", lowering="ptx",
                    chip="sm_90", config=None, alpha=1.0, beta=0.0,
                    name=None, **options):
    """Writes the problem as `tgemm.matmul` (matmul_ir) and compiles it
    (tgemm.compile, which takes the other keyword options). Returns a
    CompiledKernel; raises CompileError when the problem is not compilable
    (e.g. a static size that is not a multiple of the block tile)."""
    text = matmul_ir(m, n, k, a=a, b=b, acc=acc, c=c, layout_a=layout_a,
                     layout_b=layout_b, config=config, alpha=alpha,
                     beta=beta, name=name)
    options.setdefault("source_name", "<problem>")
    return compiler.compile(text, lowering, chip, **options)
