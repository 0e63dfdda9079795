//===- Error.h - Runtime errors and exit codes ----------------------------===//
//
// Every failure the runtime can report is an Error carrying a message that
// names the cause, and a kind that decides the exit code of tgemm-run and the
// status of the C API. Errors are thrown where they are detected and caught
// at the two entry points (tgemm-run's main, the C API), so that no input can
// end in a crash.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_ERROR_H
#define TGEMM_RUNTIME_ERROR_H

#include <stdexcept>
#include <string>

namespace tgemm::runtime {

enum class ErrorKind {
  Usage,       // bad command line
  Input,       // missing/corrupt PTX, cubin or manifest; kernel not found
  Unsupported, // manifest types or shape this runtime or device cannot run
  NoDevice,    // no driver, no device, cuInit failed
  OutOfMemory, // a device allocation failed
  Device,      // any other CUDA/cuBLAS failure, including launch errors
  Mismatch,    // the kernel's result differs from the reference
};

/// The process exit code for an error of this kind (documented in
/// docs/runtime.md): 1 input/unsupported/device, 2 usage, 3 wrong result,
/// 4 no device.
int exitCodeFor(ErrorKind kind);

/// A short lowercase name of the kind ("no device", "wrong result", ...).
const char *errorKindName(ErrorKind kind);

class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, const std::string &message)
      : std::runtime_error(message), errorKind(kind) {}
  ErrorKind kind() const { return errorKind; }

private:
  ErrorKind errorKind;
};

[[noreturn]] inline void fail(ErrorKind kind, const std::string &message) {
  throw Error(kind, message);
}

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_ERROR_H
