//===- TGemmTypes.td - tgemm kernel-level types ------------*- tablegen -*-===//

#ifndef TGEMM_TYPES_TD
#define TGEMM_TYPES_TD

include "tgemm/Dialect/TGemm/IR/TGemmDialect.td"
include "mlir/IR/AttrTypeBase.td"

class TGemm_Type<string name, string typeMnemonic>
    : TypeDef<TGemm_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def TGemm_SmemType : TGemm_Type<"Smem", "smem"> {
  let summary = "A ring of tile buffers in shared memory";
  let description = [{
    `!tgemm.smem<SxRxCxT>` holds S stages, each an R x C tile of element
    type T, in the block's shared memory. The type says only what is stored;
    where each element lives (row padding, swizzle) is decided by the
    instruction-level lowering, which is what lets the same kernel-level IR be
    lowered with different shared-memory layouts.

    ```mlir
    %a = tgemm.alloc_smem : !tgemm.smem<3x128x32xf16>
    ```
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$rows, "int64_t":$cols,
                        "Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TGemm_AccumulatorType : TGemm_Type<"Accumulator", "acc"> {
  let summary = "A warp's accumulator tile";
  let description = [{
    `!tgemm.acc<RxCxT>` is the R x C accumulator tile of one warp, with
    accumulator element type T. How it is spread over the lanes' registers is
    decided by the instruction-level lowering (WMMA fragments, mma.sync
    fragments).

    ```mlir
    %acc = tgemm.zero_acc : !tgemm.acc<64x64xf32>
    ```
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$cols, "Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TGemm_FragsType : TGemm_Type<"Frags", "frags"> {
  let summary = "A warp's A and B operand fragments for a slice of K";
  let description = [{
    `!tgemm.frags<RxCxKxT>` holds, in one warp's registers, the A fragments
    of R rows and the B fragments of C columns for K elements of depth, of
    operand type T: what the warp needs to multiply K of its R x C
    accumulator. It lets a k-loop load the next stage's first fragments
    before it finishes the current stage (`tgemm.load_frags`, and
    `tgemm.mma_tile ... using`). The register layout is the lowering's.

    ```mlir
    %f = tgemm.load_frags %sa[%s], %sb[%s] at [%wm, %wn] layout(row, col)
        k_slice [0, 16] : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x128x32xf16>,
        !tgemm.frags<64x64x16xf16>
    ```
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$cols, "int64_t":$depth,
                        "Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TGemm_BarriersType : TGemm_Type<"Barriers", "barriers"> {
  let summary = "A ring of barriers in shared memory, one per stage";
  let description = [{
    `!tgemm.barriers<S>` holds S barriers of the block, one per stage of
    the rings they guard. A barrier completes a phase once its expected
    arrivals have arrived and the bytes they announced have landed
    (`tgemm.arrive_barrier ... expect_bytes`, `tgemm.bulk_copy_tile`);
    threads wait for a phase by its parity. A warp-specialized k-loop uses
    two rings: `full` (a stage's tiles have landed) and `empty` (its
    consumers are done with it). The wgmma lowering makes them mbarriers.

    ```mlir
    %full = tgemm.alloc_barriers : !tgemm.barriers<4>
    ```
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

#endif // TGEMM_TYPES_TD
