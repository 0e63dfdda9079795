//===- Passes.td - tgemm transformation passes -------------*- tablegen -*-===//

#ifndef TGEMM_TRANSFORMS_PASSES_TD
#define TGEMM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TGemmAttachTarget : Pass<"tgemm-attach-target", "ModuleOp"> {
  let summary = "Give the module the #tgemm.target every later pass reads";
  let description = [{
    Sets the module's `tgemm.target` attribute, the one place that says
    which chip and which instruction family the GEMMs compile for. A module
    that already has one keeps it; given `chip` or `family` that differ from
    it, the pass fails and names both. Without options, a module without a
    target gets `sm_90` and `ptx`. Without `family`, the family is the
    fastest one for the chip that every `tgemm.matmul` of the module is
    legal for (with its config and schedule where it has them): on `sm_90a`
    `wgmma`, else `ptx` (`ptx` first where every matmul is a decode, a
    static M of at most 16: `tgemm::familiesBySpeed`); elsewhere `ptx`.

    ```
    tgemm-opt --tgemm-attach-target="chip=sm_86 family=wmma" gemm.mlir
    ```

    produces

    ```mlir
    module attributes {tgemm.target = #tgemm.target<chip = "sm_86", family = wmma>}
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip (sm_80, sm_86, sm_89, sm_90, sm_90a); empty: the "
           "module's, else sm_90">,
    Option<"family", "family", "std::string", /*default=*/"\"\"",
           "Instruction family (wmma, ptx, wgmma); empty: the module's, "
           "else the chip's fastest that every matmul is legal for (sm_90a: "
           "wgmma, then ptx, or ptx first for a module of decodes, M <= 16; "
           "else ptx)">,
  ];
  let dependentDialects = ["::mlir::tgemm::TGemmDialect"];
}

def TGemmCheckTarget : Pass<"tgemm-check-target"> {
  let summary = "Check every tgemm.matmul against its #tgemm.target";
  let description = [{
    The `tgemm.matmul` verifier only knows what holds on every chip. This
    pass asks the legality module the rest, for the target that the nearest
    enclosing `tgemm.target` names, and reports each violation with the op's
    location and the rule's numbers:

    - the family has an instruction for the precision (WMMA has no fp8) and
      the chip has it (fp8 `mma.sync` needs sm_89 or newer);
    - the family serves the operand layouts (4-bit `mma.sync` fragments
      need layout(row, col), and so does WMMA's s4; every other layout is
      served, MN-major 8-bit and tf32 operands at a cost the
      `report-layouts` remarks name, or by the transposing kernel);
    - the schedule's knobs exist in the family and can lay out the tile;
    - the kernel's whole shared memory (rings with their padding, and the
      epilogue scratch: the plan the lowering lays out) fits the chip.

    Once it has passed, tiling and lowering do not fail.

    With `report-layouts`, each operand the family serves at a cost (the
    legality module's operand path: `mma.sync` loads an MN-major 8-bit
    operand with ldmatrix.trans of byte pairs and prmt, an MN-major tf32
    one with one ld.shared per element) gets a remark saying so.

    ```
    tgemm-opt --tgemm-attach-target="chip=sm_86 family=ptx" \
        --tgemm-check-target gemm.mlir
    ```
  }];
  let options = [
    Option<"reportLayouts", "report-layouts", "bool", /*default=*/"false",
           "Remark how each operand the family does not load natively is "
           "loaded">,
  ];
}

def TGemmFromLinalg : Pass<"tgemm-from-linalg"> {
  let summary = "Turn linalg matmuls and contractions into tgemm.matmul";
  let description = [{
    Rewrites each upstream `linalg.matmul` and `linalg.batch_matmul`, and
    each other contraction (a `linalg.generic` or `linalg.contract` whose body multiplies and adds and whose maps have one
    m, one n, one k and at most one batch dimension: upstream's
    `inferContractionDims`), into a `tgemm.matmul` without a tile config (so
    `--tgemm-select-config` picks the tuned one):

    - operand layouts come from the op's indexing maps: A indexed (m, k) is
      `row`, (k, m) is `col`; B indexed (k, n) is `row`, (n, k) is `col`; C
      must be indexed (m, n) (batch first for `batch_matmul`);
    - `linalg.matmul` accumulates into C, so the result has `beta(1.0)`;
      a `linalg.fill` of zero into C right before the matmul is folded into
      `beta(0.0)` and erased;
    - the accumulator is C's element type where an instruction has it
      (f16 C: f16, f32 C: f32, i32 C: i32), else f32 (a bf16 C);
    - f32 operands are computed as TF32 only with `tf32=true`, since that
      rounds them;
    - `linalg.batch_reduce_matmul` (C += the sum over b of A[b] B[b]), and
      a contraction whose second k dimension is the outermost of A and B
      and absent from C, becomes a loop over the batch (`scf.for`, with C
      as its iteration argument on tensors) of one `tgemm.matmul` each on
      matrix b of A and B with `beta(1.0)`: one kernel, launched once per
      matrix, accumulating in order b = 0, 1, ... into C. A zero fill of C
      stays (each launch reads C); no epilogue is fused after it;
    - on tensors the result is `tgemm.matmul`'s tensor form (destination
      style; a zero-filled init gives `beta(0.0)` on the fill's own init),
      which `--one-shot-bufferize` turns into the memref form. Epilogues
      are fused on memrefs only: `--tgemm-pipeline` bufferizes first.

    Ops it cannot take (element types no tensor-core instruction
    multiplies; broadcasting maps; unsigned casts; contractions over several m, n or k dimensions; rows
    that are not unit-stride) are left alone with a remark, or rejected with
    an error when `strict=true`. With `require-kernel=true` (as
    `--tgemm-pipeline` runs it, unless `allow-no-kernel`), a module that
    holds contractions but ends with no `tgemm.matmul` at all is an error:
    otherwise the pipeline would exit 0 with no kernel.

    The element-wise `linalg.generic` ops that follow an imported matmul
    (only ops that touch no memory between) and read its C become its fused
    epilogue (docs/epilogue.md), one at a time: in the body, `v + x` and
    `v * x` of a per-row, per-column or scalar input are `bias` and
    `scale`, `v + r` of an input indexed like C is `residual`,
    `max(v, 0)` or `select(v > 0, v, 0)` is `relu`, and the usual forms of
    GELU (erf and tanh) and SiLU are `gelu_erf`, `gelu_tanh` and `silu`; a
    constant factor before any step folds into alpha and beta; the casts
    (`arith.extf` of C or an input, `arith.sitofp` of an i32 C, a final
    `arith.truncf`) are the epilogue's own. A generic that writes another
    buffer D takes C's place when C is a local `memref.alloc` that only the
    matmul (zero-filled) and the generic use: C is then erased. The
    epilogue computes in f32 and rounds once, to C's type. A generic right
    after the matmul that reads C but is not such a chain stays as it is,
    with a remark that names the part that is not a step.
  }];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail on a matmul that cannot be imported (else leave it, with a "
           "remark)">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Import f32 x f32 matmuls, computed as TF32">,
    Option<"requireKernel", "require-kernel", "bool", /*default=*/"false",
           "Fail when the module has contractions but no tgemm.matmul "
           "after the import">,
  ];
  let dependentDialects = ["::mlir::tgemm::TGemmDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TGemmSelectConfig : Pass<"tgemm-select-config"> {
  let summary = "Give every tgemm.matmul without a tile config the tuned one";
  let description = [{
    For each `tgemm.matmul` written without `config(...)`, looks up the tuned
    config databases (configs/*.json, compiled in; see docs/tuning.md) for
    the entry of its target's chip and family and the same element types
    whose M, N, K are nearest to the op's (in log space; a dynamic size
    counts as 4096), and sets its config and schedule (the family's default
    schedule, with the entry's `options` applied). Only an entry that the
    legality module accepts for the target is taken; without one, the op
    gets tgemm's default config for its precision (`tgemm::defaultConfig`).
    Ops that have a config keep it, and get the family's default schedule
    if they have none.

    ```
    tgemm-opt --tgemm-attach-target="chip=sm_90 family=ptx" \
        --tgemm-select-config gemm.mlir
    ```

    `database=FILE` adds a database, searched before the built-in ones
    (`builtin=false` leaves those out);
    `report` emits a remark per op naming what was chosen and from where.

    Where a static problem's tiles would leave more than half of the chip's
    SMs idle (`sm-count`, else the facts table's count), the chosen config
    splits K (`split_k`, `tgemm::chooseSplitK`; `split-k=false` never).
    With `deterministic`, the split depends on M, N and K and the family
    alone (`tgemm::deterministicSplitTile`): an entry's own `split_k`
    gives way to it, a config the rule's split does not fit and an entry
    whose block tile K does not divide 256 are passed over, so every config
    and chip of the family sums K in the same order.

    wgmma reads 8-bit and tf32 operands K-major only. An operand stored
    MN-major (A column-major, B row-major) is transposed by the producer
    between shared-memory rings (the selection takes the stages that fit
    beside them), or, where the entry's schedule says `transpose_kernel` or
    with `transpose-kernel=true`, by a kernel of its own before the GEMM,
    which reads the K-major copy. The mma.sync family reads such operands
    with ldmatrix.trans and prmt (tf32: one ld.shared per element), and
    wmma 8-bit ones with load_matrix_sync of their layout; the same kernel
    serves them (`tgemm::transposeKernelServes`). `transpose-kernel=auto`,
    the default, takes the kernel where the GEMM reuses the operand across
    1024 rows or more, or a size known only at launch
    (`tgemm::prefersTransposeKernel`), in every family but for mma.sync's
    fp8 operands, whose prmt path measured the faster;
    `transpose-kernel=tuned` does as the entry or the family's default
    schedule says. The entry's persistent grid and cluster are kept only
    where the schedule allows them (`tgemm::fitSchedule`).

    An operand whose rows the IR places at a multiple of fewer than 16
    bytes (a packed f16 operand with an odd leading dimension, say) is
    read in place with narrower copies (and, in wgmma, without tensor
    maps), or, with `align_kernel`, copied as stored by a kernel of its
    own before the GEMM into the workspace with rows 16 bytes apart.
    `align-kernel=auto`, the default, takes the kernel where the GEMM
    reuses each such operand across 1024 rows or columns of C or more, or
    a size known only at launch (`tgemm::prefersAlignKernel`); `true`,
    `false` and `tuned` as for `transpose-kernel`.
  }];
  let options = [
    Option<"database", "database", "std::string", /*default=*/"\"\"",
           "A tuned config database (JSON) searched before the built-in ones">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark per op with the chosen config and its source">,
    Option<"builtin", "builtin", "bool", /*default=*/"true",
           "Search the built-in databases (configs/*.json) after `database`">,
    Option<"splitK", "split-k", "bool", /*default=*/"true",
           "Split K where a static problem's tiles leave SMs idle">,
    Option<"deterministic", "deterministic", "bool", /*default=*/"false",
           "Choose split K from the shape and the family alone (not the "
           "config or the chip), so that every config and GPU sums in the "
           "same order">,
    Option<"smCount", "sm-count", "int64_t", /*default=*/"0",
           "SMs to fill when choosing split K (0: the chip's data-center "
           "part's)">,
    Option<"transposeKernel", "transpose-kernel", "std::string",
           /*default=*/"\"auto\"",
           "MN-major 8-bit and tf32 operands (wmma: 8-bit): read as stored "
           "(false; wgmma: transposed by the producer), transposed by a "
           "kernel of their own (true), by one where the GEMM reuses them "
           "enough, but not mma.sync's fp8 (auto, the default; "
           "tgemm::prefersTransposeKernel), or as the tuned entry or the "
           "family's default schedule says (tuned)">,
    Option<"alignKernel", "align-kernel", "std::string",
           /*default=*/"\"auto\"",
           "Operands whose rows lie less than 16-byte aligned: read in "
           "place (false), copied with aligned rows by a kernel of their "
           "own (true), by one where the GEMM reuses them enough (auto, the "
           "default; tgemm::prefersAlignKernel), or as the tuned entry or "
           "the family's default schedule says (tuned)">,
  ];
}

def TGemmTile : Pass<"tgemm-tile", "ModuleOp"> {
  let summary = "Turn each tgemm.matmul into a GPU kernel of tile operations";
  let description = [{
    Replaces every `tgemm.matmul` with a `gpu.launch_func` of a new kernel in
    its own `gpu.module`, and marks the module `gpu.container_module`. The
    launch records the grid (ceil(N / BN) x ceil(M / BM) blocks), the block (32 x warps
    threads) and the dynamic shared memory, and carries the launch manifest
    (`tgemm.manifest`, see docs/manifest.md).

    The kernel is written with the target-neutral tile ops: each block owns a
    BM x BN tile of C, each warp a (BM / WM) x (BN / WN) accumulator; a k-loop
    cycles through the config's shared-memory stages, keeping S - 1 tiles of
    A and B in flight (`tgemm.copy_tile ... async`, `tgemm.commit_copies`,
    `tgemm.wait_copies`, `gpu.barrier`) while the warps multiply the oldest
    one (`tgemm.mma_tile`); `tgemm.store_tile` applies the epilogue.

    Any M, N, K >= 1 work: edge blocks own partial tiles, the last k-tile is
    partial, and the tile ops' semantics (zeros read outside an operand,
    nothing written outside C) make the lowerings guard them. 4-bit operands
    need an even K (a static odd K is an error; for dynamic sizes the
    manifest's `requires` says so).

    The k-loop follows the op's `#tgemm.schedule` (the default schedule
    without one); the kernel gets the schedule as its `tgemm.schedule`
    attribute, and its `gpu.module` the target, for the lowering.

    `refill_after_mma` moves each iteration's refill copies after its
    multiply (default: right after the barrier, before it). On the H200 the
    WMMA lowering gains from it, with synchronous copies (f16 8192^3: 210.9
    -> 229.5 TFLOP/s) and with cp.async (f16 128x256x64: 332.8 -> 352.6;
    bench/h200-2026-11-30-wmma-copies.csv), while the ptx lowering's
    cp.async lose lookahead (s8: 855 -> 799 TOP/s;
    bench/h200-2026-11-30-refill-order.csv), so the wmma family's default
    schedule has it and the ptx family's does not.

    Refills past the last k-tile are predicated off (`copy_tile ... if`)
    rather than branched around: the loop body stays one block, which
    ptxas schedules as a whole. Measured on the H200 at 8192^3 against the
    branched refill (bench/h200-2026-11-30-loop-body.csv): ptx f16
    128x128x64 1.23x, bf16 1.12x, tf32 1.13x, s8 1.15x, e4m3 1.17x.

    `interleave_copies` (refill before the multiply only) splits each
    stage's multiply in two halves of K (`k_slice`) and issues the refill of
    A between them, that of B after them, so that copy instructions are
    spread among the tensor-core instructions instead of being issued in
    one burst after the barrier. It applies where half a stage is a whole
    number of k-steps of every instruction for the types. It is off by
    default: on the H200 it helps a 128x256x64 f16 block (1.07x) but costs
    a 128x128x32 one (0.88x) and is neutral elsewhere (same file).

    `prefetch_fragments` (refill before the multiply only; it
    takes precedence over `interleave_copies`) writes the loop the way CUTLASS's multistage mainloop runs it: the
    barrier sits before each stage's last
    k-step, whose fragments are already in registers (`tgemm.load_frags`),
    and right after it the warp refills the stage it has just finished and
    loads the next stage's first fragments, so that the barrier and those
    loads overlap the last k-step's multiplies (`tgemm.mma_tile ...
    using`). All S stages are in flight (S - 1 without it). The fragments'
    depth is the k-step common to every instruction for the types. Only the
    ptx lowering takes fragments. Measured on the H200 at 8192^3
    (bench/h200-2026-11-30-prefetch.csv): 8-warp blocks, one per SM, gain
    1.08-1.20x (f16 128x256x64 414 -> 450, 256x128x64 419 -> 453 TFLOP/s);
    4-warp blocks, two per SM, 0.97-1.04x, and their extra registers spill
    (two blocks per SM already hide the barrier). So the ptx family's
    default schedule sets it for blocks of 8 or more warps.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def TGemmOverrideConfig : Pass<"tgemm-override-config"> {
  let summary = "Replace parts of every tgemm.matmul's tile config and schedule";
  let description = [{
    Sets the given fields of every `tgemm.matmul`'s `#tgemm.config` and
    `#tgemm.schedule` (an op without a schedule starts from its target
    family's default) and checks the op again, with the verifier and, where
    a target is set, the legality module: a study sweeps one parameter (the
    stage count, the swizzle, ...) over unchanged source IR, and a value the
    op cannot take is reported with the rule's message. Options left unset
    change nothing.

    ```
    tgemm-opt --tgemm-override-config="stages=2 swizzle=pad" gemm.mlir
    tgemm-opt --tgemm-override-config="split-k=4" gemm.mlir
    ```

    `prefetch-fragments-min-warps=W` sets `prefetch_fragments` on the ops
    whose blocks have at least W warps (0: on none).

    On kernel-level IR (a `gpu.func` of tile ops, after `tgemm-tile`), the
    schedule options change the kernel's `tgemm.schedule`, or its target
    family's default one, for the lowering.
  }];
  let options = [
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "Pipeline stages (0 keeps each op's own)">,
    Option<"splitK", "split-k", "int64_t", /*default=*/"0",
           "Parts K is split into (0 keeps each op's own)">,
    Option<"refillAfterMma", "refill-after-mma", "bool", /*default=*/"false",
           "Issue the k-loop's refill copies after the multiply">,
    Option<"interleaveCopies", "interleave-copies", "bool", /*default=*/"false",
           "Issue the refill copies between halves of the multiply">,
    Option<"prefetchMinWarps", "prefetch-fragments-min-warps", "int64_t",
           /*default=*/"8",
           "Carry fragments across the barrier in blocks of at least this "
           "many warps (0: never)">,
    Option<"asyncCopy", "async-copy", "bool", /*default=*/"true",
           "Copy global->shared with cp.async (else through registers)">,
    Option<"ldmatrix", "ldmatrix", "bool", /*default=*/"true",
           "ptx: load fragments with ldmatrix (else per-thread ld.shared)">,
    Option<"swizzle", "swizzle", "std::string", /*default=*/"\"xor\"",
           "Shared-memory layout: xor, pad or none">,
    Option<"padding", "padding", "int64_t", /*default=*/"16",
           "Row padding in bytes with swizzle=pad (multiple of 16)">,
    Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"false",
           "wgmma: a producer warpgroup copies, the config's warps multiply">,
    Option<"tma", "tma", "bool", /*default=*/"false",
           "wgmma, warp-specialized: copy with TMA (else cp.async)">,
    Option<"setmaxnreg", "setmaxnreg", "bool", /*default=*/"false",
           "wgmma, warp-specialized: move registers from the producer to "
           "the consumers">,
    Option<"persistent", "persistent", "bool", /*default=*/"false",
           "A persistent grid: resident blocks loop over C's tiles (tiling "
           "only: a kernel's tile loop is written by tgemm-tile)">,
    Option<"cluster", "cluster", "int64_t", /*default=*/"1",
           "wgmma with tma: blocks per cluster (1 or 2), sharing B's tiles "
           "by TMA multicast (tiling only)">,
    Option<"tmaStore", "tma-store", "bool", /*default=*/"false",
           "wgmma with tma: store C through shared memory with the copy "
           "engine (tiling only: it adds C's tensor map)">,
    Option<"transposeKernel", "transpose-kernel", "bool", /*default=*/"false",
           "Transpose MN-major 8-bit and tf32 operands (8-bit only in wmma) "
           "with a kernel launched before the GEMM, into the workspace "
           "(tiling only: it adds that kernel)">,
    Option<"alignKernel", "align-kernel", "bool", /*default=*/"false",
           "Copy operands whose rows are less than 16-byte aligned, as "
           "stored, with a kernel launched before the GEMM into the "
           "workspace with aligned rows (tiling only: it adds that kernel)">,
  ];
}

def TGemmAttachNVVMTarget : Pass<"tgemm-attach-nvvm-target", "ModuleOp"> {
  let summary = "Give each kernel module the #nvvm.target of its #tgemm.target";
  let description = [{
    Sets the `targets` of every `gpu.module` to an `#nvvm.target` for the chip
    of the `tgemm.target` around it (PTX ISA 8.4, which has fp8 `mma.sync`
    on sm_89 and covers sm_90 and sm_90a), for `gpu-module-to-binary`. A
    module without a target is an error.
  }];
  let options = [
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "LLVM optimization level of the NVPTX back end">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

#endif // TGEMM_TRANSFORMS_PASSES_TD
