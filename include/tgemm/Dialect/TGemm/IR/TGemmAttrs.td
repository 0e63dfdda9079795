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
      through (1 = no overlap of copies and math).

    ```mlir
    #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 3>
    ```

    The attribute verifies what holds for every precision (positive sizes, a
    block tile divisible by the warp grid, at most 1024 threads); what depends
    on the element types is checked by `tgemm.matmul`.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "block tile [M, N, K]">:$block,
    ArrayRefParameter<"int64_t", "warp grid [M, N]">:$warps,
    "int64_t":$stages
  );
  let assemblyFormat = [{
    `<` `block` `=` `[` $block `]` `,` `warps` `=` `[` $warps `]` `,`
        `stages` `=` $stages `>`
  }];
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
