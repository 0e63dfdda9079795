//===- TGemmOps.cpp - tgemm operations ------------------------------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
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

/// `epilogue(bias(col) %bias : memref<?xf32>, gelu_tanh)`, or nothing: the
/// steps in order, each that reads an operand followed by it and its type.
static ParseResult
parseEpilogue(OpAsmParser &parser, ArrayAttr &epilogue,
              SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
              SmallVectorImpl<Type> &types) {
  if (parser.parseOptionalKeyword("epilogue"))
    return success();
  SmallVector<Attribute> steps;
  auto parseStep = [&]() -> ParseResult {
    EpilogueStepAttr step;
    if (parseEpilogueStep(parser, step))
      return failure();
    steps.push_back(step);
    if (!step.takesOperand())
      return success();
    OpAsmParser::UnresolvedOperand operand;
    Type type;
    if (parser.parseOperand(operand) || parser.parseColonType(type))
      return failure();
    operands.push_back(operand);
    types.push_back(type);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseStep))
    return failure();
  if (steps.empty())
    return parser.emitError(parser.getCurrentLocation())
           << "an epilogue lists at least one step";
  epilogue = parser.getBuilder().getArrayAttr(steps);
  return success();
}

static void printEpilogue(OpAsmPrinter &printer, Operation *,
                          ArrayAttr epilogue, OperandRange operands,
                          TypeRange types) {
  if (!epilogue)
    return;
  printer << "epilogue(";
  unsigned next = 0;
  llvm::interleaveComma(epilogue, printer, [&](Attribute attr) {
    auto step = cast<EpilogueStepAttr>(attr);
    printEpilogueStep(printer, step);
    if (step.takesOperand() && next < operands.size()) {
      printer << " " << operands[next] << " : " << types[next];
      ++next;
    }
  });
  printer << ")";
}

#define GET_OP_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Epilogues
//===----------------------------------------------------------------------===//

std::vector<::tgemm::runtime::EpilogueStep>
mlir::tgemm::getEpilogueSteps(ArrayAttr steps, int firstArg) {
  std::vector<::tgemm::runtime::EpilogueStep> out;
  if (!steps)
    return out;
  int arg = firstArg;
  for (Attribute attr : steps) {
    auto step = cast<EpilogueStepAttr>(attr);
    out.push_back(step.getValue(step.takesOperand() ? arg++ : -1));
  }
  return out;
}

LogicalResult mlir::tgemm::verifyEpilogue(Operation *op, ArrayAttr steps,
                                          ValueRange operands, ShapedType c,
                                          bool packed) {
  size_t reads = 0;
  if (steps)
    for (Attribute attr : steps)
      reads += cast<EpilogueStepAttr>(attr).takesOperand();
  if (reads != operands.size())
    return op->emitOpError()
           << "has " << operands.size() << " epilogue operand(s), but "
           << (steps ? "its epilogue's steps read " + std::to_string(reads)
                     : std::string("no epilogue to read them"));
  if (!steps)
    return success();
  int64_t rank = c.getRank();
  // C's rows and columns (after any batch dimension).
  int64_t rows = c.getDimSize(rank - 2), cols = c.getDimSize(rank - 1);
  unsigned next = 0;
  for (auto [index, attr] : llvm::enumerate(steps)) {
    auto step = cast<EpilogueStepAttr>(attr);
    if (!step.takesOperand())
      continue;
    Value operand = operands[next++];
    auto type = cast<ShapedType>(operand.getType());
    std::string what = (llvm::Twine("epilogue step ") + Twine(index) + " (" +
                        ::tgemm::runtime::epilogueOpName(step.getOp()) + ")")
                           .str();
    Type element = type.getElementType();
    if (!element.isF32() && !element.isF16() && !element.isBF16())
      return op->emitOpError() << what << " reads " << element
                               << "; epilogue operands are f32, f16 or bf16";
    if (isa<TensorType>(c) != isa<TensorType>(type))
      return op->emitOpError()
             << what << " reads " << type << "; on "
             << (isa<TensorType>(c) ? "tensors" : "memrefs")
             << " every operand is one";
    if (auto memref = dyn_cast<MemRefType>(type)) {
      SmallVector<int64_t> strides;
      int64_t offset;
      if (packed ? !memref.getLayout().isIdentity()
                 : failed(memref.getStridesAndOffset(strides, offset)) ||
                       strides.back() != 1)
        return op->emitOpError() << what << " reads " << type
                                 << (packed ? "; epilogue operands are packed "
                                              "(an identity layout)"
                                            : "; epilogue operands have unit "
                                              "stride within a row");
      if (Attribute space = memref.getMemorySpace())
        return op->emitOpError()
               << what << " reads memory space " << space
               << "; epilogue operands are in global memory";
    }
    if (step.takesBroadcast()) {
      if (type.getRank() != 1)
        return op->emitOpError() << what << " reads " << type
                                 << "; a bias or scale is a vector (rank 1)";
      int64_t want = step.getBroadcast() == ::tgemm::runtime::Broadcast::Row
                         ? rows
                     : step.getBroadcast() == ::tgemm::runtime::Broadcast::Col
                         ? cols
                         : 1;
      int64_t have = type.getDimSize(0);
      if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
          want != have)
        return op->emitOpError()
               << what << " reads " << have << " element(s); a "
               << ::tgemm::runtime::broadcastName(step.getBroadcast())
               << " broadcast needs " << want
               << (step.getBroadcast() == ::tgemm::runtime::Broadcast::Row
                       ? " (C's rows)"
                   : step.getBroadcast() == ::tgemm::runtime::Broadcast::Col
                       ? " (C's columns)"
                       : "");
      continue;
    }
    // A residual: C's rank and shape.
    if (type.getRank() != rank)
      return op->emitOpError() << what << " reads " << type
                               << "; a residual has C's rank (" << rank
                               << ")";
    for (int64_t d = 0; d < rank; ++d) {
      int64_t want = c.getDimSize(d), have = type.getDimSize(d);
      if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
          want != have)
        return op->emitOpError() << what << " reads " << type
                                 << ", whose dimension " << d << " (" << have
                                 << ") does not match C's (" << want << ")";
    }
  }
  return success();
}

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

Type MatmulOp::getOperandElementType(bool isA) {
  Type element = (isA ? getA() : getB()).getType().getElementType();
  if (getUnsignedOperands() && element.isSignlessInteger(8))
    return IntegerType::get(getContext(), 8, IntegerType::Unsigned);
  return element;
}

MatmulKinds mlir::tgemm::getMatmulKinds(MatmulOp op) {
  return {*getOperandKind(op.getOperandElementType(/*isA=*/true)),
          *getOperandKind(op.getOperandElementType(/*isA=*/false)),
          *getResultKind(op.getAcc()),
          *getResultKind(op.getC().getType().getElementType())};
}

static int64_t toProblemSize(int64_t size) {
  return ShapedType::isDynamic(size) ? ::tgemm::kDynamicSize : size;
}

::tgemm::Problem mlir::tgemm::getProblem(MatmulOp op) {
  MatmulKinds kinds = getMatmulKinds(op);
  ::tgemm::Problem p{kinds.a, kinds.b, kinds.acc, kinds.c};
  p.rowA = op.getLayoutA() == Layout::Row;
  p.rowB = op.getLayoutB() == Layout::Row;
  p.batch = toProblemSize(op.getStaticBatch());
  p.m = toProblemSize(op.getStaticM());
  p.n = toProblemSize(op.getStaticN());
  p.k = toProblemSize(op.getStaticK());
  // A static row stride: a packed operand's stored cols, or its layout's.
  auto leadingDimension = [](Value operand) -> int64_t {
    auto type = cast<MemRefType>(operand.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (type.getRank() < 2 || failed(type.getStridesAndOffset(strides, offset)))
      return ::tgemm::kDynamicSize;
    return toProblemSize(strides[strides.size() - 2]);
  };
  if (isa<MemRefType>(op.getA().getType()))
    p.ldA = leadingDimension(op.getA());
  if (isa<MemRefType>(op.getB().getType()))
    p.ldB = leadingDimension(op.getB());
  p.alpha = op.getAlphaValue();
  p.beta = op.getBetaValue();
  p.epilogue = getEpilogueSteps(op.getEpilogueAttr());
  for (Value operand : op.getEpilogueOperands())
    if (std::optional<ElemKind> kind = getResultKind(
            cast<ShapedType>(operand.getType()).getElementType()))
      p.epilogueTypes.push_back(*kind);
  return p;
}

::tgemm::TileConfig mlir::tgemm::getTileConfig(ConfigAttr c) {
  return {{c.getBlockM(), c.getBlockN(), c.getBlockK()},
          {c.getWarpsM(), c.getWarpsN()},
          c.getStages(),
          c.getRaster(),
          c.getSplitK()};
}

LogicalResult mlir::tgemm::emitMissingTarget(Operation *op) {
  return op->emitOpError() << "has no target: set the module's tgemm.target "
                              "(--tgemm-attach-target, as --tgemm-pipeline "
                              "does)";
}

LogicalResult mlir::tgemm::emitTensorForm(Operation *op) {
  return op->emitOpError()
         << "works on tensors; bufferize it first "
            "(--one-shot-bufferize=\"bufferize-function-boundaries\", "
            "which --tgemm-pipeline runs unless bufferize=false)";
}

LogicalResult mlir::tgemm::emitViolation(Operation *op,
                                         const ::tgemm::Violation &v) {
  return op->emitOpError() << v.message;
}

::tgemm::Verdict mlir::tgemm::checkForTarget(MatmulOp op,
                                            const ::tgemm::Target &target) {
  std::optional<::tgemm::TileConfig> config;
  if (ConfigAttr attr = op.getConfigAttr())
    config = getTileConfig(attr);
  ::tgemm::Schedule schedule =
      op.getScheduleAttr() ? op.getScheduleAttr().getValue()
      : config             ? ::tgemm::defaultSchedule(target.family, *config)
                           : ::tgemm::Schedule();
  return ::tgemm::checkForTarget(getProblem(op), config ? &*config : nullptr,
                                 schedule, target);
}

LogicalResult mlir::tgemm::verifyForTarget(MatmulOp op,
                                           const ::tgemm::Target &target) {
  if (::tgemm::Verdict v = checkForTarget(op, target))
    return emitViolation(op, *v);
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

/// Size of matrix dimension `dim` (0: rows, 1: columns) of `type`, after any
/// batch dimension.
static int64_t matrixDimSize(ShapedType type, unsigned dim) {
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

/// Static strides of a row-contiguous view must describe rows that do not
/// overlap: each row at least a row apart, each matrix of a batch at least
/// a matrix apart, and for 4-bit elements every row on a byte boundary.
static LogicalResult verifyStaticStrides(MatmulOp op, StringRef name,
                                         MemRefType type,
                                         ArrayRef<int64_t> strides,
                                         int64_t offset) {
  int64_t rank = type.getRank();
  int64_t cols = type.getDimSize(rank - 1), rows = type.getDimSize(rank - 2);
  int64_t rowStride = strides[rank - 2];
  auto layout = [&] { return type.getLayout(); };
  if (!ShapedType::isDynamic(rowStride)) {
    if (rowStride <= 0 || (!ShapedType::isDynamic(cols) && rowStride < cols))
      return op.emitOpError()
             << name << "'s row stride (" << rowStride
             << ") must be at least its row length ("
             << (ShapedType::isDynamic(cols) ? std::string("1")
                                             : std::to_string(cols))
             << "): rows would overlap, in " << layout();
    if (type.getElementTypeBitWidth() < 8 && rowStride % 2 != 0)
      return op.emitOpError()
             << name << "'s row stride (" << rowStride
             << ") must be even: rows of 4-bit elements start on bytes, in "
             << layout();
  }
  if (type.getElementTypeBitWidth() < 8 &&
      !ShapedType::isDynamic(offset) && offset % 2 != 0)
    return op.emitOpError() << name << "'s offset (" << offset
                            << ") must be even: rows of 4-bit elements start "
                               "on bytes, in "
                            << layout();
  if (rank == 3 && !ShapedType::isDynamic(strides[0])) {
    int64_t matrix = ShapedType::isDynamic(rowStride) ||
                             ShapedType::isDynamic(rows)
                         ? 1
                         : rowStride * rows;
    if (strides[0] <= 0 || strides[0] < matrix)
      return op.emitOpError()
             << name << "'s batch stride (" << strides[0]
             << ") must be at least one matrix (" << matrix
             << " elements): matrices of the batch would overlap, in "
             << layout();
  }
  return success();
}

LogicalResult MatmulOp::verify() {
  ShapedType aType = getA().getType(), bType = getB().getType(),
             cType = getC().getType();
  // One form: buffers (the kernel's) or values (bufferized first); on
  // values DestinationStyleOpInterface has checked the result (C's type).
  bool tensors = isa<TensorType>(cType);
  for (auto [name, type] : {std::pair<StringRef, ShapedType>{"A", aType},
                            {"B", bType}})
    if (isa<TensorType>(type) != tensors)
      return emitOpError() << name << " is a " << (tensors ? "memref" : "tensor")
                           << " but C is a " << (tensors ? "tensor" : "memref")
                           << "; A, B and C are all tensors or all memrefs";
  for (auto [name, shaped] : {std::pair<StringRef, ShapedType>{"A", aType},
                              {"B", bType},
                              {"C", cType}}) {
    auto type = dyn_cast<MemRefType>(shaped);
    if (!type)
      continue;
    // Views into larger buffers are fine (any row stride and offset, the
    // kernel reads them from the descriptor); elements of a row must be
    // adjacent: a static innermost stride of 1, or a dynamic one, which
    // the host checks before the launch (a fully dynamic view,
    // strided<[?, ?], offset: ?>, is what one-shot-bufferize gives).
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        (strides.back() != 1 && !ShapedType::isDynamic(strides.back())))
      return emitOpError() << name
                           << " must have unit stride within a row (a "
                              "strided view with innermost stride 1), got "
                           << type.getLayout();
    if (!type.getLayout().isIdentity() &&
        failed(verifyStaticStrides(*this, name, type, strides, offset)))
      return failure();
    // The kernel reads and writes its operands in global memory; a pointer
    // into another space would be reinterpreted, not converted.
    if (Attribute space = type.getMemorySpace())
      return emitOpError() << name
                           << " must be in global memory (the default memory "
                              "space), got memory space "
                           << space;
  }

  // `unsigned` reinterprets signless bytes; any other type says its own
  // signedness (or has none).
  if (getUnsignedOperands())
    for (auto [name, type] : {std::pair<StringRef, ShapedType>{"A", aType},
                              {"B", bType}})
      if (!type.getElementType().isSignlessInteger(8))
        return emitOpError()
               << "'unsigned' reads signless i8 operands as unsigned bytes, "
                  "but "
               << name << " has element type " << type.getElementType();

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

  if (failed(verifyEpilogue(*this, getEpilogueAttr(), getEpilogueOperands(),
                            cType, /*packed=*/true)))
    return failure();

  // Everything else is the legality module's chip-free part: types, the
  // epilogue, sizes, and the tile (for every family that computes the
  // precision, so the same op lowers through either and the comparison
  // stays fair).
  ::tgemm::Problem problem = getProblem(*this);
  if (::tgemm::Verdict v = ::tgemm::checkProblem(problem))
    return emitViolation(*this, *v);
  if (ConfigAttr config = getConfigAttr())
    if (::tgemm::Verdict v =
            ::tgemm::checkConfig(problem, getTileConfig(config)))
      return emitViolation(*this, *v);
  return success();
}

void MatmulOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Buffers only: on tensors the op is a value (dead when its result is
  // unused). C is read only when beta is not 0.
  auto read = [&](OpOperand &operand) {
    if (isa<MemRefType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  };
  read(getAMutable());
  read(getBMutable());
  for (OpOperand &operand : getEpilogueOperandsMutable())
    read(operand);
  OpOperand &c = getCMutable();
  if (isa<MemRefType>(c.get().getType())) {
    if (getBetaValue() != 0.0)
      effects.emplace_back(MemoryEffects::Read::get(), &c,
                           SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(), &c,
                         SideEffects::DefaultResource::get());
  }
}

//===----------------------------------------------------------------------===//
// Kernel-level tile ops
//===----------------------------------------------------------------------===//

/// `threads` is [first, count]: a non-empty range of whole warps.
static LogicalResult verifyThreadRange(Operation *op,
                                       std::optional<ArrayRef<int64_t>> range) {
  if (!range)
    return success();
  if (range->size() != 2 || (*range)[0] < 0 || (*range)[1] <= 0 ||
      (*range)[0] % 32 || (*range)[1] % 32 || (*range)[0] > 1024 ||
      (*range)[1] > 1024 - (*range)[0])
    return op->emitOpError()
           << "threads takes [first, count]: whole warps of a block of at "
              "most 1024 threads";
  return success();
}

LogicalResult CopyTileOp::verify() {
  Type srcElement = getSrc().getType().getElementType();
  if (srcElement != getDst().getType().getElementType())
    return emitOpError() << "copies " << srcElement << " into a ring of "
                         << getDst().getType().getElementType();
  if (getTranspose()) {
    int64_t bits = srcElement.getIntOrFloatBitWidth();
    SmemType ring = getDst().getType();
    if (bits != 8 && bits != 32)
      return emitOpError() << "transposes 8-bit and 32-bit elements only, got "
                           << srcElement;
    if (getAsync())
      return emitOpError() << "with transpose is synchronous: the elements "
                              "are regrouped in registers between the loads "
                              "and the stores";
    // A thread moves 4 source rows of 16 bytes: 4 ring columns (k) of
    // 16 / bytes ring rows.
    int64_t rowsPerUnit = 128 / bits;
    if (ring.getCols() % 4 || ring.getRows() % rowsPerUnit)
      return emitOpError() << "with transpose moves blocks of 4 source rows "
                              "and 16 bytes: the ring's tile ("
                           << ring.getRows() << "x" << ring.getCols()
                           << ") needs columns a multiple of 4 and rows a "
                              "multiple of "
                           << rowsPerUnit;
  }
  return verifyThreadRange(*this, getThreads());
}

LogicalResult ReduceSplitsOp::verify() {
  auto parts = getParts().getType();
  if (ShapedType::isDynamic(parts.getDimSize(0)) || parts.getDimSize(0) < 2)
    return emitOpError() << "needs a static number of parts (at least 2) in "
                            "dimension 0 of "
                         << parts;
  std::optional<ElemKind> acc = getResultKind(parts.getElementType());
  std::optional<ElemKind> dst = getResultKind(getDst().getType().getElementType());
  if (!acc || !dst || !::tgemm::isLegalOutput(*acc, *dst))
    return emitOpError() << "cannot write " << parts.getElementType()
                         << " parts to " << getDst().getType().getElementType();
  if (failed(verifyEpilogue(*this, getEpilogueAttr(), getEpilogueOperands(),
                            getDst().getType(), /*packed=*/false)))
    return failure();
  ArrayRef<int64_t> shape = getShape();
  if (shape.size() != 2 || shape[0] <= 0 || shape[1] <= 0)
    return emitOpError() << "tile takes [rows, cols], both positive";
  return verifyThreadRange(*this, getThreads());
}

LogicalResult TensorMapOp::verify() {
  auto type = cast<MemRefType>(getSource().getType());
  if (type.getRank() != 2 && type.getRank() != 3)
    return emitOpError() << "describes a matrix or a batch of them (rank 2 "
                            "or 3), got rank "
                         << type.getRank();
  ArrayRef<int64_t> box = getBox();
  if (box.size() != 2 || box[0] < 1 || box[0] > 256 || box[1] < 1 ||
      box[1] > 256)
    return emitOpError() << "box takes [rows, cols], each from 1 to 256 "
                            "(the copy engine's limit)";
  int64_t swizzle = getSwizzle();
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitOpError() << "swizzle is 0, 32, 64 or 128 bytes, got "
                         << swizzle;
  int64_t rowBits = box[1] * type.getElementTypeBitWidth();
  if (rowBits % 128 || (swizzle && rowBits > swizzle * 8))
    return emitOpError() << "a box row of " << rowBits / 8.0
                         << " bytes must be a multiple of 16 bytes"
                         << (swizzle ? " and at most the swizzle's " +
                                           std::to_string(swizzle)
                                     : std::string());
  return success();
}

/// What a copy of an operand in the launch's workspace
/// (tgemm.transposed_copy, tgemm.aligned_copy) must have: the source's rank
/// and element type, and strides and offset the runtime gives.
static LogicalResult verifyWorkspaceCopy(Operation *op, MemRefType source,
                                         MemRefType result) {
  if (source.getRank() != result.getRank())
    return op->emitOpError()
           << "the copy has the source's rank (" << source.getRank()
           << "), got " << result.getRank();
  if (source.getElementType() != result.getElementType())
    return op->emitOpError()
           << "the copy has the source's element type ("
           << source.getElementType() << "), got " << result.getElementType();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(result.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 ||
      llvm::any_of(ArrayRef<int64_t>(strides).drop_back(),
                   [](int64_t s) { return !ShapedType::isDynamic(s); }) ||
      !ShapedType::isDynamic(offset))
    return op->emitOpError()
           << "the copy's strides and offset are the runtime's: "
              "expected strided<[?, ..., 1], offset: ?>, got "
           << result;
  return success();
}

LogicalResult TransposedCopyOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto result = cast<MemRefType>(getResult().getType());
  if (failed(verifyWorkspaceCopy(*this, source, result)))
    return failure();
  int64_t bits = source.getElementTypeBitWidth();
  if (bits != 8 && bits != 32)
    return emitOpError() << "transposes 8-bit and 32-bit elements, got "
                         << source.getElementType();
  SmallVector<int64_t> expected(source.getShape());
  std::swap(expected[expected.size() - 2], expected.back());
  auto shapeText = [](ArrayRef<int64_t> shape) {
    std::string text;
    for (auto [i, d] : llvm::enumerate(shape))
      text += (i ? "x" : "") +
              (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d));
    return text;
  };
  if (failed(verifyCompatibleShape(expected, result.getShape())))
    return emitOpError() << "the copy's rows are the source's columns: "
                            "expected shape "
                         << shapeText(expected) << ", got "
                         << shapeText(result.getShape());
  return success();
}

LogicalResult AlignedCopyOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto result = cast<MemRefType>(getResult().getType());
  if (failed(verifyWorkspaceCopy(*this, source, result)))
    return failure();
  if (source.getElementTypeBitWidth() < 8)
    return emitOpError() << "copies whole bytes: elements of 8 bits or more, "
                            "got "
                         << source.getElementType();
  if (failed(verifyCompatibleShape(source.getShape(), result.getShape())))
    return emitOpError() << "the copy has the source's shape";
  return success();
}

int64_t BulkCopyTileOp::getTileBytes() {
  SmemType ring = getDst().getType();
  return ring.getRows() * ring.getCols() *
         ring.getElementType().getIntOrFloatBitWidth() / 8;
}

LogicalResult BulkCopyTileOp::verify() {
  if (getBarriers().getType().getCount() != getDst().getType().getStages())
    return emitOpError() << "completes on a ring of "
                         << getBarriers().getType().getCount()
                         << " barriers, but the tile ring has "
                         << getDst().getType().getStages() << " stages";
  if (std::optional<int64_t> parts = getMulticast()) {
    SmemType ring = getDst().getType();
    if (*parts > ::tgemm::kMaxCluster)
      return emitOpError() << "multicasts to " << *parts
                           << " blocks; a cluster has at most "
                           << ::tgemm::kMaxCluster;
    int64_t rowBytes =
        ring.getCols() * ring.getElementType().getIntOrFloatBitWidth() / 8;
    if (!::tgemm::multicastSplit(
            ring.getRows(), rowBytes,
            ::tgemm::ringPanelBytes(::tgemm::Family::Wgmma), *parts))
      return emitOpError() << "cannot cut a " << ring.getRows() << "x"
                           << ring.getCols() << " tile into " << *parts
                           << " parts of whole 128-byte panels or bands of "
                              "a multiple of 8 rows";
  }
  return success();
}

LogicalResult ArriveBarrierOp::verify() {
  if (getCta() && getExpectBytes())
    return emitOpError() << "announces bytes only on its own block's "
                            "barrier: expect_bytes and cta exclude each "
                            "other";
  return success();
}

LogicalResult TransposeTileOp::verify() {
  SmemType src = getSrc().getType(), dst = getDst().getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "copies " << src.getElementType()
                         << " into a ring of " << dst.getElementType();
  if (src.getElementType().getIntOrFloatBitWidth() != 8)
    return emitOpError() << "transposes 8-bit elements only, got "
                         << src.getElementType();
  if (src.getRows() != dst.getCols() || src.getCols() != dst.getRows())
    return emitOpError() << "transposes a " << src.getRows() << "x"
                         << src.getCols() << " tile into a " << dst.getRows()
                         << "x" << dst.getCols()
                         << " one; the destination must be "
                         << src.getCols() << "x" << src.getRows();
  // A thread moves blocks of 4 source rows x 16 bytes; a warp's 32 take
  // consecutive ones along a destination row.
  if (src.getRows() % 128 || src.getCols() % 16)
    return emitOpError() << "moves blocks of 4 x 16 bytes, 32 along each "
                            "destination row: the source tile ("
                         << src.getRows() << "x" << src.getCols()
                         << ") needs rows a multiple of 128 and columns a "
                            "multiple of 16";
  return verifyThreadRange(*this, getThreads());
}

LogicalResult SetMaxRegistersOp::verify() {
  int64_t count = getCount();
  if (count < 24 || count > 256 || count % 8)
    return emitOpError() << "sets 24 to 256 registers, a multiple of 8, got "
                         << count;
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
  if (offset < 0 || size <= 0 || offset > depth || size > depth - offset)
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
  // The fragments are named by A's type; B's may differ in format, not in
  // width (mixed fp8: the registers per fragment are the same).
  Type element = getA().getType().getElementType();
  Type bElement = getB().getType().getElementType();
  if (element != type.getElementType() ||
      element.getIntOrFloatBitWidth() != bElement.getIntOrFloatBitWidth())
    return emitOpError() << "loads " << type << " from rings of " << element
                         << " and " << bElement
                         << ": the fragments take A's type, and B's must be "
                            "as wide";
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
  if (failed(verifyEpilogue(*this, getEpilogueAttr(), getEpilogueOperands(),
                            getDst().getType(), /*packed=*/false)))
    return failure();
  if (bool(getMap()) != bool(getMatrix()))
    return emitOpError() << "takes a tensor map and the matrix it stores "
                            "(via %map[%matrix]), or neither";
  if (getMap()) {
    int64_t bits = getDst().getType().getElementTypeBitWidth();
    int64_t cols = getAcc().getType().getCols();
    if (bits < 8 || cols * bits % (::tgemm::kStoreBoxBytes * 8) != 0)
      return emitOpError()
             << "stores through a tensor map in " << ::tgemm::kStoreBoxBytes
             << "-byte lines of C, but a row of its tile is " << cols
             << " elements of " << dstElement << " (" << cols * bits
             << " bits)";
    int64_t rows = getAcc().getType().getRows();
    if (rows % ::tgemm::kStoreBoxRows != 0)
      return emitOpError()
             << "stores through a tensor map in boxes of "
             << ::tgemm::kStoreBoxRows << " rows, but its tile has " << rows;
  }
  return verifyThreadRange(*this, getThreads());
}
