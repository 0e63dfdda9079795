//===- SelfTest.h - Checking the references themselves on a GPU -----------===//
//
// `tgemm-run --self-test`: for every precision tgemm compiles, every layout
// pair and two epilogues, computes small GEMMs with tgemm's reference kernel
// and with the library reference, and compares both with the CPU GEMM (exact
// for integers); does the same for batches of 3 (the strided-batched library
// calls); runs each anchor once; and checks that the comparison rejects a
// result with one wrong 16x16 tile.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_SELFTEST_H
#define TGEMM_RUNTIME_SELFTEST_H

#include "tgemm/runtime/Device.h"

#include <ostream>

namespace tgemm::runtime {

/// Prints one line per case and a summary; returns the number of failures.
int runSelfTest(const Device &device, std::ostream &out);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_SELFTEST_H
