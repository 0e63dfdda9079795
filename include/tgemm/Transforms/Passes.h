//===- Passes.h - tgemm transformation passes -------------------*- C++ -*-===//

#ifndef TGEMM_TRANSFORMS_PASSES_H
#define TGEMM_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::tgemm {

#define GEN_PASS_DECL
#include "tgemm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgemm/Transforms/Passes.h.inc"

} // namespace mlir::tgemm

#endif // TGEMM_TRANSFORMS_PASSES_H
