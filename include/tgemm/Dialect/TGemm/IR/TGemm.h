//===- TGemm.h - tgemm dialect, attributes and operations -------*- C++ -*-===//

#ifndef TGEMM_DIALECT_TGEMM_IR_TGEMM_H
#define TGEMM_DIALECT_TGEMM_IR_TGEMM_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tgemm/Target/InstructionFacts.h"

#include "tgemm/Dialect/TGemm/IR/TGemmDialect.h.inc"
#include "tgemm/Dialect/TGemm/IR/TGemmEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmTypes.h.inc"

#define GET_OP_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmOps.h.inc"

namespace mlir::tgemm {

/// The tensor-core kind of an A/B element type (f32 -> TF32, i8 -> S8, ...).
std::optional<::tgemm::ElemKind> getOperandKind(Type type);
/// The kind of an accumulator or C element type (f32 -> F32, i32 -> S32, ...).
std::optional<::tgemm::ElemKind> getResultKind(Type type);

/// The element kinds of a matmul. Only meaningful on a verified op.
struct MatmulKinds {
  ::tgemm::ElemKind a, b, acc, c;
};
MatmulKinds getMatmulKinds(MatmulOp op);

/// Bytes of shared memory the config's stage ring needs for A and B tiles.
int64_t getPipelineSharedBytes(ConfigAttr config, ::tgemm::ElemKind a,
                               ::tgemm::ElemKind b);

} // namespace mlir::tgemm

#endif // TGEMM_DIALECT_TGEMM_IR_TGEMM_H
