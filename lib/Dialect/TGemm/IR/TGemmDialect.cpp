//===- TGemmDialect.cpp - tgemm dialect -----------------------------------===//

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tgemm;

#include "tgemm/Dialect/TGemm/IR/TGemmDialect.cpp.inc"
#include "tgemm/Dialect/TGemm/IR/TGemmEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tgemm/Dialect/TGemm/IR/TGemmTypes.cpp.inc"

void TGemmDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tgemm/Dialect/TGemm/IR/TGemmAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tgemm/Dialect/TGemm/IR/TGemmTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tgemm/Dialect/TGemm/IR/TGemmOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #tgemm.config: `block`, `warps`, `stages`, then the optional fields in
// any order
//===----------------------------------------------------------------------===//

Attribute ConfigAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  auto list = [&](StringRef key, SmallVectorImpl<int64_t> &out) {
    if (parser.parseKeyword(key) || parser.parseEqual() ||
        parser.parseLSquare())
      return failure();
    if (parser.parseCommaSeparatedList([&] {
          return parser.parseInteger(out.emplace_back());
        }))
      return failure();
    return LogicalResult(parser.parseRSquare());
  };
  SmallVector<int64_t> block, warps;
  int64_t stages = 0, raster = 1, splitK = 1;
  if (parser.parseLess() || failed(list("block", block)) ||
      parser.parseComma() || failed(list("warps", warps)) ||
      parser.parseComma() || parser.parseKeyword("stages") ||
      parser.parseEqual() || parser.parseInteger(stages))
    return {};
  bool seenRaster = false, seenSplit = false;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return {};
    bool *seen = key == "raster"    ? &seenRaster
                 : key == "split_k" ? &seenSplit
                                    : nullptr;
    if (!seen) {
      parser.emitError(keyLoc) << "unknown config field '" << key
                               << "' (expected raster or split_k)";
      return {};
    }
    if (*seen) {
      parser.emitError(keyLoc) << "config field '" << key << "' given twice";
      return {};
    }
    *seen = true;
    if (parser.parseEqual() ||
        parser.parseInteger(key == "raster" ? raster : splitK))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<ConfigAttr>(loc, parser.getContext(), block, warps,
                                       stages, raster, splitK);
}

void ConfigAttr::print(AsmPrinter &printer) const {
  printer << "<block = [";
  llvm::interleaveComma(getBlock(), printer);
  printer << "], warps = [";
  llvm::interleaveComma(getWarps(), printer);
  printer << "], stages = " << getStages();
  if (getRaster() != 1)
    printer << ", raster = " << getRaster();
  if (getSplitK() != 1)
    printer << ", split_k = " << getSplitK();
  printer << ">";
}
