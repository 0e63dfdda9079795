//===- TGemmAttrs.cpp - tgemm attributes ----------------------------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"
#include "tgemm/runtime/Manifest.h"

using namespace mlir;
using namespace mlir::tgemm;

/// Warps per dimension are bounded by the threads a block may hold; checking
/// each dimension first keeps the product from overflowing.
static constexpr int64_t kMaxThreadsPerBlock = 1024;
static constexpr int64_t kMaxWarpsPerBlock = kMaxThreadsPerBlock / 32;
/// Larger than any tile that fits a chip's shared memory, and small enough
/// that products of tile sizes cannot overflow.
static constexpr int64_t kMaxTileSize = 1 << 16;
static constexpr int64_t kMaxStages = 8;
/// Parts of K: the manifest's limit, which the runtime reads.
static constexpr int64_t kMaxSplitK = ::tgemm::runtime::kMaxSplitK;

LogicalResult
ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<int64_t> block, ArrayRef<int64_t> warps,
                   int64_t stages, int64_t raster, int64_t splitK) {
  if (block.size() != 3)
    return emitError() << "block must list 3 sizes [M, N, K], got "
                       << block.size();
  if (warps.size() != 2)
    return emitError() << "warps must list 2 sizes [M, N], got "
                       << warps.size();
  static const char *const kDims = "MNK";
  for (auto [i, size] : llvm::enumerate(block)) {
    if (size <= 0 || size > kMaxTileSize)
      return emitError() << "block tile " << kDims[i] << " (" << size
                         << ") must be between 1 and " << kMaxTileSize;
  }
  for (auto [i, count] : llvm::enumerate(warps)) {
    if (count <= 0 || count > kMaxWarpsPerBlock)
      return emitError() << "warp grid " << kDims[i] << " (" << count
                         << ") must be between 1 and " << kMaxWarpsPerBlock;
  }
  if (stages < 1 || stages > kMaxStages)
    return emitError() << "stages (" << stages << ") must be between 1 and "
                       << kMaxStages;
  if (raster < 1 || raster > kMaxTileSize)
    return emitError() << "raster (" << raster << ") must be between 1 and "
                       << kMaxTileSize;
  if (splitK < 1 || splitK > kMaxSplitK)
    return emitError() << "split_k (" << splitK << ") must be between 1 and "
                       << kMaxSplitK;
  for (unsigned i = 0; i < 2; ++i) {
    if (block[i] % warps[i] != 0)
      return emitError() << "block tile " << kDims[i] << " (" << block[i]
                         << ") must be divisible by the warp grid "
                         << kDims[i] << " (" << warps[i] << ")";
  }
  int64_t threads = warps[0] * warps[1] * 32;
  if (threads > kMaxThreadsPerBlock)
    return emitError() << "warp grid " << warps[0] << "x" << warps[1]
                       << " makes " << threads
                       << " threads; a block holds at most "
                       << kMaxThreadsPerBlock;
  return success();
}

//===----------------------------------------------------------------------===//
// Target and schedule
//===----------------------------------------------------------------------===//

FailureOr<bool> mlir::tgemm::parseFlag(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (keyword == "true")
    return true;
  if (keyword == "false")
    return false;
  return parser.emitError(loc) << "expected 'true' or 'false', got '"
                               << keyword << "'";
}

FailureOr<::tgemm::Family> mlir::tgemm::parseFamilyField(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (std::optional<::tgemm::Family> family = ::tgemm::parseFamily(keyword);
      family && keyword != "mma.sync")
    return *family;
  return parser.emitError(loc) << ::tgemm::familyNameError(keyword);
}

FailureOr<::tgemm::Swizzle> mlir::tgemm::parseSwizzleField(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (std::optional<::tgemm::Swizzle> swizzle = ::tgemm::parseSwizzle(keyword))
    return *swizzle;
  return parser.emitError(loc) << ::tgemm::swizzleNameError(keyword);
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip, ::tgemm::Family) {
  if (std::string error = ::tgemm::chipNameError(chip); !error.empty())
    return emitError() << error;
  return success();
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   bool, bool, bool, bool, bool,
                                   ::tgemm::Swizzle, int64_t padding, bool,
                                   bool, bool, bool, int64_t cluster, bool,
                                   bool, bool) {
  if (::tgemm::Verdict v = ::tgemm::checkPadding(padding))
    return emitError() << v->message;
  if (::tgemm::Verdict v = ::tgemm::checkCluster(cluster))
    return emitError() << v->message;
  return success();
}

const ::tgemm::ChipInfo &TargetAttr::getChipInfo() const {
  return *::tgemm::lookupChip(getChip());
}

TargetAttr mlir::tgemm::lookupTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto target = op->getAttrOfType<TargetAttr>(TargetAttr::getAttrName()))
      return target;
  return {};
}

//===----------------------------------------------------------------------===//
// EpilogueStepAttr
//===----------------------------------------------------------------------===//

// The IR and the manifest number the steps alike.
static_assert(static_cast<int>(::tgemm::runtime::EpilogueOp::Bias) == 0 &&
              static_cast<int>(::tgemm::runtime::EpilogueOp::Silu) == 6);

/// `bias(col)`, `scale(scalar)`, `residual`, `gelu_tanh`, ...: the step's
/// name, then its broadcast in parentheses for bias and scale.
static ParseResult parseStepBody(AsmParser &parser,
                                 ::tgemm::runtime::EpilogueOp &op,
                                 ::tgemm::runtime::Broadcast &broadcast) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseKeywordOrString(&name))
    return failure();
  std::optional<::tgemm::runtime::EpilogueOp> parsed =
      ::tgemm::runtime::parseEpilogueOp(name);
  if (!parsed)
    return parser.emitError(loc)
           << "unknown epilogue step '" << name << "'; expected one of "
           << ::tgemm::runtime::allEpilogueOpNames();
  op = *parsed;
  broadcast = ::tgemm::runtime::Broadcast::Col;
  if (!::tgemm::runtime::takesBroadcast(op))
    return success();
  if (parser.parseOptionalLParen())
    return parser.emitError(loc) << "'" << name
                                 << "' takes a broadcast: " << name
                                 << "(row), " << name << "(col) or " << name
                                 << "(scalar)";
  SMLoc bloc = parser.getCurrentLocation();
  std::string how;
  if (parser.parseKeywordOrString(&how))
    return failure();
  std::optional<::tgemm::runtime::Broadcast> b =
      ::tgemm::runtime::parseBroadcast(how);
  if (!b)
    return parser.emitError(bloc) << "unknown broadcast '" << how
                                  << "'; expected row, col or scalar";
  broadcast = *b;
  return parser.parseRParen();
}

static void printStepBody(AsmPrinter &printer, EpilogueStepAttr step) {
  printer << ::tgemm::runtime::epilogueOpName(step.getOp());
  if (step.takesBroadcast())
    printer << "(" << ::tgemm::runtime::broadcastName(step.getBroadcast())
            << ")";
}

Attribute EpilogueStepAttr::parse(AsmParser &parser, Type) {
  ::tgemm::runtime::EpilogueOp op;
  ::tgemm::runtime::Broadcast broadcast;
  if (parser.parseLess() || parseStepBody(parser, op, broadcast) ||
      parser.parseGreater())
    return {};
  return EpilogueStepAttr::get(parser.getContext(), op, broadcast);
}

void EpilogueStepAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printStepBody(printer, *this);
  printer << ">";
}

ParseResult mlir::tgemm::parseEpilogueStep(AsmParser &parser,
                                           EpilogueStepAttr &step) {
  ::tgemm::runtime::EpilogueOp op;
  ::tgemm::runtime::Broadcast broadcast;
  if (parseStepBody(parser, op, broadcast))
    return failure();
  step = EpilogueStepAttr::get(parser.getContext(), op, broadcast);
  return success();
}

void mlir::tgemm::printEpilogueStep(AsmPrinter &printer,
                                    EpilogueStepAttr step) {
  printStepBody(printer, step);
}
