//===- TGemmOps.cpp - tgemm operations ------------------------------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::tgemm;
using ::tgemm::ElemKind;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// A layout is a bare `row` or `col` inside the op's `layout(...)` group.
static ParseResult parseLayout(OpAsmParser &parser, LayoutAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<Layout> layout = symbolizeLayout(keyword);
  if (!layout)
    return parser.emitError(loc)
           << "expected layout 'row' or 'col', got '" << keyword << "'";
  attr = LayoutAttr::get(parser.getContext(), *layout);
  return success();
}

static void printLayout(OpAsmPrinter &printer, Operation *, LayoutAttr attr) {
  printer << stringifyLayout(attr.getValue());
}

#define GET_OP_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Element kinds
//===----------------------------------------------------------------------===//

std::optional<ElemKind> mlir::tgemm::getOperandKind(Type type) {
  if (type.isF16())
    return ElemKind::F16;
  if (type.isBF16())
    return ElemKind::BF16;
  if (type.isF32())
    return ElemKind::TF32;
  if (type.isSignlessInteger(8))
    return ElemKind::S8;
  if (type.isUnsignedInteger(8))
    return ElemKind::U8;
  if (type.isSignlessInteger(4))
    return ElemKind::S4;
  if (isa<Float8E4M3FNType>(type))
    return ElemKind::E4M3;
  if (isa<Float8E5M2Type>(type))
    return ElemKind::E5M2;
  return std::nullopt;
}

std::optional<ElemKind> mlir::tgemm::getResultKind(Type type) {
  if (type.isF32())
    return ElemKind::F32;
  if (type.isF16())
    return ElemKind::F16;
  if (type.isBF16())
    return ElemKind::BF16;
  if (type.isSignlessInteger(32))
    return ElemKind::S32;
  return std::nullopt;
}

/// How a kind is spelled in MLIR, so diagnostics speak the IR's language.
static StringRef mlirSpelling(ElemKind kind) {
  switch (kind) {
  case ElemKind::F16:
    return "f16";
  case ElemKind::BF16:
    return "bf16";
  case ElemKind::TF32:
  case ElemKind::F32:
    return "f32";
  case ElemKind::S8:
    return "i8";
  case ElemKind::U8:
    return "ui8";
  case ElemKind::S4:
    return "i4";
  case ElemKind::E4M3:
    return "f8E4M3FN";
  case ElemKind::E5M2:
    return "f8E5M2";
  case ElemKind::S32:
    return "i32";
  }
  llvm_unreachable("unknown element kind");
}

MatmulKinds mlir::tgemm::getMatmulKinds(MatmulOp op) {
  return {*getOperandKind(op.getA().getType().getElementType()),
          *getOperandKind(op.getB().getType().getElementType()),
          *getResultKind(op.getAcc()),
          *getResultKind(op.getC().getType().getElementType())};
}

int64_t mlir::tgemm::getPipelineSharedBytes(ConfigAttr config, ElemKind a,
                                            ElemKind b) {
  int64_t bitsPerStage =
      config.getBlockM() * config.getBlockK() * ::tgemm::bitWidth(a) +
      config.getBlockK() * config.getBlockN() * ::tgemm::bitWidth(b);
  return config.getStages() * bitsPerStage / 8;
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

/// Size of matrix dimension `dim` (0: rows, 1: columns) of `type`, after any
/// batch dimension.
static int64_t matrixDimSize(MemRefType type, unsigned dim) {
  return type.getDimSize(type.getRank() - 2 + dim);
}

int64_t MatmulOp::getStaticM() {
  return matrixDimSize(getA().getType(), rowsDim(getLayoutA()));
}

int64_t MatmulOp::getStaticK() {
  return matrixDimSize(getA().getType(), 1 - rowsDim(getLayoutA()));
}

int64_t MatmulOp::getStaticN() {
  // B is K x N: row-major stores it as KxN, so N is dimension 1.
  return matrixDimSize(getB().getType(), getLayoutB() == Layout::Row ? 1 : 0);
}

int64_t MatmulOp::getStaticBatch() {
  return isBatched() ? getC().getType().getDimSize(0) : 1;
}

/// Checks that two views of one problem size agree where both are static.
static LogicalResult verifySameSize(MatmulOp op, StringRef dim, StringRef lhs,
                                    int64_t lhsSize, StringRef rhs,
                                    int64_t rhsSize) {
  if (ShapedType::isDynamic(lhsSize) || ShapedType::isDynamic(rhsSize) ||
      lhsSize == rhsSize)
    return success();
  return op.emitOpError() << dim << " of " << lhs << " (" << lhsSize
                          << ") does not match " << dim << " of " << rhs
                          << " (" << rhsSize << ")";
}

static std::string formatShortest(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", value);
  return buffer;
}

static std::string joinSpellings(ArrayRef<ElemKind> kinds) {
  return llvm::join(llvm::map_range(kinds, mlirSpelling), ", ");
}

static std::string joinFamilies(ArrayRef<const ::tgemm::MmaFact *> facts) {
  return llvm::join(llvm::map_range(facts,
                                    [](const ::tgemm::MmaFact *f) {
                                      return ::tgemm::familyName(f->family);
                                    }),
                    " and ");
}

LogicalResult MatmulOp::verify() {
  MemRefType aType = getA().getType(), bType = getB().getType(),
             cType = getC().getType();
  for (auto [name, type] : {std::pair<StringRef, MemRefType>{"A", aType},
                            {"B", bType},
                            {"C", cType}}) {
    // Views into larger buffers are fine (any row stride and offset, the
    // kernel reads them from the descriptor); elements of a row must be
    // adjacent.
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return emitOpError() << name
                           << " must have unit stride within a row (a "
                              "strided view with innermost stride 1), got "
                           << type.getLayout();
  }

  // Batches: all three operands or none, of one size.
  if (aType.getRank() != cType.getRank() || bType.getRank() != cType.getRank())
    return emitOpError() << "A, B and C must all be matrices (rank 2) or all "
                            "batches of matrices (rank 3), got ranks "
                         << aType.getRank() << ", " << bType.getRank()
                         << " and " << cType.getRank();
  if (isBatched() &&
      (failed(verifySameSize(*this, "batch", "A", aType.getDimSize(0), "C",
                             cType.getDimSize(0))) ||
       failed(verifySameSize(*this, "batch", "B", bType.getDimSize(0), "C",
                             cType.getDimSize(0)))))
    return failure();

  // Shapes: A is MxK (row) or KxM (col), B is KxN (row) or NxK (col), C MxN.
  if (failed(verifySameSize(*this, "M", "A", getStaticM(), "C",
                            matrixDimSize(cType, 0))) ||
      failed(verifySameSize(*this, "N", "B", getStaticN(), "C",
                            matrixDimSize(cType, 1))) ||
      failed(verifySameSize(*this, "K", "A", getStaticK(), "B",
                            matrixDimSize(bType,
                                          getLayoutB() == Layout::Row ? 0 : 1))))
    return failure();

  // Element types: legal only if the instruction-facts table has them.
  MatmulKinds kinds = getMatmulKinds(*this);
  auto facts = ::tgemm::lookupMmaAnyFamily(kinds.a, kinds.b, kinds.acc);
  if (facts.empty()) {
    auto accs = ::tgemm::legalAccumulators(kinds.a, kinds.b);
    if (accs.empty())
      return emitOpError() << "no tensor-core instruction multiplies A of "
                           << aType.getElementType() << " by B of "
                           << bType.getElementType();
    return emitOpError() << "accumulator " << getAcc() << " is not available for "
                         << aType.getElementType()
                         << " operands; legal accumulators: "
                         << joinSpellings(accs);
  }
  if (!::tgemm::isLegalOutput(kinds.acc, kinds.c)) {
    SmallVector<ElemKind> outs;
    for (ElemKind c : {ElemKind::F32, ElemKind::F16, ElemKind::BF16,
                       ElemKind::S32})
      if (::tgemm::isLegalOutput(kinds.acc, c))
        outs.push_back(c);
    return emitOpError() << "C of " << cType.getElementType()
                         << " cannot be produced from an " << getAcc()
                         << " accumulator; legal C element types: "
                         << joinSpellings(outs);
  }
  if (kinds.acc == ElemKind::S32) {
    for (auto [name, value] : {std::pair<StringRef, double>{"alpha",
                                                            getAlphaValue()},
                               {"beta", getBetaValue()}}) {
      if (value != std::trunc(value) || std::fabs(value) > 2147483647.0)
        return emitOpError() << name << " (" << formatShortest(value)
                             << ") must be a 32-bit integer with an i32 "
                                "accumulator";
    }
  }

  // Tile: every family that computes this precision must be able to tile it,
  // so the same op lowers through either and the comparison stays fair.
  ConfigAttr config = getConfigAttr();
  if (!config)
    return success(); // chosen later, by tgemm-select-config
  ::tgemm::InstrShape tile = ::tgemm::commonTile(facts);
  std::string who = joinFamilies(facts);
  StringRef precision = mlirSpelling(kinds.a);
  if (config.getWarpTileM() % tile.m != 0)
    return emitOpError() << "warp tile M (" << config.getWarpTileM()
                         << " = block tile M " << config.getBlockM() << " / "
                         << config.getWarpsM()
                         << " warps) must be a multiple of the instruction M ("
                         << tile.m << ") of " << who << " for " << precision;
  if (config.getWarpTileN() % tile.n != 0)
    return emitOpError() << "warp tile N (" << config.getWarpTileN()
                         << " = block tile N " << config.getBlockN() << " / "
                         << config.getWarpsN()
                         << " warps) must be a multiple of the instruction N ("
                         << tile.n << ") of " << who << " for " << precision;
  if (config.getBlockK() % tile.k != 0)
    return emitOpError() << "block tile K (" << config.getBlockK()
                         << ") must be a multiple of the instruction K ("
                         << tile.k << ") of " << who << " for " << precision;

  // Tiles are copied in 16-byte vectors: every stored row of a tile must be
  // a whole number of them.
  // (rowDim, colDim) are the operand's logical dims: M x K for A, K x N for
  // B; a row-major operand stores rows of colDim elements, a column-major
  // one rows of rowDim elements.
  auto checkRowBytes = [&](StringRef name, Layout layout, char rowDim,
                           int64_t rowSize, char colDim, int64_t colSize,
                           ElemKind kind) -> LogicalResult {
    bool rowMajor = layout == Layout::Row;
    char dim = rowMajor ? colDim : rowDim;
    int64_t size = rowMajor ? colSize : rowSize;
    int64_t bits = size * ::tgemm::bitWidth(kind);
    if (bits % 128 == 0)
      return success();
    return emitOpError() << "a stored row of the " << name << " tile ("
                         << "block tile " << dim << " = " << size << " x "
                         << ::tgemm::bitWidth(kind) << " bits) must be a "
                         << "multiple of 16 bytes for vectorized copies";
  };
  if (failed(checkRowBytes("A", getLayoutA(), 'K', config.getBlockK(), 'M',
                           config.getBlockM(), kinds.a)) ||
      failed(checkRowBytes("B", getLayoutB(), 'K', config.getBlockK(), 'N',
                           config.getBlockN(), kinds.b)))
    return failure();

  // Shared memory: the stage ring must fit the largest chip that has one of
  // these instructions; the per-chip limit is checked once a chip is chosen.
  const ::tgemm::ChipInfo *largest = nullptr;
  for (const ::tgemm::ChipInfo &chip : ::tgemm::getChips()) {
    bool hasInstr = llvm::any_of(
        facts, [&](const ::tgemm::MmaFact *f) { return f->minSm <= chip.sm; });
    if (hasInstr && (!largest || chip.maxSharedBytesPerBlock >
                                     largest->maxSharedBytesPerBlock))
      largest = &chip;
  }
  int64_t bytes = getPipelineSharedBytes(config, kinds.a, kinds.b);
  if (largest && bytes > largest->maxSharedBytesPerBlock)
    return emitOpError() << "the " << config.getStages()
                         << "-stage pipeline needs " << bytes
                         << " bytes of shared memory, more than any chip "
                            "allows a block (largest: "
                         << largest->maxSharedBytesPerBlock << " bytes on "
                         << largest->name << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel-level tile ops
//===----------------------------------------------------------------------===//

LogicalResult CopyTileOp::verify() {
  Type srcElement = getSrc().getType().getElementType();
  if (srcElement != getDst().getType().getElementType())
    return emitOpError() << "copies " << srcElement << " into a ring of "
                         << getDst().getType().getElementType();
  return success();
}

/// Extents of a ring's tile as (outer, inner) logical dims for a layout:
/// row-major tiles are stored as they are indexed.
static std::pair<int64_t, int64_t> logicalDims(SmemType type, Layout layout) {
  if (layout == Layout::Row)
    return {type.getRows(), type.getCols()};
  return {type.getCols(), type.getRows()};
}

int64_t MmaTileOp::getDepth() {
  return logicalDims(getA().getType(), getLayoutA()).second;
}

/// `slice` is [offset, size], a non-empty part of a stage `depth` deep.
static LogicalResult verifyKSlice(Operation *op, ArrayRef<int64_t> slice,
                                  int64_t depth) {
  if (slice.size() != 2)
    return op->emitOpError() << "k_slice takes [offset, size], got "
                             << slice.size() << " values";
  int64_t offset = slice[0], size = slice[1];
  if (offset < 0 || size <= 0 || offset + size > depth)
    return op->emitOpError() << "k_slice [" << offset << ", " << size
                             << "] is not a non-empty part of the stage's "
                             << depth << " elements of K";
  return success();
}

LogicalResult LoadFragsOp::verify() {
  auto [aM, aK] = logicalDims(getA().getType(), getLayoutA());
  auto [bK, bN] = logicalDims(getB().getType(), getLayoutB());
  FragsType type = getResult().getType();
  if (aK != bK)
    return emitOpError() << "A tiles are " << aK << " deep but B tiles are "
                         << bK << " deep";
  if (failed(verifyKSlice(getOperation(), getKSlice(), aK)))
    return failure();
  if (getKSlice()[1] != type.getDepth())
    return emitOpError() << "a k_slice of " << getKSlice()[1]
                         << " elements does not make " << type;
  Type element = getA().getType().getElementType();
  if (element != getB().getType().getElementType() ||
      element != type.getElementType())
    return emitOpError() << "loads " << type << " from rings of " << element
                         << " and " << getB().getType().getElementType();
  if (type.getRows() > aM || type.getCols() > bN)
    return emitOpError() << "fragments of a " << type.getRows() << "x"
                         << type.getCols() << " warp tile do not fit the "
                         << aM << "x" << bN << " block tile";
  return success();
}

std::pair<int64_t, int64_t> MmaTileOp::getKRange() {
  if (std::optional<ArrayRef<int64_t>> slice = getKSlice())
    return {(*slice)[0], (*slice)[0] + (*slice)[1]};
  return {0, getDepth()};
}

LogicalResult MmaTileOp::verify() {
  auto [aM, aK] = logicalDims(getA().getType(), getLayoutA());
  auto [bK, bN] = logicalDims(getB().getType(), getLayoutB());
  AccumulatorType acc = getAcc().getType();
  if (aK != bK)
    return emitOpError() << "A tiles are " << aK << " deep but B tiles are "
                         << bK << " deep";
  if (std::optional<ArrayRef<int64_t>> slice = getKSlice())
    if (failed(verifyKSlice(getOperation(), *slice, aK)))
      return failure();
  if (Value frags = getFrags()) {
    auto type = cast<FragsType>(frags.getType());
    auto [begin, end] = getKRange();
    if (type.getRows() != acc.getRows() || type.getCols() != acc.getCols() ||
        type.getElementType() != getA().getType().getElementType() ||
        type.getDepth() > end - begin)
      return emitOpError()
             << "cannot start a " << acc.getRows() << "x" << acc.getCols()
             << "x" << end - begin << " multiply of "
             << getA().getType().getElementType() << " with " << type;
  }
  if (acc.getRows() > aM || acc.getCols() > bN)
    return emitOpError() << "a " << acc.getRows() << "x" << acc.getCols()
                         << " accumulator does not fit the " << aM << "x"
                         << bN << " block tile";
  std::optional<ElemKind> a = getOperandKind(getA().getType().getElementType());
  std::optional<ElemKind> b = getOperandKind(getB().getType().getElementType());
  std::optional<ElemKind> c = getResultKind(acc.getElementType());
  if (!a || !b || !c || ::tgemm::lookupMmaAnyFamily(*a, *b, *c).empty())
    return emitOpError() << "no tensor-core instruction computes "
                         << getA().getType().getElementType() << " x "
                         << getB().getType().getElementType() << " -> "
                         << acc.getElementType();
  return success();
}

LogicalResult StoreTileOp::verify() {
  Type accElement = getAcc().getType().getElementType();
  Type dstElement = getDst().getType().getElementType();
  std::optional<ElemKind> acc = getResultKind(accElement);
  std::optional<ElemKind> dst = getResultKind(dstElement);
  if (!acc || !dst || !::tgemm::isLegalOutput(*acc, *dst))
    return emitOpError() << "cannot write a " << accElement
                         << " accumulator to " << dstElement;
  return success();
}
