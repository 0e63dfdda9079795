//===- TGemmOps.td - tgemm operations ----------------------*- tablegen -*-===//

#ifndef TGEMM_OPS_TD
#define TGEMM_OPS_TD

include "tgemm/Dialect/TGemm/IR/TGemmAttrs.td"
include "tgemm/Dialect/TGemm/IR/TGemmTypes.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"

// A pointer of the generic address space (a tensor map's address).
def TGemm_GenericPointer : LLVM_PointerInAddressSpace<0>;

class TGemm_Op<string mnemonic, list<Trait> traits = []>
    : Op<TGemm_Dialect, mnemonic, traits>;

// Element types a tensor core multiplies. f32 operands are computed as TF32;
// signless i8 and i4 are signed.
def TGemm_OperandElement
    : AnyTypeOf<[F16, BF16, F32, I8, UI8, I<4>, F8E4M3FN, F8E5M2]>;
def TGemm_OutputElement : AnyTypeOf<[F32, F16, BF16, I32]>;
def TGemm_AccumulatorElementType
    : TypeAttrOf<AnyTypeOf<[F32, F16, I32]>>;

// Rank 2: one matrix; rank 3: a batch of matrices (dimension 0 is the batch).
def TGemm_OperandMemRef : MemRefRankOf<[TGemm_OperandElement], [2, 3]>;
def TGemm_OutputMemRef : MemRefRankOf<[TGemm_OutputElement], [2, 3]>;
def TGemm_OperandTensor : TensorRankOf<[TGemm_OperandElement], [2, 3]>;
def TGemm_OutputTensor : TensorRankOf<[TGemm_OutputElement], [2, 3]>;
// tgemm.matmul works on buffers (memrefs, the form the kernel is written
// from) or on values (ranked tensors, bufferized by one-shot-bufferize).
def TGemm_Operand : AnyTypeOf<[TGemm_OperandMemRef, TGemm_OperandTensor],
    "2D/3D memref or tensor of f16, bf16, f32 (computed as tf32), i8, ui8, "
    "i4, f8E4M3FN or f8E5M2 values",
    "::mlir::ShapedType">;
def TGemm_Output : AnyTypeOf<[TGemm_OutputMemRef, TGemm_OutputTensor],
    "2D/3D memref or tensor of f32, f16, bf16 or i32 values",
    "::mlir::ShapedType">;
def TGemm_EpilogueOperand : AnyTypeOf<[AnyMemRef, AnyRankedTensor],
    "memref or ranked tensor", "::mlir::ShapedType">;

def TGemm_MatmulOp : TGemm_Op<"matmul", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DestinationStyleOpInterface]> {
  let summary = "C = alpha * op(A) * op(B) + beta * C on tensor cores";
  let description = [{
    A matrix multiplication at the problem level. With logical sizes M, N, K:

    - `A` is M x K; stored as `memref<MxK>` when its layout is `row`, and as
      `memref<KxM>` (column-major M x K) when it is `col`;
    - `B` is K x N; stored as `memref<KxN>` when `row`, `memref<NxK>` when
      `col`;
    - `C` is M x N, row-major, and is read when `beta` is non-zero.

    With rank-3 operands the op is a batch of such products: dimension 0 of
    A, B and C is the batch (the same size for all three) and the last two
    dimensions are as above; each batch element may sit anywhere in its
    buffer (a strided view).

    Sizes may be static or dynamic. `acc` is the accumulator type of the
    tensor-core instruction; the epilogue converts it to C's element type.
    `alpha` defaults to 1 and `beta` to 0; with an `i32` accumulator both must
    be integers.

    `epilogue(...)` (optional) fuses work on C into the store: steps applied
    in order to each element after `alpha * acc + beta * C`, in f32, before
    the conversion to C's type (`#tgemm.epilogue_step` lists them: `bias`
    and `scale` by row, column or one scalar, `residual`, `relu`,
    `gelu_tanh`, `gelu_erf`, `silu`). A step that reads an operand names it
    with its type: a bias or scale vector (rank 1, M, N or 1 elements of
    f32, f16 or bf16, shared by every matrix of a batch), a residual (C's
    shape). With an `i32` accumulator and a float C, the accumulator is
    converted to f32 first (dequantization); an `i32` C takes no steps.

    ```mlir
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
        epilogue(bias(col) %bias : memref<4096xf16>, gelu_tanh)
        : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf16>
    ```

    `schedule` (optional, `#tgemm.schedule`) orders and places the tile's
    work (refill order, fragment prefetch, copies, swizzle); without it the
    target family's default applies. `--tgemm-select-config` writes both.

    Without `config`, the op says what to compute but not how to tile it:
    `--tgemm-select-config` (run first by `--tgemm-pipeline`) chooses the
    tuned config for the target chip and the problem's shape, or a default.

    The verifier accepts a combination of element types only if the
    instruction-facts table has an instruction for it, and a tile config only
    if every instruction family that computes the precision can tile it, so a
    verified op lowers through either family.

    ```mlir
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32) alpha(1.0) beta(0.0)
        config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
        : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
    ```

    8-bit unsigned operands are `ui8` memrefs or tensors, or signless `i8`
    ones with the `unsigned` keyword (what upstream's
    `linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}` and a
    `linalg.generic` extending with `arith.extui` hand over: arith has no
    `ui8` arithmetic, so upstream code keeps unsigned bytes in `i8`). The
    kernel reads both A and B as unsigned then; the manifest says `u8`.

    ```mlir
    tgemm.matmul %a, %b, %c layout(row, row) acc(i32) unsigned
        : memref<4096x4096xi8>, memref<4096x4096xi8>, memref<4096x4096xi32>
    ```

    On tensors the op is in destination style: `C` is the init, and the
    result (C's type) is the product. A, B, C and the epilogue operands are
    all tensors or all memrefs. `--one-shot-bufferize` (the op implements
    the bufferization interface) turns it into the memref form, which is the
    form `--tgemm-tile` compiles; with `beta` 0 the init is not read, so an
    empty tensor needs no buffer copy.

    ```mlir
    %r = tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
        : tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf32> -> tensor<?x?xf32>
    ```
  }];

  let arguments = (ins
    TGemm_Operand:$a,
    TGemm_Operand:$b,
    TGemm_Output:$c,
    TGemm_LayoutAttr:$layout_a,
    TGemm_LayoutAttr:$layout_b,
    TGemm_AccumulatorElementType:$acc,
    OptionalAttr<F64Attr>:$alpha,
    OptionalAttr<F64Attr>:$beta,
    OptionalAttr<TGemm_ConfigAttr>:$config,
    OptionalAttr<TGemm_ScheduleAttr>:$schedule,
    Variadic<TGemm_EpilogueOperand>:$epilogue_operands,
    OptionalAttr<TGemm_EpilogueAttr>:$epilogue,
    UnitAttr:$unsigned_operands
  );
  // The product, on tensors (C's type); none on memrefs.
  let results = (outs Optional<TGemm_OutputTensor>:$result);

  let assemblyFormat = [{
    $a `,` $b `,` $c
    `layout` `(` custom<Layout>($layout_a) `,` custom<Layout>($layout_b) `)`
    `acc` `(` $acc `)`
    (`unsigned` $unsigned_operands^)?
    (`alpha` `(` $alpha^ `)`)?
    (`beta` `(` $beta^ `)`)?
    custom<Epilogue>($epilogue, $epilogue_operands, type($epilogue_operands))
    (`config` `(` $config^ `)`)?
    (`schedule` `(` $schedule^ `)`)?
    attr-dict `:` type($a) `,` type($b) `,` type($c)
    (`->` type($result)^)?
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    /// DestinationStyleOpInterface: C is the init.
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getCMutable(); }
    /// Whether the op works on tensors (the form bufferization rewrites).
    bool hasTensorForm() { return ::llvm::isa<::mlir::RankedTensorType>(getC().getType()); }
    /// The element type A (`isA`) or B is read as: its own, or `ui8` for a
    /// signless `i8` operand of an op marked `unsigned`.
    ::mlir::Type getOperandElementType(bool isA);
    /// alpha and beta with their defaults applied.
    double getAlphaValue() { return getAlpha().value_or(::llvm::APFloat(1.0)).convertToDouble(); }
    double getBetaValue() { return getBeta().value_or(::llvm::APFloat(0.0)).convertToDouble(); }
    /// Whether the operands are batches of matrices (rank 3).
    bool isBatched() { return getC().getType().getRank() == 3; }
    /// Memref dimension holding M, N or K of an operand, given its layout
    /// (counted from the first matrix dimension, after any batch dimension).
    static unsigned rowsDim(Layout layout) { return layout == Layout::Row ? 0 : 1; }
    /// The batch size: 1 when not batched, ShapedType::kDynamic if unknown.
    int64_t getStaticBatch();
    /// The logical problem sizes (ShapedType::kDynamic where unknown).
    int64_t getStaticM();
    int64_t getStaticN();
    int64_t getStaticK();
  }];
}

//===----------------------------------------------------------------------===//
// Kernel level: target-neutral tile operations
//===----------------------------------------------------------------------===//
//
// `tgemm-tile` writes a GEMM kernel with these ops; each instruction-level
// lowering (`tgemm-lower-to-wmma`, `tgemm-lower-to-ptx`) rewrites them. They
// say what a block or a warp does to a tile, never which instruction does it.

def TGemm_TileMemRef : MemRefRankOf<[TGemm_OperandElement, TGemm_OutputElement], [2]>;

def TGemm_AllocSmemOp : TGemm_Op<"alloc_smem"> {
  let summary = "Reserve a ring of tile buffers in shared memory";
  let description = [{
    Reserves the block's shared memory for a `!tgemm.smem` ring. The lowering
    places every ring of a kernel in the kernel's dynamic shared memory and
    records the total on the kernel's launch.

    ```mlir
    %a = tgemm.alloc_smem : !tgemm.smem<3x128x32xf16>
    ```
  }];
  let results = (outs TGemm_SmemType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TGemm_CopyTileOp : TGemm_Op<"copy_tile"> {
  let summary = "Copy a tile from global memory into one stage of a ring";
  let description = [{
    All threads of the block together copy the R x C tile whose top-left
    element is `src[row, col]` into stage `stage` of `dst` (R x C is the
    ring's tile shape). With `async`, the copy may still be in flight when the
    op returns: it belongs to the group closed by the next
    `tgemm.commit_copies`, and is complete once a `tgemm.wait_copies` has
    waited for that group. Without it, the copy is complete on return (for
    the issuing thread; a barrier makes it visible to the block).

    Elements of the tile outside `src` are stored as zeros. With
    `in_bounds`, the producer guarantees that the tile lies wholly inside
    `src` and that each of its rows starts on a 16-byte boundary (the copy
    granularity of the op verifier's row rule), so no guard is needed.

    With `if %p`, the copy happens only where `%p` (the same for every
    thread of the block) is true; otherwise the op does nothing and `dst`
    keeps its contents. A multistage loop uses it for the refills past the
    last k-tile, so that its body stays one straight-line block (a lowering
    may predicate the copy's instructions instead of branching).

    With `threads [first, count]`, only the block's threads first ...
    first + count - 1 copy the tile (and only they may execute the op):
    the producer warpgroup of a warp-specialized kernel. Without it every
    thread of the block takes part.

    With `transpose`, the tile is stored transposed in `src`: element
    (i, j) of the R x C stage is `src[row + j, col + i]`, read from the C x R
    block of `src` at (`row`, `col`). It serves an instruction that reads
    only K-major operands from shared memory (wgmma's 8-bit and tf32 ones)
    an operand stored MN-major: the ring holds it K-major. Rows and columns
    outside `src` read as zeros, as above. Only 8-bit and 32-bit elements;
    the copy is synchronous (the lowering regroups the elements in
    registers between its loads and its stores).

    ```mlir
    tgemm.copy_tile %A[%m0, %k0], %sa[%stage] async
        : memref<4096x4096xf16>, !tgemm.smem<3x128x32xf16>
    tgemm.copy_tile %A[%m0, %k1], %sa[%next] async in_bounds if %refill
        : memref<4096x4096xf16>, !tgemm.smem<3x128x32xf16>
    // B stored K x N (row-major), held N x K in the ring.
    tgemm.copy_tile %B[%k0, %n0], %sb[%s] transpose threads [256, 128]
        : memref<4096x4096xi8>, !tgemm.smem<4x256x128xi8>
    ```
  }];
  let arguments = (ins Arg<TGemm_TileMemRef, "", [MemRead]>:$src, Index:$row,
                       Index:$col, TGemm_SmemType:$dst, Index:$stage,
                       UnitAttr:$transpose,
                       UnitAttr:$async, UnitAttr:$in_bounds,
                       Optional<I1>:$predicate,
                       OptionalAttr<DenseI64ArrayAttr>:$threads);
  let assemblyFormat = [{
    $src `[` $row `,` $col `]` `,` $dst `[` $stage `]`
    (`transpose` $transpose^)? (`async` $async^)?
    (`in_bounds` $in_bounds^)? (`if` $predicate^)?
    (`threads` $threads^)? attr-dict `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def TGemm_CommitCopiesOp : TGemm_Op<"commit_copies"> {
  let summary = "Close the group of async copies issued so far";
  let description = [{
    Every `async` `tgemm.copy_tile` issued by this thread since the previous
    commit forms one group; `tgemm.wait_copies` counts groups. A commit with
    no copies forms an empty group, which keeps the count regular in a
    pipeline's last iterations.
  }];
  let assemblyFormat = "attr-dict";
}

def TGemm_WaitCopiesOp : TGemm_Op<"wait_copies"> {
  let summary = "Wait until at most `pending` copy groups are in flight";
  let description = [{
    Blocks the thread until all but the `pending` most recent committed
    groups of async copies are complete. It does not synchronize the block:
    a `gpu.barrier` after it makes the copied data visible to every thread.

    ```mlir
    tgemm.wait_copies pending = 1
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "`pending` `=` $pending attr-dict";
}

def TGemm_ZeroAccOp : TGemm_Op<"zero_acc", [Pure]> {
  let summary = "A warp accumulator tile of zeros";
  let results = (outs TGemm_AccumulatorType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TGemm_MmaTileOp : TGemm_Op<"mma_tile",
    [AllTypesMatch<["acc", "result"]>]> {
  let summary = "A warp multiplies shared-memory tiles into its accumulator";
  let description = [{
    The warp computes `result = acc + A' * B'`, where A' is the acc-rows x K
    slice of stage `a_stage` of `a` starting at M offset `warp_row`, and B' is
    the K x acc-cols slice of stage `b_stage` of `b` starting at N offset
    `warp_col`; K is the stage's depth. `layout(...)` says how each ring's
    tiles are stored: A `row` is M x K, `col` is K x M; B `row` is K x N,
    `col` is N x K.

    With `k_slice [offset, size]`, K is only the `size` elements of the
    stage's depth that start at `offset`: a loop splits one stage's multiply
    into slices to place other work (the next stage's copies) between them.
    A lowering needs each slice to be a whole number of its instruction's
    k-steps.

    With `using(%f : !tgemm.frags<...>)`, the first D elements of the slice
    (D the fragments' depth) are multiplied from `%f`, which
    `tgemm.load_frags` loaded from the same stage, warp offsets and K
    offset, possibly before a barrier after which the stage may be
    refilled; the rest of the slice is read from the stage.

    With `in_flight N`, the multiply may still be running when the op
    returns: every multiply of the thread's warpgroup but the newest N has
    completed (their stages may be refilled), and the result may be passed
    to further `tgemm.mma_tile`s but is read only after `tgemm.wait_mma`.
    A family whose multiplies are synchronous meets this with none in
    flight.

    ```mlir
    %acc1 = tgemm.mma_tile %sa[%s], %sb[%s], %acc0 at [%wm, %wn] layout(row, col)
        : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x128x32xf16>, !tgemm.acc<64x64xf32>
    %acc2 = tgemm.mma_tile %sa[%s], %sb[%s], %acc1 at [%wm, %wn] layout(row, col)
        k_slice [16, 16]
        : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x128x32xf16>, !tgemm.acc<64x64xf32>
    ```
  }];
  let arguments = (ins TGemm_SmemType:$a, Index:$a_stage, TGemm_SmemType:$b,
                       Index:$b_stage, TGemm_AccumulatorType:$acc,
                       Index:$warp_row, Index:$warp_col,
                       TGemm_LayoutAttr:$layout_a, TGemm_LayoutAttr:$layout_b,
                       OptionalAttr<DenseI64ArrayAttr>:$k_slice,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$in_flight,
                       Optional<TGemm_FragsType>:$frags);
  let results = (outs TGemm_AccumulatorType:$result);
  let assemblyFormat = [{
    $a `[` $a_stage `]` `,` $b `[` $b_stage `]` `,` $acc
    `at` `[` $warp_row `,` $warp_col `]`
    `layout` `(` custom<Layout>($layout_a) `,` custom<Layout>($layout_b) `)`
    (`k_slice` $k_slice^)?
    (`in_flight` $in_flight^)?
    (`using` `(` $frags^ `:` type($frags) `)`)?
    attr-dict `:` type($a) `,` type($b) `,` type($acc)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The K depth of one stage.
    int64_t getDepth();
    /// The K elements this op multiplies: [offset, offset + size) of the
    /// stage's depth (all of it without `k_slice`).
    std::pair<int64_t, int64_t> getKRange();
  }];
}

def TGemm_WaitMmaOp : TGemm_Op<"wait_mma",
    [AllTypesMatch<["acc", "result"]>]> {
  let summary = "Waits for the multiplies of an accumulator still in flight";
  let description = [{
    Returns `acc` once every `tgemm.mma_tile ... in_flight` of the thread's
    warpgroup has completed, so that its registers may be read (by
    `tgemm.store_tile`).

    ```mlir
    %done = tgemm.wait_mma %acc : !tgemm.acc<16x256xf32>
    ```
  }];
  let arguments = (ins TGemm_AccumulatorType:$acc);
  let results = (outs TGemm_AccumulatorType:$result);
  let assemblyFormat = "$acc attr-dict `:` type($acc)";
}

def TGemm_LoadFragsOp : TGemm_Op<"load_frags"> {
  let summary = "A warp loads the operand fragments of a slice of a stage";
  let description = [{
    The warp loads, into registers, the fragments `tgemm.mma_tile` would
    read from stage `a_stage` of `a` and `b_stage` of `b` at warp offsets
    (`warp_row`, `warp_col`) for the K elements [offset, offset + size) of
    the stage's depth (`k_slice`, required; size is the result's depth).
    Once loaded they no longer depend on shared memory: a k-loop loads the
    next stage's first fragments right after its barrier and multiplies
    them in the next iteration (`tgemm.mma_tile ... using`).

    ```mlir
    %f = tgemm.load_frags %sa[%s], %sb[%s] at [%wm, %wn] layout(row, col)
        k_slice [0, 16] : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x128x32xf16>,
        !tgemm.frags<64x64x16xf16>
    ```
  }];
  let arguments = (ins TGemm_SmemType:$a, Index:$a_stage, TGemm_SmemType:$b,
                       Index:$b_stage, Index:$warp_row, Index:$warp_col,
                       TGemm_LayoutAttr:$layout_a, TGemm_LayoutAttr:$layout_b,
                       DenseI64ArrayAttr:$k_slice);
  let results = (outs TGemm_FragsType:$result);
  let assemblyFormat = [{
    $a `[` $a_stage `]` `,` $b `[` $b_stage `]`
    `at` `[` $warp_row `,` $warp_col `]`
    `layout` `(` custom<Layout>($layout_a) `,` custom<Layout>($layout_b) `)`
    `k_slice` $k_slice
    attr-dict `:` type($a) `,` type($b) `,` type($result)
  }];
  let hasVerifier = 1;
}

def TGemm_StoreTileOp : TGemm_Op<"store_tile", [AttrSizedOperandSegments]> {
  let summary = "A warp writes its accumulator to C through the epilogue";
  let description = [{
    The warp writes `dst[row + i, col + j] = alpha * acc[i, j] +
    beta * dst[row + i, col + j]`, converted to the element type of `dst`.
    `alpha` defaults to 1 and `beta` to 0 (then `dst` is not read).
    Elements outside `dst` are neither read nor written; with `in_bounds`
    the producer guarantees there are none and that `dst`'s rows start on
    16-byte boundaries.

    With `threads [first, count]`, only those threads of the block store
    (the consumer warpgroups of a warp-specialized kernel): the op
    synchronizes only them.

    With `epilogue(...)`, the steps of `tgemm.matmul`'s epilogue apply to
    each element before the conversion; a residual operand is then the
    matrix `dst` is (rank 2, indexed like it), a vector is indexed by
    `dst`'s row or column. With `in_bounds`, the producer also guarantees
    that every epilogue operand starts on a 16-byte boundary (and a
    residual's rows).

    With `via %map[%matrix]`, the warp writes its tile to shared memory
    and the copy engine stores it (a bulk store, `tma_store` in
    `#tgemm.schedule`): `%map` is the tensor map of the whole of C
    (`tgemm.tensor_map`, a box of 16 rows by one 128-byte line of C's
    elements with the 128-byte swizzle) and `%matrix` the matrix of the
    batch `dst` is, whose rows and columns are those of the map. The copy
    engine writes nothing outside C. Each row of the warp's tile must be
    whole 128-byte lines of C's elements.

    ```mlir
    tgemm.store_tile %acc, %C[%m0, %n0] alpha(1.0)
        : !tgemm.acc<64x64xf32>, memref<4096x4096xf32>
    tgemm.store_tile %acc, %C[%m0, %n0] via %mapC[%z] threads [0, 256]
        : !tgemm.acc<64x256xf32>, memref<4096x4096xf16>
    ```
  }];
  let arguments = (ins TGemm_AccumulatorType:$acc,
                       Arg<TGemm_TileMemRef, "", [MemRead, MemWrite]>:$dst,
                       Index:$row, Index:$col,
                       OptionalAttr<F64Attr>:$alpha, OptionalAttr<F64Attr>:$beta,
                       UnitAttr:$in_bounds,
                       OptionalAttr<DenseI64ArrayAttr>:$threads,
                       Arg<Variadic<AnyMemRef>, "epilogue operands", [MemRead]>:$epilogue_operands,
                       OptionalAttr<TGemm_EpilogueAttr>:$epilogue,
                       Optional<TGemm_GenericPointer>:$map,
                       Optional<Index>:$matrix);
  let assemblyFormat = [{
    $acc `,` $dst `[` $row `,` $col `]`
    (`alpha` `(` $alpha^ `)`)? (`beta` `(` $beta^ `)`)?
    custom<Epilogue>($epilogue, $epilogue_operands, type($epilogue_operands))
    (`via` $map^ `[` $matrix `]`)?
    (`in_bounds` $in_bounds^)? (`threads` $threads^)? attr-dict `:`
    type($acc) `,` type($dst)
  }];
  let builders = [
    OpBuilder<(ins "Value":$acc, "Value":$dst, "Value":$row, "Value":$col,
                   "FloatAttr":$alpha, "FloatAttr":$beta, "bool":$in_bounds,
                   "DenseI64ArrayAttr":$threads, "ValueRange":$epilogue_operands,
                   "ArrayAttr":$epilogue), [{
      build($_builder, $_state, acc, dst, row, col, alpha, beta, in_bounds,
            threads, epilogue_operands, epilogue, Value(), Value());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    double getAlphaValue() { return getAlpha().value_or(::llvm::APFloat(1.0)).convertToDouble(); }
    double getBetaValue() { return getBeta().value_or(::llvm::APFloat(0.0)).convertToDouble(); }
  }];
}

def TGemm_ReduceSplitsOp : TGemm_Op<"reduce_splits"> {
  let summary = "The last block of a split-K tile sums its parts into C";
  let description = [{
    Split K (`split_k = S` in `#tgemm.config`): S blocks compute one tile
    of C, each over its part of K, and each has stored its accumulator,
    unscaled, at (`row`, `col`) of its part of `parts` (S x M x N, dimension
    0 the part) with `tgemm.store_tile`. Then the block arrives on the
    tile's semaphore, `semaphores[tile]`; the block that arrives last writes
    the `rows` x `cols` tile of `dst` at (`row`, `col`):

      dst[i, j] = alpha * (parts[0, i, j] + ... + parts[S-1, i, j])
                  + beta * dst[i, j]

    with `epilogue(...)`'s steps applied after the sum (as `tgemm.store_tile`
    applies them), converted to `dst`'s element type, and resets the
    semaphore to 0 for
    the next launch. The parts are summed in part order whichever block
    arrives last, so the result does not depend on scheduling. Floating
    parts are summed in f32, integer ones in i32. Elements outside `dst`
    are neither read nor written; with `in_bounds` there are none and every
    row of `dst` and `parts` starts on a 16-byte boundary.

    With `threads [first, count]`, only those threads of the block take part
    (the consumer warpgroups of a warp-specialized kernel).

    ```mlir
    tgemm.reduce_splits %parts, %semaphores[%tile], %C[%m0, %n0]
        tile [128, 128] beta(1.0)
        : memref<4x?x?xf32>, memref<?xi32>, memref<?x?xf16>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[F32, F16, I32], [3]>, "", [MemRead]>:$parts,
                       Arg<MemRefRankOf<[I32], [1]>, "", [MemRead, MemWrite]>:$semaphores,
                       Index:$tile,
                       Arg<TGemm_TileMemRef, "", [MemRead, MemWrite]>:$dst,
                       Index:$row, Index:$col,
                       DenseI64ArrayAttr:$shape,
                       OptionalAttr<F64Attr>:$alpha, OptionalAttr<F64Attr>:$beta,
                       UnitAttr:$in_bounds,
                       OptionalAttr<DenseI64ArrayAttr>:$threads,
                       Arg<Variadic<AnyMemRef>, "epilogue operands", [MemRead]>:$epilogue_operands,
                       OptionalAttr<TGemm_EpilogueAttr>:$epilogue);
  let assemblyFormat = [{
    $parts `,` $semaphores `[` $tile `]` `,` $dst `[` $row `,` $col `]`
    `tile` $shape
    (`alpha` `(` $alpha^ `)`)? (`beta` `(` $beta^ `)`)?
    custom<Epilogue>($epilogue, $epilogue_operands, type($epilogue_operands))
    (`in_bounds` $in_bounds^)? (`threads` $threads^)? attr-dict `:`
    type($parts) `,` type($semaphores) `,` type($dst)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    double getAlphaValue() { return getAlpha().value_or(::llvm::APFloat(1.0)).convertToDouble(); }
    double getBetaValue() { return getBeta().value_or(::llvm::APFloat(0.0)).convertToDouble(); }
    /// S, the number of parts.
    int64_t getNumParts() { return getParts().getType().getDimSize(0); }
  }];
}

//===----------------------------------------------------------------------===//
// Kernel level: barriers, bulk tensor copies and warpgroup roles
//===----------------------------------------------------------------------===//
//
// A warp-specialized k-loop (`warp_specialize` in `#tgemm.schedule`): a
// producer warpgroup fills the stages, consumer warpgroups multiply, and
// two rings of barriers order them. Only the wgmma lowering has them.

def TGemm_TensorMapOp : TGemm_Op<"tensor_map", [Pure]> {
  let summary = "The TMA descriptor of an operand, made by the runtime";
  let description = [{
    On the host side of a launch: the tensor map (`CUtensorMap`) that
    describes `source` for bulk copies of `box` (rows x cols of the stored
    matrix) tiles with a `swizzle`-byte swizzle, one matrix of a batch at a
    time; the kernel takes it by value, as a `__grid_constant__` parameter
    whose address it reads (`tgemm-tensor-maps-by-value`). tgemm does not
    lower it: the manifest's `tensor_maps` says what it is, and the runtime
    encodes it (`cuTensorMapEncodeTiled`). Where the runtime cannot
    describe an operand (rows not 16-byte aligned), it passes 0 for the
    i32 that follows the maps, and the kernel copies with cp.async.

    ```mlir
    %map = tgemm.tensor_map %A box [128, 64] swizzle 128
        : memref<4096x4096xf16> -> !llvm.ptr
    ```
  }];
  let arguments = (ins AnyMemRef:$source, DenseI64ArrayAttr:$box,
                       I64Attr:$swizzle);
  let results = (outs LLVM_AnyPointer:$result);
  let assemblyFormat = [{
    $source `box` $box `swizzle` $swizzle attr-dict `:` type($source) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def TGemm_WorkspaceOp : TGemm_Op<"workspace", [Pure]> {
  let summary = "The split-K workspace of a launch, provided by the runtime";
  let description = [{
    On the host side of a launch: the device memory the caller of the
    launch provides for a split-K kernel (`split_k = S`: its semaphores,
    zeroed before its first launch, which each launch leaves at 0, and its
    parts) and for transposed and aligned copies of operands
    (`tgemm.transposed_copy`, `tgemm.aligned_copy`, which each launch
    writes first; `parts 1` when K is not split). `c` is
    the GEMM's C; the manifest gives the layout (`docs/manifest.md`).
    tgemm does not lower it: the runtime allocates it.

    ```mlir
    %ws = tgemm.workspace for %C parts 4 : memref<?x?xf16> -> memref<?xi8>
    ```
  }];
  let arguments = (ins AnyMemRef:$c, I64Attr:$parts);
  let results = (outs MemRefRankOf<[I8], [1]>:$result);
  let assemblyFormat = [{
    `for` $c `parts` $parts attr-dict `:` type($c) `->` type($result)
  }];
}

def TGemm_TransposedCopyOp : TGemm_Op<"transposed_copy", [Pure]> {
  let summary = "An operand stored the other way, in the launch's workspace";
  let description = [{
    On the host side of a launch: `source` (a matrix, or a batch of them)
    stored the other way round, its rows the columns of `source`, in the
    workspace the caller of the launch provides. A transposing kernel
    launched before the GEMM writes it (the tile pass adds both, for an
    8-bit or tf32 operand stored MN-major (wmma: 8-bit), with
    the schedule's `transpose_kernel`), and the GEMM reads the copy K-major.
    Its rows start 16 bytes apart at least, so that TMA can describe them.
    tgemm does not lower it: the manifest's `transposes` say where the copy
    lies (`docs/manifest.md`), and the runtime places it there.

    ```mlir
    %bt = tgemm.transposed_copy %B
        : memref<4096x2048xi8> -> memref<2048x4096xi8, strided<[?, 1], offset: ?>>
    ```
  }];
  let arguments = (ins MemRefRankOf<[AnyType], [2, 3]>:$source);
  let results = (outs MemRefRankOf<[AnyType], [2, 3]>:$result);
  let assemblyFormat = [{
    $source attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TGemm_AlignedCopyOp : TGemm_Op<"aligned_copy", [Pure]> {
  let summary = "An operand as stored, rows 16 bytes apart, in the launch's workspace";
  let description = [{
    On the host side of a launch: `source` (a matrix, or a batch of them)
    with the same rows and columns, in the workspace the caller of the
    launch provides, its rows starting 16 bytes apart (the leading
    dimension rounded up), so that a tensor map and 16-byte cp.async can
    read them. An aligning kernel launched before the GEMM writes it (the
    tile pass adds both, with the schedule's `align_kernel`, for an operand
    whose rows the IR places at a multiple of fewer than 16 bytes), and the
    GEMM reads the copy. tgemm does not lower it: the manifest's
    `aligned_copies` say where the copy lies (`docs/manifest.md`), and the
    runtime places it there.

    ```mlir
    %a16 = tgemm.aligned_copy %A
        : memref<4095x999xf16> -> memref<4095x999xf16, strided<[?, 1], offset: ?>>
    ```
  }];
  let arguments = (ins MemRefRankOf<[AnyType], [2, 3]>:$source);
  let results = (outs MemRefRankOf<[AnyType], [2, 3]>:$result);
  let assemblyFormat = [{
    $source attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TGemm_AllocBarriersOp : TGemm_Op<"alloc_barriers"> {
  let summary = "Reserve a ring of barriers in shared memory";
  let description = [{
    Reserves the block's shared memory for a `!tgemm.barriers` ring (after
    the tile rings, in the kernel's plan); `tgemm.init_barriers` sets them
    up.

    ```mlir
    %full = tgemm.alloc_barriers : !tgemm.barriers<4>
    ```
  }];
  let results = (outs TGemm_BarriersType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TGemm_InitBarriersOp : TGemm_Op<"init_barriers"> {
  let summary = "Set up every barrier of a ring to expect `arrivals`";
  let description = [{
    Every thread of the block executes it: one thread initializes each
    barrier of the ring to complete a phase after `arrivals` arrivals (and
    the bytes announced with them), and the op ends with a block-wide
    barrier, after which every thread (and the copy engine) sees them.
    `arrivals` is the same for every thread.

    ```mlir
    tgemm.init_barriers %full arrivals %one : !tgemm.barriers<4>
    ```
  }];
  let arguments = (ins TGemm_BarriersType:$barriers, Index:$arrivals);
  let assemblyFormat = [{
    $barriers `arrivals` $arrivals attr-dict `:` type($barriers)
  }];
}

def TGemm_WaitBarrierOp : TGemm_Op<"wait_barrier"> {
  let summary = "Wait until a barrier completes the phase of a parity";
  let description = [{
    The thread waits until barrier `stage` of the ring has completed its
    phase of parity `parity` (0 or 1: phases alternate). What threads
    wrote before arriving, and what bulk copies wrote on the barrier, is
    then visible to it. A barrier that has not completed any phase yet
    counts its phase of parity 1 as complete, so a producer's first wait
    on each `empty` barrier returns at once.

    ```mlir
    tgemm.wait_barrier %full[%s] parity %p : !tgemm.barriers<4>
    ```
  }];
  let arguments = (ins TGemm_BarriersType:$barriers, Index:$stage,
                       Index:$parity);
  let assemblyFormat = [{
    $barriers `[` $stage `]` `parity` $parity attr-dict `:` type($barriers)
  }];
}

def TGemm_ArriveBarrierOp : TGemm_Op<"arrive_barrier"> {
  let summary = "Arrive on a barrier, optionally announcing bytes";
  let description = [{
    The thread arrives once on barrier `stage` of the ring; what it wrote
    before is visible to the threads that then wait on the phase. With
    `expect_bytes N`, the phase also waits for N more bytes of bulk copies
    (`tgemm.bulk_copy_tile`) to land. With `cta %r`, it arrives on the
    barrier at the same place in block `r` of its cluster (its rank,
    0-based) instead of its own: a consumer releasing a stage that block's
    producer refills in every block of the cluster. The arrival releases
    at CTA scope (the instruction's default), which orders the thread's
    earlier reads of its own block's rings before the copy engine's
    refill that the waiting producer then starts.

    ```mlir
    tgemm.arrive_barrier %empty[%s] : !tgemm.barriers<4>
    tgemm.arrive_barrier %full[%s] expect_bytes 49152 : !tgemm.barriers<4>
    tgemm.arrive_barrier %empty[%s] cta %r : !tgemm.barriers<4>
    ```
  }];
  let arguments = (ins TGemm_BarriersType:$barriers, Index:$stage,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$expect_bytes,
                       Optional<Index>:$cta);
  let assemblyFormat = [{
    $barriers `[` $stage `]` (`expect_bytes` $expect_bytes^)? (`cta` $cta^)?
    attr-dict `:` type($barriers)
  }];
  let builders = [
    OpBuilder<(ins "Value":$barriers, "Value":$stage,
                   "IntegerAttr":$expect_bytes), [{
      build($_builder, $_state, barriers, stage, expect_bytes, Value());
    }]>
  ];
  let hasVerifier = 1;
}

def TGemm_BulkCopyTileOp : TGemm_Op<"bulk_copy_tile"> {
  let summary = "One thread copies a tile with the copy engine";
  let description = [{
    The executing thread starts a bulk tensor copy of the tile at
    (`row`, `col`) of matrix `matrix` (0 unless batched) of the operand
    that `map` describes (`tgemm.tensor_map`), into stage `stage` of `dst`,
    laid out as the ring's rows with the map's swizzle. Elements outside the
    operand land as zeros. The copy completes as bytes on barrier `stage`
    of `barriers`, which an `arrive_barrier ... expect_bytes` announced.

    With `multicast P`, the blocks of a cluster of P share the tile: each
    copies its part (by its rank: a band of the tile's rows, or whole
    panels of a paneled ring, `multicastSplit`; the map's box is one part)
    and the copy engine writes it at the same place in every block of the
    cluster, completing on each block's barrier `stage`. Each block's
    barrier so receives the whole tile's bytes, as without multicast. A
    block refills a stage only once every block of the cluster has
    released it (their consumers arrive on each other's `empty` barriers).

    ```mlir
    tgemm.bulk_copy_tile %mapA[%z, %m0, %k0], %sa[%s], %full
        : !llvm.ptr, !tgemm.smem<4x128x64xf16>, !tgemm.barriers<4>
    tgemm.bulk_copy_tile %mapB[%z, %n0, %k0], %sb[%s], %full multicast 2
        : !llvm.ptr, !tgemm.smem<4x256x64xf16>, !tgemm.barriers<4>
    ```
  }];
  let arguments = (ins LLVM_AnyPointer:$map, Index:$matrix, Index:$row,
                       Index:$col, TGemm_SmemType:$dst, Index:$stage,
                       TGemm_BarriersType:$barriers,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<2>]>>:$multicast);
  let assemblyFormat = [{
    $map `[` $matrix `,` $row `,` $col `]` `,` $dst `[` $stage `]` `,`
    $barriers (`multicast` $multicast^)? attr-dict `:` type($map) `,`
    type($dst) `,` type($barriers)
  }];
  let builders = [
    OpBuilder<(ins "Value":$map, "Value":$matrix, "Value":$row, "Value":$col,
                   "Value":$dst, "Value":$stage, "Value":$barriers), [{
      build($_builder, $_state, map, matrix, row, col, dst, stage, barriers,
            IntegerAttr());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Bytes one copy moves: the ring's tile.
    int64_t getTileBytes();
  }];
}

def TGemm_SyncClusterOp : TGemm_Op<"sync_cluster"> {
  let summary = "Every thread of every block of the cluster meets";
  let description = [{
    Every thread of each block of the kernel's cluster executes it: none
    goes on before all have arrived, and what each wrote before (barrier
    initializations included) is then visible to every thread of the
    cluster. A clustered kernel meets after initializing its barriers,
    before any block copies into another's shared memory or arrives on
    its barriers, and again before it exits, so that no block leaves while
    another may still arrive on its barriers.

    ```mlir
    tgemm.sync_cluster
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TGemm_TransposeTileOp : TGemm_Op<"transpose_tile"> {
  let summary = "Copy a tile between rings in shared memory, transposed";
  let description = [{
    The threads `first` ... `first + count - 1` (`threads`) together copy
    stage `src_stage` of `src`, an R x C tile, into stage `stage` of `dst`,
    a C x R tile, transposed: element (i, j) of the destination is element
    (j, i) of the source. A warp-specialized producer uses it to turn an
    operand that the copy engine brought in as stored (MN-major) into the
    K-major ring an instruction that reads only those takes (wgmma's
    8-bit operands). Only 8-bit elements. What the threads wrote is
    visible to the multiply once they have arrived on a barrier its
    consumers wait for.

    ```mlir
    tgemm.transpose_tile %staged[%slot], %sb[%s] threads [256, 128]
        : !tgemm.smem<2x128x256xi8>, !tgemm.smem<4x256x128xi8>
    ```
  }];
  let arguments = (ins TGemm_SmemType:$src, Index:$src_stage,
                       TGemm_SmemType:$dst, Index:$stage,
                       DenseI64ArrayAttr:$threads);
  let assemblyFormat = [{
    $src `[` $src_stage `]` `,` $dst `[` $stage `]` `threads` $threads
    attr-dict `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def TGemm_SetMaxRegistersOp : TGemm_Op<"set_max_registers"> {
  let summary = "A warpgroup sets its threads' register count";
  let description = [{
    Every thread of a warpgroup executes it together: from here on each has
    `count` registers (a multiple of 8 from 24 to 256). A warp-specialized
    kernel's producer gives registers back and its consumers take them, so
    that the consumers' accumulators fit (PTX ISA, "setmaxnreg"; the lowering
    raises or lowers from the launch's per-thread budget).

    ```mlir
    tgemm.set_max_registers 232
    ```
  }];
  let arguments = (ins I64Attr:$count);
  let assemblyFormat = "$count attr-dict";
  let hasVerifier = 1;
}

#endif // TGEMM_OPS_TD
