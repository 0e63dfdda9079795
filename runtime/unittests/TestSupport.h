//===- TestSupport.h - A minimal unit-test harness ------------------------===//
//
// The GPU machine has no gtest, so the runtime's unit tests use this: TEST
// registers a function, EXPECT_* record failures and carry on, and
// EXPECT_ERROR checks that a statement throws the runtime's Error with the
// given kind and a message containing the given text.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_UNITTESTS_TESTSUPPORT_H
#define TGEMM_RUNTIME_UNITTESTS_TESTSUPPORT_H

#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/Problem.h"

#include <sstream>
#include <string>
#include <vector>

namespace tgemm::test {

struct TestCase {
  const char *name;
  void (*body)();
};

std::vector<TestCase> &registry();
void recordFailure(const char *file, int line, const std::string &message);

struct Registrar {
  Registrar(const char *name, void (*body)()) {
    registry().push_back({name, body});
  }
};

template <typename T> std::string show(const T &value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

/// The launch manifest of docs/manifest.md.
std::string exampleManifest();

/// The same kernel batched (dynamic batch, grid z over the batch) with
/// dynamic sizes, no requirements and strided arguments, as the compiler
/// writes one compiled from rank-3 strided views.
std::string batchedManifest();

/// The example kernel (version 4) with a fused epilogue of every operand
/// kind: scale(col) reads epilogue0 (f32[N]), bias(row) epilogue1
/// (f16[M]), residual epilogue2 (bf16, M x N), then gelu_tanh.
std::string epilogueManifest();
/// The kernel of epilogueManifest() with dynamic M, N and K.
runtime::KernelManifest dynamicEpilogueKernel();

/// A wgmma kernel (version 7) of s8 x s8 -> s32 with dynamic sizes, strided
/// arguments and tensor maps, whose B is stored row-major (N-major) and
/// read from a transposed copy: "transposes" lists B, transposed by
/// gemm_s8_kernel_transpose_b in 64 x 64 tiles by 256 threads.
std::string transposeManifest();
runtime::KernelManifest transposeKernel();

/// `text` with the first occurrence of `from` replaced by `to`; records a
/// failure if `from` is absent (a test that no longer mutates anything).
std::string replaceOnce(const std::string &text, const std::string &from,
                        const std::string &to, const char *file, int line);
#define REPLACE(text, from, to)                                                \
  ::tgemm::test::replaceOnce(text, from, to, __FILE__, __LINE__)

/// Writes `contents` to a fresh file under the temporary directory and
/// returns its path.
std::string writeTempFile(const std::string &name,
                          const std::string &contents);

/// A matrix of `batch` matrices of rows x cols, rows `ld` elements apart,
/// matrices rows * ld apart, starting `offset` elements into the buffer.
inline runtime::MatrixStorage storageOf(int64_t rows, int64_t cols,
                                        int64_t ld, int64_t offset = 0,
                                        int64_t batch = 1) {
  runtime::MatrixStorage s;
  s.batch = batch;
  s.rows = rows;
  s.cols = cols;
  s.ld = ld;
  s.batchStride = rows * ld;
  s.offset = offset;
  return s;
}

} // namespace tgemm::test

#define TEST(name)                                                             \
  static void name();                                                          \
  static ::tgemm::test::Registrar name##Registrar(#name, name);                \
  static void name()

#define EXPECT_TRUE(cond)                                                      \
  do {                                                                         \
    if (!(cond))                                                               \
      ::tgemm::test::recordFailure(__FILE__, __LINE__,                         \
                                   "expected true: " #cond);                  \
  } while (0)

/// Copies both values: `actual` may be a member of a temporary (e.g.
/// `parse(text).kernels[0].name`) that a reference would outlive.
#define EXPECT_EQ(actual, expected)                                            \
  do {                                                                         \
    const auto a_ = (actual);                                                  \
    const auto e_ = (expected);                                                \
    if (!(a_ == e_))                                                           \
      ::tgemm::test::recordFailure(__FILE__, __LINE__,                         \
                                   std::string(#actual " == " #expected        \
                                               ": got ") +                     \
                                       ::tgemm::test::show(a_) +               \
                                       ", expected " +                         \
                                       ::tgemm::test::show(e_));               \
  } while (0)

/// `stmt` must throw tgemm::runtime::Error of `errorKind` whose message
/// contains `substring`.
#define EXPECT_ERROR(stmt, errorKind, substring)                               \
  do {                                                                         \
    bool thrown_ = false;                                                      \
    try {                                                                      \
      stmt;                                                                    \
    } catch (const ::tgemm::runtime::Error &e_) {                              \
      thrown_ = true;                                                          \
      std::string what_ = e_.what();                                           \
      if (e_.kind() != (errorKind))                                            \
        ::tgemm::test::recordFailure(                                          \
            __FILE__, __LINE__,                                                \
            std::string("wrong error kind for: ") + what_);                   \
      if (what_.find(substring) == std::string::npos)                          \
        ::tgemm::test::recordFailure(__FILE__, __LINE__,                       \
                                     std::string("message '") + what_ +        \
                                         "' lacks '" + (substring) + "'");     \
    }                                                                          \
    if (!thrown_)                                                              \
      ::tgemm::test::recordFailure(__FILE__, __LINE__,                         \
                                   "no error from: " #stmt);                  \
  } while (0)

#endif // TGEMM_RUNTIME_UNITTESTS_TESTSUPPORT_H
