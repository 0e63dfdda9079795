//===- ImportEpilogue.h - element-wise linalg into a matmul's epilogue ----===//

#ifndef TGEMM_LIB_TRANSFORMS_IMPORTEPILOGUE_H
#define TGEMM_LIB_TRANSFORMS_IMPORTEPILOGUE_H

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include <string>

namespace mlir::tgemm {

/// Folds the element-wise linalg.generic ops that follow `matmul` and read
/// its C into its fused epilogue, one at a time (each fold replaces the
/// matmul); the first such op it cannot fold is left as it is, with a
/// remark that says why.
void fuseElementwiseEpilogue(MatmulOp matmul);

/// The first error `op`'s verifier reports (captured, not emitted), or ""
/// when it verifies.
std::string verifyMessage(Operation *op);

} // namespace mlir::tgemm

#endif
