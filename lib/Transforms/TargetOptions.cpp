//===- TargetOptions.cpp - Chip options of tgemm passes -------------------===//

#include "tgemm/Transforms/TargetOptions.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

using namespace mlir;

FailureOr<const ::tgemm::ChipInfo *>
mlir::tgemm::lookupChipOption(MLIRContext *context, StringRef name) {
  if (const ::tgemm::ChipInfo *chip = ::tgemm::lookupChip(name))
    return chip;
  emitError(UnknownLoc::get(context))
      << "unknown chip '" << name
      << "'; known chips: " << ::tgemm::knownChipNames();
  return failure();
}
