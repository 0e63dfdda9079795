//===- Passes.h - tgemm instruction-level lowerings -------------*- C++ -*-===//

#ifndef TGEMM_CONVERSION_PASSES_H
#define TGEMM_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tgemm {

#define GEN_PASS_DECL
#include "tgemm/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tgemm/Conversion/Passes.h.inc"

} // namespace mlir::tgemm

#endif // TGEMM_CONVERSION_PASSES_H
