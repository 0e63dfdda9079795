//===- InputsTest.cpp - Deterministic test data ---------------------------===//

#include "TestSupport.h"

#include "tgemm/runtime/Codecs.h"
#include "tgemm/runtime/CpuGemm.h"
#include "tgemm/runtime/Inputs.h"

#include <cmath>
#include <cstring>

using namespace tgemm::runtime;
using tgemm::test::storageOf;

namespace {
const ElementType kAllTypes[] = {
    ElementType::F16, ElementType::BF16, ElementType::F32, ElementType::TF32,
    ElementType::S8,  ElementType::U8,   ElementType::S4,  ElementType::E4M3,
    ElementType::E5M2, ElementType::S32};
} // namespace

TEST(inputsAreDeterministic) {
  for (ElementType t : kAllTypes) {
    auto x = makeRandomMatrix(t, 100001, 42, DataStream::A);
    EXPECT_TRUE(x == makeRandomMatrix(t, 100001, 42, DataStream::A));
    EXPECT_TRUE(x != makeRandomMatrix(t, 100001, 43, DataStream::A));
    EXPECT_TRUE(x != makeRandomMatrix(t, 100001, 42, DataStream::B));
    // Element i does not depend on the size (nor on how threads split it).
    auto longer = makeRandomMatrix(t, 300007, 42, DataStream::A);
    EXPECT_TRUE(std::memcmp(x.data(), longer.data(), x.size() - 1) == 0);
  }
}

TEST(inputsRanges) {
  struct Range {
    ElementType type;
    double lo, hi;
  };
  const Range ranges[] = {
      {ElementType::F16, -1, 1},   {ElementType::BF16, -1, 1},
      {ElementType::TF32, -1, 1},  {ElementType::E4M3, -1, 1},
      {ElementType::E5M2, -1, 1},  {ElementType::S8, -16, 15},
      {ElementType::U8, 0, 31},    {ElementType::S4, -8, 7},
      {ElementType::S32, -64, 63}};
  for (const Range &r : ranges) {
    int64_t n = 65537;
    auto data = makeRandomMatrix(r.type, n, 7, DataStream::C);
    EXPECT_EQ(int64_t(data.size()), storageBytes(r.type, n));
    double lo = 1e9, hi = -1e9;
    int64_t zeros = 0;
    for (int64_t i = 0; i < n; ++i) {
      double v = loadElement(r.type, data.data(), i);
      EXPECT_TRUE(std::isfinite(v));
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      zeros += v == 0;
    }
    EXPECT_TRUE(lo >= r.lo && hi <= r.hi);
    // Spread over the range, and never all zeros.
    EXPECT_TRUE(hi - lo > 0.9 * (r.hi - r.lo));
    EXPECT_TRUE(zeros < n / 4);
  }
}

TEST(inputsTf32Exact) {
  auto data = makeRandomMatrix(ElementType::F32, 4096, 1, DataStream::A);
  for (size_t i = 0; i < data.size(); i += 4) {
    uint32_t bits;
    std::memcpy(&bits, &data[i], 4);
    EXPECT_EQ(bits & 0x1fffu, 0u);
  }
}

namespace {
MatrixStorage storage(int64_t batch, int64_t rows, int64_t cols, int64_t ld,
                      int64_t offset) {
  return storageOf(rows, cols, ld, offset, batch);
}
} // namespace

TEST(inputsRandomBytes) {
  auto x = makeRandomBytes(1001, 3, DataStream::PaddingA);
  EXPECT_EQ(x.size(), size_t(1001));
  EXPECT_TRUE(x == makeRandomBytes(1001, 3, DataStream::PaddingA));
  EXPECT_TRUE(x != makeRandomBytes(1001, 3, DataStream::PaddingB));
  int zeros = 0;
  for (uint8_t byte : x)
    zeros += byte == 0;
  EXPECT_TRUE(zeros < 40);
}

TEST(inputsScatterGather) {
  for (ElementType t : kAllTypes) {
    // 3 matrices of 5 x 7 (odd: s4 rows end mid-byte in the packed form),
    // rows padded to 10, 4 elements before the first.
    MatrixStorage s = storage(3, 5, 7, 10, 4);
    auto packed = makeRandomMatrix(t, s.packedElements(), 9, DataStream::A);
    size_t bytes = static_cast<size_t>(storageBytes(t, s.allocationElements()));
    auto fill = makeRandomBytes(bytes, 9, DataStream::PaddingA);
    auto allocation = scatterToStorage(t, s, packed.data(), fill);
    EXPECT_EQ(allocation.size(), bytes);
    // Element (b, r, c) is at offset + b*rows*ld + r*ld + c.
    for (int64_t b = 0; b < 3; ++b)
      for (int64_t r = 0; r < 5; ++r)
        for (int64_t c = 0; c < 7; ++c) {
          double want = loadElement(t, packed.data(), (b * 5 + r) * 7 + c);
          double got = loadElement(t, allocation.data(), s.index(b, r, c));
          EXPECT_TRUE(want == got || (std::isnan(want) && std::isnan(got)));
        }
    // Everything else is the fill.
    EXPECT_EQ(comparePadding(t, s, fill.data(), allocation.data()).changed,
              int64_t(0));
    EXPECT_TRUE(gatherFromStorage(t, s, allocation.data()) == packed);
  }
  // Packed storage is the packed matrices themselves.
  MatrixStorage p = storage(2, 4, 6, 6, 0);
  auto packed = makeRandomMatrix(ElementType::BF16, 48, 1, DataStream::C);
  EXPECT_TRUE(scatterToStorage(ElementType::BF16, p, packed.data(), {}) ==
              packed);
}

TEST(inputsPaddingChanges) {
  MatrixStorage s = storage(2, 3, 4, 6, 5);
  size_t bytes = static_cast<size_t>(
      storageBytes(ElementType::F32, s.allocationElements()));
  auto before = makeRandomBytes(bytes, 1, DataStream::PaddingC);
  auto after = before;
  // Changing matrix elements is not a padding change.
  after[4 * s.index(1, 2, 3)] ^= 1;
  EXPECT_EQ(comparePadding(ElementType::F32, s, before.data(), after.data())
                .changed,
            int64_t(0));
  // Column 4 of row 1 of matrix 1 lies in the padding; so does the offset.
  after[4 * s.index(1, 1, 4) + 2] ^= 0x10;
  after[4 * 2] ^= 1;
  PaddingChange change =
      comparePadding(ElementType::F32, s, before.data(), after.data());
  EXPECT_EQ(change.changed, int64_t(2));
  EXPECT_EQ(change.first, int64_t(2));
  EXPECT_EQ(describeStorageIndex(s, 2),
            std::string("element 2 of the 5 before the first element (the "
                        "offset)"));
  EXPECT_EQ(describeStorageIndex(s, s.index(1, 1, 4)),
            std::string("row 1, column 4 of matrix 1 (in the padding: rows "
                        "have 4 elements and the leading dimension is 6)"));
  // The last element of the allocation is padding too.
  auto last = before;
  last[bytes - 1] ^= 0x80;
  change = comparePadding(ElementType::F32, s, before.data(), last.data());
  EXPECT_EQ(change.first, s.allocationElements() - 1);
  // s4: nibbles.
  MatrixStorage s4 = storage(1, 2, 3, 4, 2);
  std::vector<uint8_t> x(5, 0), y(5, 0);
  codecs::setS4(y.data(), s4.index(0, 0, 3), 5); // padding nibble
  EXPECT_EQ(comparePadding(ElementType::S4, s4, x.data(), y.data()).first,
            s4.index(0, 0, 3));
  codecs::setS4(x.data(), s4.index(0, 0, 3), 5);
  codecs::setS4(y.data(), s4.index(0, 1, 2), 5); // a matrix element
  EXPECT_EQ(comparePadding(ElementType::S4, s4, x.data(), y.data()).changed,
            int64_t(0));
}

TEST(inputsEpilogueOperands) {
  struct Range {
    EpilogueOp op;
    double lo, hi;
  };
  // Bias and residual in [-1, 1]; scale in [0.5, 1.5], never zero.
  const Range ranges[] = {{EpilogueOp::Bias, -1, 1},
                          {EpilogueOp::Residual, -1, 1},
                          {EpilogueOp::Scale, 0.5, 1.5}};
  for (const Range &r : ranges) {
    for (ElementType type :
         {ElementType::F32, ElementType::F16, ElementType::BF16}) {
      int64_t n = 70001; // several threads' chunks
      auto data = makeEpilogueOperand(r.op, type, n, 7, 0);
      EXPECT_EQ(int64_t(data.size()), storageBytes(type, n));
      double lo = 1e9, hi = -1e9;
      for (int64_t i = 0; i < n; ++i) {
        double v = loadElement(type, data.data(), i);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      EXPECT_TRUE(lo >= r.lo && hi <= r.hi);
      EXPECT_TRUE(hi - lo > 0.9 * (r.hi - r.lo));
    }
  }
  // Reproducible from the seed; each operand (ordinal) its own stream,
  // apart from A, B and C's.
  auto first =
      makeEpilogueOperand(EpilogueOp::Bias, ElementType::F32, 64, 3, 0);
  EXPECT_TRUE(first == makeEpilogueOperand(EpilogueOp::Bias, ElementType::F32,
                                           64, 3, 0));
  EXPECT_TRUE(first != makeEpilogueOperand(EpilogueOp::Bias, ElementType::F32,
                                           64, 3, 1));
  EXPECT_TRUE(first != makeEpilogueOperand(EpilogueOp::Bias, ElementType::F32,
                                           64, 4, 0));
  EXPECT_TRUE(first !=
              makeRandomMatrix(ElementType::F32, 64, 3, DataStream::C));
}
