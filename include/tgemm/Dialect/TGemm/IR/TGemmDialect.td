//===- TGemmDialect.td - tgemm dialect definition ----------*- tablegen -*-===//

#ifndef TGEMM_DIALECT_TD
#define TGEMM_DIALECT_TD

include "mlir/IR/OpBase.td"

def TGemm_Dialect : Dialect {
  let name = "tgemm";
  let summary = "Tiled GEMM on NVIDIA tensor cores";
  let description = [{
    The `tgemm` dialect describes a matrix multiplication once, at the problem
    level (`tgemm.matmul` with a tile configuration), so that the same problem
    can be lowered through different tensor-core instruction families (WMMA,
    inline-PTX `mma.sync`) and the results compared.
  }];
  let cppNamespace = "::mlir::tgemm";
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

#endif // TGEMM_DIALECT_TD
