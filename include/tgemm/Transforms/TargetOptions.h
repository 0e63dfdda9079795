//===- TargetOptions.h - Chip options of tgemm passes -----------*- C++ -*-===//
//
// Passes that take a `chip` option read it the same way and report an
// unknown one with the same message.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TRANSFORMS_TARGETOPTIONS_H
#define TGEMM_TRANSFORMS_TARGETOPTIONS_H

#include "tgemm/Target/InstructionFacts.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tgemm {

/// The facts of chip `name`, or an error naming the known chips.
FailureOr<const ::tgemm::ChipInfo *> lookupChipOption(MLIRContext *context,
                                                      StringRef name);

} // namespace mlir::tgemm

#endif // TGEMM_TRANSFORMS_TARGETOPTIONS_H
