//===- Report.h - tgemm-run's output formats ------------------------------===//
//
// One run, as a table (a header line and one row), one CSV line (the header
// is printed separately, so runs can be appended to one file), or one JSON
// object. Times are medians in milliseconds; rates are 2*batch*M*N*K per
// second in units of 1e12 (TFLOP/s, or TOP/s for integer GEMMs); ratio is
// kernel rate over anchor rate; rel_error is the relative Frobenius error
// and max_error the largest element error over rms(reference) (exact
// difference for integers), the largest over the matrices of a batch.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_REPORT_H
#define TGEMM_RUNTIME_REPORT_H

#include "tgemm/runtime/GemmRunner.h"

#include <string>

namespace tgemm::runtime {

/// The CSV header line (no newline).
std::string csvHeader();
std::string formatCsv(const RunReport &report);
std::string formatJson(const RunReport &report);
/// Two lines: header and row.
std::string formatTable(const RunReport &report);

/// A JSON string literal for `text`.
std::string jsonQuote(const std::string &text);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_REPORT_H
