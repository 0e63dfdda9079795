//===- TGemmAttrs.td - tgemm attributes --------------------*- tablegen -*-===//

#ifndef TGEMM_ATTRS_TD
#define TGEMM_ATTRS_TD

include "tgemm/Dialect/TGemm/IR/TGemmDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def TGemm_LayoutRow : I32EnumAttrCase<"Row", 0, "row">;
def TGemm_LayoutCol : I32EnumAttrCase<"Col", 1, "col">;
def TGemm_Layout : I32EnumAttr<"Layout", "storage order of a matrix operand",
                               [TGemm_LayoutRow, TGemm_LayoutCol]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tgemm";
}

def TGemm_LayoutAttr : EnumAttr<TGemm_Dialect, TGemm_Layout, "layout"> {
  let summary = "Storage order of a GEMM operand (`row` or `col`)";
}

def TGemm_ConfigAttr : AttrDef<TGemm_Dialect, "Config"> {
  let mnemonic = "config";
  let summary = "Tile configuration of a GEMM kernel";
  let description = [{
    How a `tgemm.matmul` is split over the GPU, independent of the instruction
    family that computes it:

    - `block = [BM, BN, BK]`: the tile of C (BM x BN) one thread block
      computes, and the depth BK of one k-step (one shared-memory stage);
    - `warps = [WM, WN]`: the grid of warps in a block; each warp computes a
      (BM / WM) x (BN / WN) warp tile;
    - `stages = S`: the number of shared-memory buffers the k-loop cycles
      through (1 = no overlap of copies and math);
    - `raster = G` (optional, default 1): blocks visit C's tiles in groups
      of G tile-rows, column by column within a group, so that blocks running
      at the same time share A and B tiles in L2. 1 is plain row-major order.
    - `split_k = S` (optional, default 1): split K into S parts, one block
      per part of each tile of C (grid z); each part's accumulator goes to a
      workspace, and the last block of a tile to finish sums the S parts in
      part order, then applies the epilogue. The sum's order depends only on
      K, BK and S, never on which block finishes first: repeated launches
      give bitwise-identical C.

    ```mlir
    #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 3>
    #tgemm.config<block = [128, 256, 32], warps = [2, 4], stages = 4, raster = 8>
    #tgemm.config<block = [64, 128, 64], warps = [2, 2], stages = 4, split_k = 4>
    ```

    The attribute verifies what holds for every precision (positive sizes, a
    block tile divisible by the warp grid, at most 1024 threads); what depends
    on the element types is checked by `tgemm.matmul`.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "block tile [M, N, K]">:$block,
    ArrayRefParameter<"int64_t", "warp grid [M, N]">:$warps,
    "int64_t":$stages,
    DefaultValuedParameter<"int64_t", "1", "block rasterization group">:$raster,
    DefaultValuedParameter<"int64_t", "1", "parts K is split into">:$split_k
  );
  // `block`, `warps` and `stages` first, then the optional fields in any
  // order, each printed only when it is not its default.
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "ArrayRef<int64_t>":$block, "ArrayRef<int64_t>":$warps,
                     "int64_t":$stages), [{
      return $_get($_ctxt, block, warps, stages, /*raster=*/1,
                   /*split_k=*/1);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getBlockM() const { return getBlock()[0]; }
    int64_t getBlockN() const { return getBlock()[1]; }
    int64_t getBlockK() const { return getBlock()[2]; }
    int64_t getWarpsM() const { return getWarps()[0]; }
    int64_t getWarpsN() const { return getWarps()[1]; }
    int64_t getWarpTileM() const { return getBlockM() / getWarpsM(); }
    int64_t getWarpTileN() const { return getBlockN() / getWarpsN(); }
    int64_t getNumThreads() const { return getWarpsM() * getWarpsN() * 32; }
  }];
}

// A `true` / `false` field of an attribute.
class TGemm_FlagParameter<string default>
    : AttrOrTypeParameter<"bool", "a true/false flag"> {
  let parser = [{ ::mlir::tgemm::parseFlag($_parser) }];
  let printer = [{ $_printer << ($_self ? "true" : "false") }];
  let defaultValue = default;
}

def TGemm_FamilyParameter
    : AttrOrTypeParameter<"::tgemm::Family", "instruction family"> {
  let parser = [{ ::mlir::tgemm::parseFamilyField($_parser) }];
  let printer = [{ $_printer << ::tgemm::loweringName($_self) }];
}

def TGemm_SwizzleParameter
    : AttrOrTypeParameter<"::tgemm::Swizzle", "shared-memory row placement"> {
  let parser = [{ ::mlir::tgemm::parseSwizzleField($_parser) }];
  let printer = [{ $_printer << ::tgemm::swizzleName($_self) }];
  let defaultValue = "::tgemm::Swizzle::Xor";
}

def TGemm_TargetAttr : AttrDef<TGemm_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "The chip and the instruction family a GEMM compiles for";
  let description = [{
    Chosen once, at the start of the pipeline (`--tgemm-attach-target`), or
    written by the user as the `tgemm.target` attribute of the module (or of
    any op around the matmuls). Every pass that depends on the target reads
    it from the nearest enclosing op that has one: the target check, config
    selection, tiling, the instruction-level lowerings and the NVVM target
    of each kernel module.

    - `chip`: an SM architecture of the instruction-facts table (`sm_80`,
      `sm_86`, `sm_89`, `sm_90`, `sm_90a`);
    - `family`: the instruction family, `wmma` (the WMMA API's `wmma.*`
      instructions) or `ptx` (inline PTX: `cp.async`, `ldmatrix`,
      `mma.sync`).

    ```mlir
    module attributes {tgemm.target = #tgemm.target<chip = "sm_90", family = ptx>} {
      ...
    }
    ```
  }];
  let parameters = (ins StringRefParameter<"SM architecture">:$chip,
                        TGemm_FamilyParameter:$family);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The chip's facts (the verifier makes sure there are some).
    const ::tgemm::ChipInfo &getChipInfo() const;
    ::tgemm::Target getValue() const { return {&getChipInfo(), getFamily()}; }
    /// The name of the attribute that carries the target on an op.
    static constexpr ::llvm::StringLiteral getAttrName() { return "tgemm.target"; }
  }];
}

def TGemm_ScheduleAttr : AttrDef<TGemm_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "How the k-loop and the lowering order and place a tile's work";
  let description = [{
    The knobs of a kernel that the tile config does not fix. `--tgemm-select-config`
    writes the tuned or the family's default schedule onto every
    `tgemm.matmul`; `--tgemm-override-config` changes single fields for an
    ablation; `tgemm-tile` reads the k-loop fields and hands the schedule to
    the kernel (its `tgemm.schedule` attribute), where the lowering reads
    the rest. A field left out has its default.

    - `refill_after_mma` (false): issue each iteration's refill copies after
      the multiply instead of right after the barrier;
    - `interleave_copies` (false): split the multiply in two halves of K and
      issue A's refill between them, B's after;
    - `prefetch_fragments` (false): carry the next stage's first fragments
      across the barrier (ptx lowering only);
    - `async_copy` (true): copy global -> shared with cp.async where the tile
      op is async (else through registers);
    - `ldmatrix` (true): load mma.sync fragments with ldmatrix (else
      per-thread ld.shared; ptx lowering only);
    - `swizzle` (xor): `xor`, `pad` or `none` placement of ring rows (the
      wmma lowering pads: `pad` only);
    - `padding` (16): bytes after each ring row with `swizzle = pad`;
    - `warp_specialize` (false): one producer warpgroup copies the tiles and
      the config's warps, as consumer warpgroups, multiply; full and empty
      mbarriers per stage order them (wgmma lowering only);
    - `tma` (false): the producer copies with TMA bulk tensor copies where
      the runtime could describe both operands, else with cp.async (needs
      `warp_specialize`);
    - `setmaxnreg` (false): the bulk-copy producer gives registers back to
      the consumers (needs `tma`; a cp.async producer keeps its registers
      for the addresses);
    - `persistent` (false): a persistent grid: as many blocks as can be
      resident, each looping over C's tiles in the config's raster order;
      a warp-specialized producer runs ahead into the next tile while the
      consumers store the last (the manifest's `persistent`);
    - `cluster` (1): blocks per cluster, 1 or 2 (wgmma with `tma`): the
      blocks of a cluster take tiles of C one above the other, which share
      B's tiles, and each copies its part of each B tile to every block of
      the cluster (TMA multicast); the manifest's `cluster`;
    - `tma_store` (false): wgmma with `tma`: the consumers write C's tile
      to shared memory in boxes of 16 rows by 128 bytes and store each with
      the copy engine (`cp.async.bulk.tensor`, through C's tensor map, the
      manifest's third `tensor_maps` entry), where the runtime made every
      map; elsewhere they store as without it;
    - `transpose_kernel` (false): every family: an 8-bit or tf32 operand
      (wmma: 8-bit) stored MN-major (A column-major, B row-major) is
      transposed by a kernel of its own, launched before the GEMM, into the
      launch's workspace, and the GEMM reads that K-major copy (the
      manifest's `transposes`); otherwise the GEMM reads it as stored
      (wgmma: transposed on its way into shared memory; mma.sync:
      ldmatrix.trans and prmt, or one ld.shared per tf32 element; wmma:
      load_matrix_sync of its layout);
    - `align_kernel` (false): every family: an operand whose rows the IR
      places at a multiple of fewer than 16 bytes (a packed operand of
      static shape, or a static stride: f16 with an odd leading dimension,
      say) is copied as stored by a kernel of its own, launched before the
      GEMM, into the launch's workspace with rows 16 bytes apart, and the
      GEMM reads that copy with tensor maps or 16-byte cp.async (the
      manifest's `aligned_copies`); otherwise the GEMM reads it in place
      with narrower copies.

    ```mlir
    #tgemm.schedule<refill_after_mma = true, swizzle = pad>
    ```
  }];
  let parameters = (ins
    TGemm_FlagParameter<"false">:$refill_after_mma,
    TGemm_FlagParameter<"false">:$interleave_copies,
    TGemm_FlagParameter<"false">:$prefetch_fragments,
    TGemm_FlagParameter<"true">:$async_copy,
    TGemm_FlagParameter<"true">:$ldmatrix,
    TGemm_SwizzleParameter:$swizzle,
    DefaultValuedParameter<"int64_t", "16", "row padding in bytes">:$padding,
    TGemm_FlagParameter<"false">:$warp_specialize,
    TGemm_FlagParameter<"false">:$tma,
    TGemm_FlagParameter<"false">:$setmaxnreg,
    TGemm_FlagParameter<"false">:$persistent,
    DefaultValuedParameter<"int64_t", "1", "blocks per cluster">:$cluster,
    TGemm_FlagParameter<"false">:$tma_store,
    TGemm_FlagParameter<"false">:$transpose_kernel,
    TGemm_FlagParameter<"false">:$align_kernel
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let builders = [
    AttrBuilder<(ins "const ::tgemm::Schedule &":$s), [{
      return $_get($_ctxt, s.refillAfterMma, s.interleaveCopies,
                   s.prefetchFragments, s.asyncCopy, s.ldmatrix, s.swizzle,
                   s.padding, s.warpSpecialize, s.tma, s.setMaxRegisters,
                   s.persistent, s.cluster, s.tmaStore,
                   s.transposeKernel, s.alignKernel);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    ::tgemm::Schedule getValue() const {
      return {getRefillAfterMma(), getInterleaveCopies(),
              getPrefetchFragments(), getAsyncCopy(), getLdmatrix(),
              getSwizzle(), getPadding(), getWarpSpecialize(), getTma(),
              getSetmaxnreg(), getPersistent(), getCluster(),
              getTmaStore(), getTransposeKernel(), getAlignKernel()};
    }
    static constexpr ::llvm::StringLiteral getAttrName() { return "tgemm.schedule"; }
  }];
}

def TGemm_EpilogueStepAttr : AttrDef<TGemm_Dialect, "EpilogueStep"> {
  let mnemonic = "epilogue_step";
  let summary = "One step of a GEMM's fused epilogue";
  let description = [{
    What the store of a GEMM does to each element of C after
    `alpha * acc + beta * C`, in f32, before the conversion to C's type
    (`runtime/include/tgemm/runtime/Epilogue.h` defines each step; i is
    C's row, j its column):

    - `bias(row|col|scalar)`: adds x[i], x[j] or x[0] of its operand, a
      vector of M, N or 1 elements;
    - `scale(row|col|scalar)`: multiplies by x[i], x[j] or x[0];
    - `residual`: adds r[i, j] of its operand, an M x N matrix like C;
    - `relu`, `gelu_tanh`, `gelu_erf`, `silu`: the activations.

    ```mlir
    #tgemm.epilogue_step<bias(col)>
    #tgemm.epilogue_step<gelu_tanh>
    ```
  }];
  let parameters = (ins "::tgemm::runtime::EpilogueOp":$op,
                        "::tgemm::runtime::Broadcast":$broadcast);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "::tgemm::runtime::EpilogueOp":$op), [{
      return $_get($_ctxt, op, ::tgemm::runtime::Broadcast::Col);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Whether the step reads an operand (bias, scale, residual).
    bool takesOperand() const { return ::tgemm::runtime::takesOperand(getOp()); }
    /// Whether its operand is a broadcast vector (bias, scale).
    bool takesBroadcast() const { return ::tgemm::runtime::takesBroadcast(getOp()); }
    /// The step as the manifest and the runtime spell it; `arg` is the
    /// index of its operand among the kernel's arguments.
    ::tgemm::runtime::EpilogueStep getValue(int arg = -1) const {
      return {getOp(), getBroadcast(), takesOperand() ? arg : -1};
    }
  }];
}

def TGemm_EpilogueAttr
    : TypedArrayAttrBase<TGemm_EpilogueStepAttr, "fused epilogue steps">;

#endif // TGEMM_ATTRS_TD
