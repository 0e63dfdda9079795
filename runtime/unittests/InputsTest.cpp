//===- InputsTest.cpp - Deterministic test data ---------------------------===//

#include "TestSupport.h"

#include "tgemm/runtime/CpuGemm.h"
#include "tgemm/runtime/Inputs.h"

#include <cmath>
#include <cstring>

using namespace tgemm::runtime;

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
