//===- TargetOptions.h - Validated options of tgemm passes ------*- C++ -*-===//
//
// Option parsers that check a value when the option is parsed, so that a
// bad `--tgemm-pipeline="chip=sm90"` or `async-copy=maybe` is an `error:`
// naming the option before any pass runs:
//
//   error: option 'chip': unknown chip 'sm90'; known chips: sm_80, ...
//
// Used as the second template argument of a pass option,
// `PassOptions::Option<std::string, ChipOptionParser>`.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TRANSFORMS_TARGETOPTIONS_H
#define TGEMM_TRANSFORMS_TARGETOPTIONS_H

#include "tgemm/Target/Legality.h"

#include "llvm/Support/CommandLine.h"

namespace mlir::tgemm {

/// Reports a bad option value as `error: option 'NAME': MESSAGE`; returns
/// true, as llvm::cl parsers do on failure.
bool reportOptionError(llvm::StringRef option, const llvm::Twine &message);
using ::tgemm::chipNameError;
using ::tgemm::familyNameError;
using ::tgemm::swizzleNameError;

/// `true`/`false` (also 1/0), with an `error:` otherwise.
struct FlagOptionParser : public llvm::cl::parser<bool> {
  using llvm::cl::parser<bool>::parser;
  bool parse(llvm::cl::Option &, llvm::StringRef name, llvm::StringRef arg,
             bool &value);
};

/// A chip of the instruction-facts table, or empty (unset).
struct ChipOptionParser : public llvm::cl::parser<std::string> {
  using llvm::cl::parser<std::string>::parser;
  bool parse(llvm::cl::Option &, llvm::StringRef name, llvm::StringRef arg,
             std::string &value);
};

/// An instruction family (`wmma`, `ptx`), or empty (unset).
struct FamilyOptionParser : public llvm::cl::parser<std::string> {
  using llvm::cl::parser<std::string>::parser;
  bool parse(llvm::cl::Option &, llvm::StringRef name, llvm::StringRef arg,
             std::string &value);
};

/// A ring swizzle (`xor`, `pad`, `none`).
struct SwizzleOptionParser : public llvm::cl::parser<std::string> {
  using llvm::cl::parser<std::string>::parser;
  bool parse(llvm::cl::Option &, llvm::StringRef name, llvm::StringRef arg,
             std::string &value);
};

/// A non-negative integer no larger than `kMaxOptionValue`.
struct CountOptionParser : public llvm::cl::parser<int> {
  using llvm::cl::parser<int>::parser;
  bool parse(llvm::cl::Option &, llvm::StringRef name, llvm::StringRef arg,
             int &value);
};
constexpr int64_t kMaxOptionValue = 1 << 20;

} // namespace mlir::tgemm

#endif // TGEMM_TRANSFORMS_TARGETOPTIONS_H
