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

    ```mlir
    #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 3>
    #tgemm.config<block = [128, 256, 32], warps = [2, 4], stages = 4, raster = 8>
    ```

    The attribute verifies what holds for every precision (positive sizes, a
    block tile divisible by the warp grid, at most 1024 threads); what depends
    on the element types is checked by `tgemm.matmul`.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "block tile [M, N, K]">:$block,
    ArrayRefParameter<"int64_t", "warp grid [M, N]">:$warps,
    "int64_t":$stages,
    DefaultValuedParameter<"int64_t", "1", "block rasterization group">:$raster
  );
  let assemblyFormat = [{
    `<` `block` `=` `[` $block `]` `,` `warps` `=` `[` $warps `]` `,`
        `stages` `=` $stages (`,` `raster` `=` $raster^)? `>`
  }];
  let builders = [
    AttrBuilder<(ins "ArrayRef<int64_t>":$block, "ArrayRef<int64_t>":$warps,
                     "int64_t":$stages), [{
      return $_get($_ctxt, block, warps, stages, /*raster=*/1);
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

#endif // TGEMM_ATTRS_TD
