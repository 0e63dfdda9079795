//===- TargetOptions.cpp - Validated options of tgemm passes --------------===//

#include "tgemm/Transforms/TargetOptions.h"

#include "llvm/Support/WithColor.h"

using namespace mlir;
using llvm::StringRef;
using namespace mlir::tgemm;

bool mlir::tgemm::reportOptionError(StringRef option,
                                    const llvm::Twine &message) {
  llvm::WithColor::error() << "option '" << option << "': " << message
                           << "\n";
  return true;
}

bool FlagOptionParser::parse(llvm::cl::Option &, StringRef name,
                             StringRef arg, bool &value) {
  if (arg.empty() || arg == "true" || arg == "1") {
    value = true;
    return false;
  }
  if (arg == "false" || arg == "0") {
    value = false;
    return false;
  }
  return reportOptionError(name, "expected true or false, got '" + arg + "'");
}

bool ChipOptionParser::parse(llvm::cl::Option &, StringRef name,
                             StringRef arg, std::string &value) {
  if (std::string error = chipNameError(arg); !error.empty())
    return reportOptionError(name, error);
  value = arg.str();
  return false;
}

bool FamilyOptionParser::parse(llvm::cl::Option &, StringRef name,
                               StringRef arg, std::string &value) {
  if (std::string error = familyNameError(arg); !error.empty())
    return reportOptionError(name, error);
  value = arg.str();
  return false;
}

bool SwizzleOptionParser::parse(llvm::cl::Option &, StringRef name,
                                StringRef arg, std::string &value) {
  if (std::string error = swizzleNameError(arg); !error.empty())
    return reportOptionError(name, error);
  value = arg.str();
  return false;
}

bool CountOptionParser::parse(llvm::cl::Option &, StringRef name,
                              StringRef arg, int &value) {
  long long parsed;
  if (arg.getAsInteger(0, parsed) || parsed < 0 || parsed > kMaxOptionValue)
    return reportOptionError(name, "expected an integer between 0 and " +
                                       llvm::Twine(kMaxOptionValue) +
                                       ", got '" + arg + "'");
  value = parsed;
  return false;
}
