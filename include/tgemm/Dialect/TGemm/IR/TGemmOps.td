//===- TGemmOps.td - tgemm operations ----------------------*- tablegen -*-===//

#ifndef TGEMM_OPS_TD
#define TGEMM_OPS_TD

include "tgemm/Dialect/TGemm/IR/TGemmAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

class TGemm_Op<string mnemonic, list<Trait> traits = []>
    : Op<TGemm_Dialect, mnemonic, traits>;

// Element types a tensor core multiplies. f32 operands are computed as TF32;
// signless i8 and i4 are signed.
def TGemm_OperandElement
    : AnyTypeOf<[F16, BF16, F32, I8, UI8, I<4>, F8E4M3FN, F8E5M2]>;
def TGemm_OutputElement : AnyTypeOf<[F32, F16, BF16, I32]>;
def TGemm_AccumulatorType
    : TypeAttrOf<AnyTypeOf<[F32, F16, I32]>>;

def TGemm_OperandMemRef : MemRefRankOf<[TGemm_OperandElement], [2]>;
def TGemm_OutputMemRef : MemRefRankOf<[TGemm_OutputElement], [2]>;

def TGemm_MatmulOp : TGemm_Op<"matmul"> {
  let summary = "C = alpha * op(A) * op(B) + beta * C on tensor cores";
  let description = [{
    A matrix multiplication at the problem level. With logical sizes M, N, K:

    - `A` is M x K; stored as `memref<MxK>` when its layout is `row`, and as
      `memref<KxM>` (column-major M x K) when it is `col`;
    - `B` is K x N; stored as `memref<KxN>` when `row`, `memref<NxK>` when
      `col`;
    - `C` is M x N, row-major, and is read when `beta` is non-zero.

    Sizes may be static or dynamic. `acc` is the accumulator type of the
    tensor-core instruction; the epilogue converts it to C's element type.
    `alpha` defaults to 1 and `beta` to 0; with an `i32` accumulator both must
    be integers.

    The verifier accepts a combination of element types only if the
    instruction-facts table has an instruction for it, and a tile config only
    if every instruction family that computes the precision can tile it, so a
    verified op lowers through either family.

    ```mlir
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32) alpha(1.0) beta(0.0)
        config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
        : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
    ```
  }];

  let arguments = (ins
    Arg<TGemm_OperandMemRef, "A", [MemRead]>:$a,
    Arg<TGemm_OperandMemRef, "B", [MemRead]>:$b,
    Arg<TGemm_OutputMemRef, "C", [MemRead, MemWrite]>:$c,
    TGemm_LayoutAttr:$layout_a,
    TGemm_LayoutAttr:$layout_b,
    TGemm_AccumulatorType:$acc,
    OptionalAttr<F64Attr>:$alpha,
    OptionalAttr<F64Attr>:$beta,
    TGemm_ConfigAttr:$config
  );

  let assemblyFormat = [{
    $a `,` $b `,` $c
    `layout` `(` custom<Layout>($layout_a) `,` custom<Layout>($layout_b) `)`
    `acc` `(` $acc `)`
    (`alpha` `(` $alpha^ `)`)?
    (`beta` `(` $beta^ `)`)?
    `config` `(` $config `)`
    attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    /// alpha and beta with their defaults applied.
    double getAlphaValue() { return getAlpha().value_or(::llvm::APFloat(1.0)).convertToDouble(); }
    double getBetaValue() { return getBeta().value_or(::llvm::APFloat(0.0)).convertToDouble(); }
    /// Memref dimension holding M, N or K of an operand, given its layout.
    static unsigned rowsDim(Layout layout) { return layout == Layout::Row ? 0 : 1; }
    /// The logical problem sizes (ShapedType::kDynamic where unknown).
    int64_t getStaticM();
    int64_t getStaticN();
    int64_t getStaticK();
  }];
}

#endif // TGEMM_OPS_TD
