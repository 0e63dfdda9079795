//===- TGemmTypes.cpp - tgemm kernel-level types --------------------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/IR/DialectImplementation.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::tgemm;

/// Bits in `sizes` elements of `bits` each, or nullopt past 2^35 (4 GiB):
/// shared memory and registers are addressed with 32 bits, so no ring,
/// accumulator or fragment set can be larger, and lowerings that multiply
/// the sizes out stay clear of overflow.
static std::optional<int64_t> checkedBits(ArrayRef<int64_t> sizes,
                                          int64_t bits) {
  constexpr int64_t kMaxBits = int64_t(1) << 35;
  std::optional<int64_t> product = bits;
  for (int64_t size : sizes) {
    product = llvm::checkedMul(*product, size);
    if (!product || *product > kMaxBits)
      return std::nullopt;
  }
  return product;
}

/// Parses `<d0 x d1 x ... x type>` with exactly `rank` static sizes.
static ParseResult parseShapeAndType(AsmParser &parser, unsigned rank,
                                     SmallVectorImpl<int64_t> &shape,
                                     Type &elementType) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return failure();
  if (shape.size() != rank)
    return parser.emitError(loc) << "expected " << rank << " sizes, got "
                                 << shape.size();
  return success();
}

static void printShapeAndType(AsmPrinter &printer, ArrayRef<int64_t> shape,
                              Type elementType) {
  printer << '<';
  for (int64_t size : shape)
    printer << size << 'x';
  printer << elementType << '>';
}

Type SmemType::parse(AsmParser &parser) {
  SmallVector<int64_t, 3> shape;
  Type elementType;
  if (parseShapeAndType(parser, 3, shape, elementType))
    return {};
  return parser.getChecked<SmemType>(parser.getContext(), shape[0], shape[1],
                                     shape[2], elementType);
}

void SmemType::print(AsmPrinter &printer) const {
  printShapeAndType(printer, {getStages(), getRows(), getCols()},
                    getElementType());
}

LogicalResult SmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t stages, int64_t rows, int64_t cols,
                               Type elementType) {
  if (stages < 1 || rows < 1 || cols < 1)
    return emitError() << "shared-memory ring sizes must be positive, got "
                       << stages << "x" << rows << "x" << cols;
  if (!getOperandKind(elementType))
    return emitError() << "shared-memory ring of " << elementType
                       << ": not a tensor-core operand type";
  if (!checkedBits({stages, rows, cols},
                   elementType.getIntOrFloatBitWidth()))
    return emitError() << "a shared-memory ring of " << stages << "x" << rows
                       << "x" << cols << " " << elementType
                       << " elements is over 4 GiB, past 32-bit shared "
                          "addresses";
  return success();
}

Type AccumulatorType::parse(AsmParser &parser) {
  SmallVector<int64_t, 2> shape;
  Type elementType;
  if (parseShapeAndType(parser, 2, shape, elementType))
    return {};
  return parser.getChecked<AccumulatorType>(parser.getContext(), shape[0],
                                            shape[1], elementType);
}

void AccumulatorType::print(AsmPrinter &printer) const {
  printShapeAndType(printer, {getRows(), getCols()}, getElementType());
}

LogicalResult
AccumulatorType::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t rows, int64_t cols, Type elementType) {
  if (rows < 1 || cols < 1)
    return emitError() << "accumulator sizes must be positive, got " << rows
                       << "x" << cols;
  if (!elementType.isF32() && !elementType.isF16() &&
      !elementType.isSignlessInteger(32))
    return emitError() << "accumulator of " << elementType
                       << ": expected f32, f16 or i32";
  if (!checkedBits({rows, cols}, elementType.getIntOrFloatBitWidth()))
    return emitError() << "an accumulator of " << rows << "x" << cols << " "
                       << elementType << " elements is over 4 GiB";
  return success();
}

Type FragsType::parse(AsmParser &parser) {
  SmallVector<int64_t, 3> shape;
  Type elementType;
  if (parseShapeAndType(parser, 3, shape, elementType))
    return {};
  return parser.getChecked<FragsType>(parser.getContext(), shape[0], shape[1],
                                      shape[2], elementType);
}

void FragsType::print(AsmPrinter &printer) const {
  printShapeAndType(printer, {getRows(), getCols(), getDepth()},
                    getElementType());
}

LogicalResult FragsType::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t rows, int64_t cols, int64_t depth,
                                Type elementType) {
  if (rows < 1 || cols < 1 || depth < 1)
    return emitError() << "fragment sizes must be positive, got " << rows
                       << "x" << cols << "x" << depth;
  if (!getOperandKind(elementType))
    return emitError() << "fragments of " << elementType
                       << ": not a tensor-core operand type";
  if (!checkedBits({rows, cols, depth}, elementType.getIntOrFloatBitWidth()))
    return emitError() << "fragments of " << rows << "x" << cols << "x"
                       << depth << " " << elementType
                       << " elements are over 4 GiB";
  return success();
}

LogicalResult
BarriersType::verify(function_ref<InFlightDiagnostic()> emitError,
                     int64_t count) {
  if (count < 1 || count > 64)
    return emitError() << "a ring of barriers has 1 to 64 stages, got "
                       << count;
  return success();
}
