//===- ElementType.h - Element types, layouts and GEMM signatures ---------===//
//
// The vocabulary shared by the manifest, the data generators, the references
// and the checker: the element types of docs/manifest.md, storage orders,
// and which (A, B, accumulator, C) combinations tgemm compiles. Plain C++:
// the compiler's instruction facts read the same table
// (ElementTypes.def), so there is one list of element types in tgemm.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_ELEMENTTYPE_H
#define TGEMM_RUNTIME_ELEMENTTYPE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tgemm::runtime {

enum class ElementType : int {
#define TGEMM_ELEMENT_TYPE(Enum, name, mlir, bits, integer, float8) Enum,
#include "tgemm/runtime/ElementTypes.def"
};

/// Every element type, in the table's order.
const std::vector<ElementType> &allElementTypes();

/// The spelling of docs/manifest.md ("f16", "e4m3", ...).
const char *elementTypeName(ElementType type);
std::optional<ElementType> parseElementType(std::string_view name);
/// "f16, bf16, f32, ..." for messages.
const char *allElementTypeNames();

/// The MLIR element type that stores it: "f16", "f32" (also for tf32),
/// "i8", "ui8", "i4", "f8E4M3FN", "f8E5M2", "i32".
const char *mlirTypeName(ElementType type);

/// Storage size in bits (4 for s4).
int elementBits(ElementType type);
bool isIntegerType(ElementType type);
bool isFloat8Type(ElementType type);

/// Bytes that `elements` elements occupy (s4 rounds up to whole bytes).
int64_t storageBytes(ElementType type, int64_t elements);

/// Storage order, as in tgemm.matmul: see docs/manifest.md.
enum class Layout : int { Row, Col };
const char *layoutName(Layout layout);
std::optional<Layout> parseLayout(std::string_view name);

/// A problem dimension: the names of `grid` and `requires` ("batch" only in
/// a batched kernel's manifest).
enum class Dim : int { M, N, K, Batch };
const char *dimName(Dim dim);
std::optional<Dim> parseDim(std::string_view name);

enum class Operand : int { A, B, C };
const char *operandName(Operand operand);

struct OperandSpec {
  ElementType type = ElementType::F16;
  Layout layout = Layout::Row;
};

/// What a GEMM computes: C = alpha * A * B + beta * C.
struct GemmSpec {
  OperandSpec a, b, c;
  ElementType acc = ElementType::F32;
  double alpha = 1.0;
  double beta = 0.0;

  bool isInteger() const { return acc == ElementType::S32; }
  /// "f16*f16->f32 (acc f32)" for reports.
  std::string signature() const;
};

/// Whether the store converts an `acc` accumulator into a `c` output: f32
/// into f32, f16 or bf16; f16 into f16 or f32; s32 into s32 or, dequantized
/// (alpha * float(acc) + beta * float(C)), into f32, f16 or bf16. The one
/// rule: the compiler's legality module and verifier ask it too.
bool isLegalOutput(ElementType acc, ElementType c);

/// Whether tgemm compiles this (A, B, acc, C) combination; if not, `why`
/// says what would be accepted.
bool isSupportedCombination(const GemmSpec &spec, std::string *why);

/// The vocabulary as JSON text, for the languages that cannot include
/// ElementTypes.def (Python reads it through the extension or the C API):
/// one object per type, in the table's order, with its name, mlir, bits,
/// integer and float8 columns, and whether it is an A/B operand type
/// ("operand") or a C type ("result") of some combination tgemm compiles.
const std::string &elementTypesJson();

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_ELEMENTTYPE_H
