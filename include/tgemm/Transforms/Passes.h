//===- Passes.h - tgemm transformation passes -------------------*- C++ -*-===//

#ifndef TGEMM_TRANSFORMS_PASSES_H
#define TGEMM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tgemm {

#define GEN_PASS_DECL
#include "tgemm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgemm/Transforms/Passes.h.inc"

} // namespace mlir::tgemm

#endif // TGEMM_TRANSFORMS_PASSES_H
