//===- Report.cpp - tgemm-run's output formats ----------------------------===//

#include "tgemm/runtime/Report.h"

#include "tgemm/runtime/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace tgemm::runtime {

namespace {

std::string format(const char *fmt, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), fmt, value);
  return buffer;
}

std::string checkStatus(const RunReport &r) {
  if (!r.checked)
    return "skipped";
  return r.comparison.passed ? "ok" : "FAIL";
}

/// Named fields of a report, in output order; empty values for what did
/// not happen.
std::vector<std::pair<std::string, std::string>>
fields(const RunReport &r) {
  std::string kernelMs, kernelRate, anchorMs, anchorRate, ratio;
  if (r.kernelTimed) {
    kernelMs = format("%.4f", r.kernelTime.medianMs);
    kernelRate = format("%.1f", r.kernelRate());
  }
  if (r.anchorTimed) {
    anchorMs = format("%.4f", r.anchorTime.medianMs);
    anchorRate = format("%.1f", r.anchorRate());
  }
  if (r.kernelTimed && r.anchorTimed)
    ratio = format("%.3f", r.ratio());
  std::string relError, maxError;
  if (r.checked) {
    relError = format("%.3e", r.comparison.relativeError);
    maxError = format("%.3e", r.comparison.maxError);
  }
  return {
      {"kernel", r.kernel},
      {"lowering", r.lowering},
      {"chip", r.chip},
      {"a", elementTypeName(r.gemm.a.type)},
      {"b", elementTypeName(r.gemm.b.type)},
      {"c", elementTypeName(r.gemm.c.type)},
      {"acc", elementTypeName(r.gemm.acc)},
      {"a_layout", layoutName(r.gemm.a.layout)},
      {"b_layout", layoutName(r.gemm.b.layout)},
      {"m", std::to_string(r.shape.m)},
      {"n", std::to_string(r.shape.n)},
      {"k", std::to_string(r.shape.k)},
      {"unit", r.rateUnit()},
      {"kernel_ms", kernelMs},
      {"kernel_rate", kernelRate},
      {"anchor", r.anchorTimed ? r.anchorName : ""},
      {"anchor_layout", r.anchorTimed ? r.anchorLayout : ""},
      {"anchor_ms", anchorMs},
      {"anchor_rate", anchorRate},
      {"ratio", ratio},
      {"check", checkStatus(r)},
      {"rel_error", relError},
      {"max_error", maxError},
      {"device", r.device},
      // Added after the first columns, so that scripts reading the older
      // header by position keep working.
      {"batch", r.shape.batched ? std::to_string(r.shape.batch) : ""},
      {"lda", std::to_string(r.storage[0].ld)},
      {"ldb", std::to_string(r.storage[1].ld)},
      {"ldc", std::to_string(r.storage[2].ld)},
      {"offset_a", std::to_string(r.storage[0].offset)},
      {"offset_b", std::to_string(r.storage[1].offset)},
      {"offset_c", std::to_string(r.storage[2].offset)},
      // The memory roofline (--copy): bytes of A, B and C, per kernel time
      // and per time of a copy moving as many.
      {"bytes", r.copyTimed ? std::to_string(r.bytes) : ""},
      {"kernel_gbs",
       r.copyTimed && r.kernelTimed ? format("%.1f", r.kernelBandwidth()) : ""},
      {"copy_ms", r.copyTimed ? format("%.4f", r.copyTime.medianMs) : ""},
      {"copy_gbs", r.copyTimed ? format("%.1f", r.copyBandwidth()) : ""},
      // The fused epilogue's steps, "scale(col),bias(col),gelu_tanh"
      // (empty: none), so that a benchmark's rows say what ran.
      {"epilogue", r.epilogue},
  };
}

/// Whether any operand has padded rows or an offset.
bool hasStridedStorage(const RunReport &r) {
  for (const MatrixStorage &s : r.storage)
    if (!s.isPacked())
      return true;
  return false;
}

std::string csvField(const std::string &value) {
  if (value.find_first_of(",\"\n") == std::string::npos)
    return value;
  std::string quoted = "\"";
  for (char c : value)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

} // namespace

std::string jsonQuote(const std::string &text) {
  return writeJson(JsonValue::makeString(text), 0);
}

std::string csvHeader() {
  std::string line;
  for (const auto &[name, value] : fields(RunReport()))
    line += (line.empty() ? "" : ",") + name;
  return line;
}

std::string formatCsv(const RunReport &report) {
  std::string line;
  bool first = true;
  for (const auto &[name, value] : fields(report)) {
    line += (first ? "" : ",") + csvField(value);
    first = false;
  }
  return line;
}

std::string formatJson(const RunReport &r) {
  static const char *numeric[] = {
      "m",        "n",        "k",           "kernel_ms", "kernel_rate",
      "anchor_ms", "anchor_rate", "ratio",   "rel_error", "max_error",
      "batch",    "lda",      "ldb",         "ldc",       "offset_a",
      "offset_b", "offset_c", "bytes",       "kernel_gbs", "copy_ms",
      "copy_gbs"};
  std::string out = "{";
  bool first = true;
  auto add = [&](const std::string &name, const std::string &json) {
    out += (first ? "" : ", ") + jsonQuote(name) + ": " + json;
    first = false;
  };
  for (const auto &[name, value] : fields(r)) {
    bool isNumber =
        std::find(std::begin(numeric), std::end(numeric), name) !=
        std::end(numeric);
    if (value.empty())
      add(name, "null");
    else if (isNumber && value != "inf" && value != "nan")
      add(name, value);
    else
      add(name, jsonQuote(value));
  }
  if (r.kernelTimed) {
    add("kernel_ms_min", format("%.4f", r.kernelTime.minMs));
    add("kernel_ms_max", format("%.4f", r.kernelTime.maxMs));
    add("reps", std::to_string(r.kernelTime.reps));
  }
  if (r.anchorTimed && !r.anchorNote.empty())
    add("anchor_note", jsonQuote(r.anchorNote));
  if (r.checked) {
    add("checked_against", jsonQuote(r.checkedAgainst));
    add("mismatches", std::to_string(r.comparison.mismatches));
    if (!r.comparison.passed)
      add("failure", jsonQuote(r.comparison.describeFailure()));
  }
  return out + "}";
}

std::string formatTable(const RunReport &r) {
  std::string shape = (r.shape.batched
                           ? std::to_string(r.shape.batch) + "x"
                           : std::string()) +
                      std::to_string(r.shape.m) + "x" +
                      std::to_string(r.shape.n) + "x" +
                      std::to_string(r.shape.k);
  std::string types = r.gemm.signature() + " " + layoutName(r.gemm.a.layout) +
                      "," + layoutName(r.gemm.b.layout);
  std::string unit = r.rateUnit();
  std::string check = checkStatus(r);
  if (r.checked)
    check += r.comparison.tolerance.exact
                 ? " (exact)"
                 : " (rel " + format("%.1e", r.comparison.relativeError) + ")";
  auto orDash = [](const std::string &s) { return s.empty() ? "-" : s; };
  std::vector<std::pair<std::string, std::string>> columns = {
      {"kernel", r.kernel.empty() ? "-" : r.kernel},
      {r.shape.batched ? "BxMxNxK" : "MxNxK", shape},
      {"types", types},
      {"epilogue", r.epilogue},
      {"ms",
       orDash(r.kernelTimed ? format("%.4f", r.kernelTime.medianMs) : "")},
      {unit, orDash(r.kernelTimed ? format("%.1f", r.kernelRate()) : "")},
      {"anchor",
       orDash(r.anchorTimed ? r.anchorName + " " + r.anchorLayout : "")},
      {"anchor ms",
       orDash(r.anchorTimed ? format("%.4f", r.anchorTime.medianMs) : "")},
      {"anchor " + unit,
       orDash(r.anchorTimed ? format("%.1f", r.anchorRate()) : "")},
      {"ratio",
       orDash(r.kernelTimed && r.anchorTimed ? format("%.2f", r.ratio()) : "")},
      {"check", check},
  };
  if (r.epilogue.empty())
    columns.erase(columns.begin() + 3); // only a kernel with steps has one
  if (r.copyTimed) {
    columns.insert(columns.end() - 1,
                   {"GB/s", orDash(r.kernelTimed
                                       ? format("%.0f", r.kernelBandwidth())
                                       : "")});
    columns.insert(columns.end() - 1,
                   {"copy GB/s", format("%.0f", r.copyBandwidth())});
  }
  if (hasStridedStorage(r)) {
    // Leading dimensions (and offsets, when any) of A, B, C.
    columns.insert(columns.begin() + 3,
                   {"lda,ldb,ldc", std::to_string(r.storage[0].ld) + "," +
                                       std::to_string(r.storage[1].ld) + "," +
                                       std::to_string(r.storage[2].ld)});
    if (r.storage[0].offset || r.storage[1].offset || r.storage[2].offset)
      columns.insert(columns.begin() + 4,
                     {"offsets",
                      std::to_string(r.storage[0].offset) + "," +
                          std::to_string(r.storage[1].offset) + "," +
                          std::to_string(r.storage[2].offset)});
  }
  std::string header, row;
  for (const auto &[name, value] : columns) {
    size_t width = std::max(name.size(), value.size());
    header += name + std::string(width - name.size() + 2, ' ');
    row += value + std::string(width - value.size() + 2, ' ');
  }
  while (!header.empty() && header.back() == ' ')
    header.pop_back();
  while (!row.empty() && row.back() == ' ')
    row.pop_back();
  return header + "\n" + row;
}

} // namespace tgemm::runtime
