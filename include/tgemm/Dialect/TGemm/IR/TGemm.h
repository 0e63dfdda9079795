//===- TGemm.h - tgemm dialect, attributes and operations -------*- C++ -*-===//

#ifndef TGEMM_DIALECT_TGEMM_IR_TGEMM_H
#define TGEMM_DIALECT_TGEMM_IR_TGEMM_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tgemm/Target/InstructionFacts.h"
#include "tgemm/Target/Legality.h"
#include "tgemm/runtime/Epilogue.h"

#include "mlir/IR/DialectImplementation.h"

#include "tgemm/Dialect/TGemm/IR/TGemmDialect.h.inc"
#include "tgemm/Dialect/TGemm/IR/TGemmEnums.h.inc"

namespace mlir::tgemm {
/// Field parsers of the target and schedule attributes.
FailureOr<bool> parseFlag(AsmParser &parser);
FailureOr<::tgemm::Family> parseFamilyField(AsmParser &parser);
FailureOr<::tgemm::Swizzle> parseSwizzleField(AsmParser &parser);
} // namespace mlir::tgemm

#define GET_ATTRDEF_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmAttrs.h.inc"

namespace mlir::tgemm {
/// A step of an epilogue without the attribute's `<...>`: `bias(col)`,
/// `gelu_tanh` (the ops' `epilogue(...)` lists them so).
ParseResult parseEpilogueStep(AsmParser &parser, EpilogueStepAttr &step);
void printEpilogueStep(AsmPrinter &printer, EpilogueStepAttr step);
} // namespace mlir::tgemm

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

/// The target of `op`: the `tgemm.target` of the nearest op around it
/// (itself included) that has one, or null.
TargetAttr lookupTarget(Operation *op);

/// The error for an op that needs a target and has none.
LogicalResult emitMissingTarget(Operation *op);

/// The error for tgemm.matmul's tensor form where a kernel is to be written
/// from it (tgemm-check-target, tgemm-tile): bufferize it first.
LogicalResult emitTensorForm(Operation *op);

/// Checks an op's fused epilogue against its C (`c`, rank 2 or 3): one
/// operand per step that reads one, in order; vectors of rank 1 (M, N or 1
/// elements where static), residuals of C's rank and shape; f32, f16 or
/// bf16 elements in global memory; identity layouts where `packed` (the
/// problem level), else unit stride within a row (a kernel's views).
/// Tensor operands (tgemm.matmul's tensor form) have no layout to check.
LogicalResult verifyEpilogue(Operation *op, ArrayAttr steps,
                             ValueRange operands, ShapedType c, bool packed);

/// The steps of an epilogue attribute (null: none), for the legality module
/// and the manifest; `firstArg` is the kernel argument index of the first
/// operand.
std::vector<::tgemm::runtime::EpilogueStep> getEpilogueSteps(ArrayAttr steps,
                                                            int firstArg = 3);

/// The problem a matmul states, for the legality module.
::tgemm::Problem getProblem(MatmulOp op);
/// The fields of a tile config.
::tgemm::TileConfig getTileConfig(ConfigAttr config);

/// On a kernel that takes TMA descriptors: how many (an i64). They are its
/// last arguments but one, which is the i32 that says whether the runtime
/// made every map; `tgemm-tensor-maps-by-value` makes them `__grid_constant__`
/// parameters.
inline constexpr llvm::StringLiteral kTensorMapParamsAttrName =
    "tgemm.tensor_map_params";

/// Emits `violation` as an error of `op` (with its location).
LogicalResult emitViolation(Operation *op, const ::tgemm::Violation &violation);

/// Checks `op` for `target` with the legality module: its config and
/// schedule where it has them (else the family's default schedule).
LogicalResult verifyForTarget(MatmulOp op, const ::tgemm::Target &target);
/// The legality module's verdict on `op` for `target` (its config and
/// schedule where it has them), without a diagnostic.
::tgemm::Verdict checkForTarget(MatmulOp op, const ::tgemm::Target &target);

} // namespace mlir::tgemm

#endif // TGEMM_DIALECT_TGEMM_IR_TGEMM_H
