//===- Error.cpp - Runtime errors and exit codes --------------------------===//

#include "tgemm/runtime/Error.h"

namespace tgemm::runtime {

int exitCodeFor(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::Usage:
    return 2;
  case ErrorKind::Mismatch:
    return 3;
  case ErrorKind::NoDevice:
    return 4;
  case ErrorKind::Input:
  case ErrorKind::Unsupported:
  case ErrorKind::OutOfMemory:
  case ErrorKind::Device:
    return 1;
  }
  return 1;
}

const char *errorKindName(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::Usage:
    return "usage";
  case ErrorKind::Input:
    return "bad input";
  case ErrorKind::Unsupported:
    return "unsupported";
  case ErrorKind::NoDevice:
    return "no device";
  case ErrorKind::OutOfMemory:
    return "out of device memory";
  case ErrorKind::Device:
    return "device error";
  case ErrorKind::Mismatch:
    return "wrong result";
  }
  return "error";
}

} // namespace tgemm::runtime
