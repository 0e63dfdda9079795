//===- CompareTest.cpp - Tolerances: correct results pass, wrong ones fail -===//
//
// Simulates on the CPU what a kernel and a library do differently (summation
// order, f16 accumulation, output rounding) and checks that the tolerance
// accepts every such pair, yet rejects one wrong 16x16 tile, one element
// left as NaN poison, and a tile that skipped one k-block.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tgemm/runtime/Codecs.h"
#include "tgemm/runtime/Compare.h"
#include "tgemm/runtime/CpuGemm.h"
#include "tgemm/runtime/Inputs.h"

#include <cmath>
#include <functional>
#include <vector>

using namespace tgemm::runtime;

namespace {

GemmSpec makeSpec(ElementType in, ElementType acc, ElementType out) {
  GemmSpec spec;
  spec.a = {in, Layout::Row};
  spec.b = {in, Layout::Col};
  spec.acc = acc;
  spec.c = {out, Layout::Row};
  return spec;
}

struct Problem {
  GemmSpec spec;
  GemmShape shape;
  std::vector<uint8_t> a, b;
};

Problem makeProblem(const GemmSpec &spec, GemmShape shape) {
  Problem p{spec, shape, {}, {}};
  p.a = makeRandomMatrix(spec.a.type, shape.m * shape.k, 5, DataStream::A);
  p.b = makeRandomMatrix(spec.b.type, shape.n * shape.k, 5, DataStream::B);
  return p;
}

/// C as a tensor-core kernel would compute it: f32 (or f16) partial sums
/// over k-blocks of `block`, added in the order `order` gives; `skipBlock`
/// drops one k-block of element `skipIndex` (a pipelining bug).
std::vector<uint8_t> simulate(const Problem &p, int block, bool reverse,
                              int64_t skipIndex = -1) {
  const GemmSpec &s = p.spec;
  const GemmShape &g = p.shape;
  bool halfAcc = s.acc == ElementType::F16;
  std::vector<uint8_t> c(storageBytes(s.c.type, g.m * g.n));
  int64_t blocks = g.k / block;
  for (int64_t i = 0; i < g.m; ++i) {
    for (int64_t j = 0; j < g.n; ++j) {
      float acc = 0;
      for (int64_t t = 0; t < blocks; ++t) {
        int64_t kb = reverse ? blocks - 1 - t : t;
        if (i * g.n + j == skipIndex && kb == blocks / 2)
          continue;
        float partial = 0;
        for (int64_t l = kb * block; l < (kb + 1) * block; ++l)
          partial += static_cast<float>(loadA(s, g, p.a.data(), i, l) *
                                        loadB(s, g, p.b.data(), l, j));
        acc += partial;
        if (halfAcc)
          acc = codecs::halfToFloat(codecs::floatToHalf(acc));
      }
      storeElement(s.c.type, c.data(), i * g.n + j, acc);
    }
  }
  return c;
}

CompareResult compare(const Problem &p, const std::vector<uint8_t> &got,
                      const std::vector<uint8_t> &expected) {
  return compareMatrices(p.spec.c.type, got.data(), expected.data(),
                         p.shape.m, p.shape.n,
                         toleranceFor(p.spec, p.shape.k));
}

const GemmSpec kFloatSpecs[] = {
    makeSpec(ElementType::F16, ElementType::F32, ElementType::F32),
    makeSpec(ElementType::F16, ElementType::F32, ElementType::BF16),
    makeSpec(ElementType::F16, ElementType::F16, ElementType::F16),
    makeSpec(ElementType::BF16, ElementType::F32, ElementType::F16),
    makeSpec(ElementType::TF32, ElementType::F32, ElementType::F32),
    makeSpec(ElementType::E4M3, ElementType::F32, ElementType::BF16),
};

} // namespace

TEST(compareToleranceFormula) {
  GemmSpec f32 = makeSpec(ElementType::F16, ElementType::F32, ElementType::F32);
  Tolerance t = toleranceFor(f32, 4096);
  EXPECT_TRUE(!t.exact);
  EXPECT_TRUE(std::fabs(t.frobenius - 2e-4) < 1e-9); // 1e-4 * sqrt(4)
  EXPECT_TRUE(std::fabs(t.element - 1.6e-3) < 1e-9);  // 8 * 2e-4
  GemmSpec half = makeSpec(ElementType::F16, ElementType::F16, ElementType::F16);
  EXPECT_TRUE(toleranceFor(half, 8192).frobenius < 0.06);
  EXPECT_TRUE(toleranceFor(
                  makeSpec(ElementType::S8, ElementType::S32, ElementType::S32),
                  4096)
                  .exact);
}

TEST(compareAcceptsCorrectResults) {
  for (const GemmSpec &spec : kFloatSpecs) {
    Problem p = makeProblem(spec, GemmShape{64, 64, 2048});
    // Two correct implementations: different blockings and orders.
    std::vector<uint8_t> kernel = simulate(p, 32, false);
    std::vector<uint8_t> library = simulate(p, 64, true);
    CompareResult r = compare(p, kernel, library);
    EXPECT_TRUE(r.passed);
    if (!r.passed)
      tgemm::test::recordFailure(__FILE__, __LINE__,
                                 spec.signature() + ": " +
                                     r.describeFailure());
    // And against the exact (double) result.
    std::vector<uint8_t> exact(kernel.size());
    cpuGemm(spec, p.shape, p.a.data(), p.b.data(), exact.data());
    EXPECT_TRUE(compare(p, kernel, exact).passed);
  }
}

TEST(compareRejectsWrongTile) {
  for (const GemmSpec &spec : kFloatSpecs) {
    Problem p = makeProblem(spec, GemmShape{256, 256, 1024});
    std::vector<uint8_t> ref(storageBytes(spec.c.type, 256 * 256));
    cpuGemm(spec, p.shape, p.a.data(), p.b.data(), ref.data());
    auto withTile = [&](const std::function<double(int64_t, int64_t)> &f) {
      std::vector<uint8_t> wrong = ref;
      for (int64_t i = 64; i < 80; ++i)
        for (int64_t j = 128; j < 144; ++j)
          storeElement(spec.c.type, wrong.data(), i * 256 + j, f(i, j));
      return wrong;
    };
    // One tile zeroed, one tile copied from its neighbour (an indexing bug).
    CompareResult zeroed = compare(p, withTile([](int64_t, int64_t) {
      return 0.0;
    }), ref);
    CompareResult shifted = compare(
        p, withTile([&](int64_t i, int64_t j) {
          return loadElement(spec.c.type, ref.data(), i * 256 + j + 16);
        }),
        ref);
    EXPECT_TRUE(!zeroed.passed);
    EXPECT_TRUE(!shifted.passed);
    EXPECT_EQ(zeroed.firstMismatch / 256, 64);
    EXPECT_TRUE(zeroed.describeFailure().find("C[64][") == 0);
  }
}

TEST(compareRejectsMissingKBlock) {
  GemmSpec spec = makeSpec(ElementType::F16, ElementType::F32, ElementType::F32);
  Problem p = makeProblem(spec, GemmShape{32, 32, 1024});
  std::vector<uint8_t> good = simulate(p, 32, false);
  std::vector<uint8_t> bad = simulate(p, 32, false, 5 * 32 + 7);
  CompareResult r = compare(p, bad, good);
  EXPECT_TRUE(!r.passed);
  EXPECT_EQ(r.firstMismatch, 5 * 32 + 7);
  EXPECT_EQ(r.mismatches, 1);
}

TEST(compareRejectsPoison) {
  GemmSpec spec = makeSpec(ElementType::F16, ElementType::F32, ElementType::F16);
  Problem p = makeProblem(spec, GemmShape{32, 32, 64});
  std::vector<uint8_t> ref(32 * 32 * 2);
  cpuGemm(spec, p.shape, p.a.data(), p.b.data(), ref.data());
  std::vector<uint8_t> got = ref;
  got[2 * (3 * 32 + 17)] = 0xff; // NaN, as left by the poison
  got[2 * (3 * 32 + 17) + 1] = 0xff;
  CompareResult r = compare(p, got, ref);
  EXPECT_TRUE(!r.passed);
  EXPECT_TRUE(r.describeFailure().find("C[3][17] = nan, expected") == 0);
  EXPECT_TRUE(std::isinf(r.relativeError));
}

TEST(compareIntegersExactly) {
  GemmSpec spec = makeSpec(ElementType::S8, ElementType::S32, ElementType::S32);
  Problem p = makeProblem(spec, GemmShape{16, 16, 64});
  std::vector<uint8_t> ref(16 * 16 * 4);
  cpuGemm(spec, p.shape, p.a.data(), p.b.data(), ref.data());
  EXPECT_TRUE(compare(p, ref, ref).passed);
  std::vector<uint8_t> got = ref;
  int64_t index = 1 * 16 + 2;
  storeElement(ElementType::S32, got.data(), index,
               loadElement(ElementType::S32, ref.data(), index) + 1);
  CompareResult r = compare(p, got, ref);
  EXPECT_TRUE(!r.passed);
  EXPECT_EQ(r.maxError, 1.0);
  EXPECT_TRUE(r.describeFailure().find("C[1][2] = ") == 0);
  EXPECT_TRUE(r.describeFailure().find("(the first of 1 mismatching "
                                       "elements of 256)") !=
              std::string::npos);
}

TEST(compareBatchEachMatrix) {
  GemmSpec spec = makeSpec(ElementType::F16, ElementType::F32, ElementType::F32);
  GemmShape shape{64, 64, 256};
  // Three matrices of different scale: one wrong element in the smallest
  // would hide in the rms of the whole batch, not in its own.
  std::vector<uint8_t> ref, got;
  for (int b = 0; b < 3; ++b) {
    Problem p = makeProblem(spec, shape);
    std::vector<uint8_t> c(64 * 64 * 4);
    cpuGemm(spec, shape, p.a.data(), p.b.data(), c.data());
    for (int64_t i = 0; i < 64 * 64; ++i)
      storeElement(ElementType::F32, c.data(), i,
                   loadElement(ElementType::F32, c.data(), i) *
                       (b == 1 ? 1e-3 : 1e3));
    ref.insert(ref.end(), c.begin(), c.end());
  }
  got = ref;
  Tolerance t = toleranceFor(spec, shape.k);
  CompareResult ok = compareBatch(ElementType::F32, got.data(), ref.data(), 3,
                                  true, 64, 64, t);
  EXPECT_TRUE(ok.passed);
  EXPECT_EQ(ok.batches, int64_t(3));
  int64_t index = 64 * 64 + 5 * 64 + 9; // matrix 1, C[5][9]
  storeElement(ElementType::F32, got.data(), index,
               loadElement(ElementType::F32, ref.data(), index) + 0.01);
  CompareResult bad = compareBatch(ElementType::F32, got.data(), ref.data(),
                                   3, true, 64, 64, t);
  EXPECT_TRUE(!bad.passed);
  EXPECT_EQ(bad.firstMismatch, index);
  EXPECT_EQ(bad.mismatches, int64_t(1));
  EXPECT_TRUE(bad.describeFailure().find("C[1][5][9] = ") == 0);
  EXPECT_TRUE(bad.describeFailure().find("mismatching elements of 12288") !=
              std::string::npos);
  EXPECT_TRUE(bad.describeFailure().find("largest relative Frobenius error "
                                         "of a matrix") != std::string::npos);
  // The whole batch as one matrix would not see it.
  EXPECT_TRUE(compareMatrices(ElementType::F32, got.data(), ref.data(), 192,
                              64, t)
                  .passed);
  // Not batched, one matrix: the plain comparison.
  CompareResult single = compareBatch(ElementType::F32, got.data(),
                                      ref.data(), 1, false, 64, 64, t);
  EXPECT_EQ(single.batches, int64_t(0));
}

TEST(compareDescribesPadding) {
  CompareResult r;
  r.passed = false;
  r.rows = r.cols = 4;
  r.tolerance.exact = true;
  r.paddingChanged = 2;
  r.paddingWhere = "row 1, column 4";
  EXPECT_EQ(r.describeFailure(),
            std::string("the kernel wrote outside C: 2 elements of C's "
                        "allocation outside the matrix changed, the first at "
                        "row 1, column 4"));
}

TEST(compareToleranceWithEpilogue) {
  GemmSpec f32 = makeSpec(ElementType::F16, ElementType::F32, ElementType::F32);
  Tolerance plain = toleranceFor(f32, 1024);
  Tolerance fused = toleranceFor(f32, 1024, /*fusedEpilogue=*/true);
  EXPECT_TRUE(std::fabs(fused.frobenius - plain.frobenius -
                        kEpilogueRelativeError) < 1e-12);
  EXPECT_TRUE(std::fabs(fused.relative - plain.relative -
                        kEpilogueRelativeError) < 1e-12);
  // An s32 accumulator dequantized into a float C is compared as floats;
  // only an s32 C is exact.
  Tolerance dequantized = toleranceFor(
      makeSpec(ElementType::S8, ElementType::S32, ElementType::F16), 4096);
  EXPECT_TRUE(!dequantized.exact && dequantized.frobenius > 0);

  // A GEMM with scale(col), bias(col) and gelu_tanh, rounded to f16: a
  // kernel whose activation is off by 1e-6 relative (ex2.approx) passes;
  // one that indexes the bias by row instead of column fails.
  GemmSpec spec =
      makeSpec(ElementType::F16, ElementType::F32, ElementType::F16);
  GemmShape shape{64, 48, 256};
  GemmSpec product = spec;
  product.c.type = ElementType::F32;
  Problem p = makeProblem(product, shape);
  std::vector<uint8_t> acc(shape.m * shape.n * 4);
  cpuGemm(product, shape, p.a.data(), p.b.data(), acc.data());
  auto scale =
      makeEpilogueOperand(EpilogueOp::Scale, ElementType::F32, shape.n, 1, 0);
  auto bias = makeEpilogueOperand(EpilogueOp::Bias, ElementType::F32,
                                  std::max(shape.m, shape.n), 1, 1);
  auto apply = [&](bool approximate, bool biasByRow) {
    std::vector<uint8_t> out(shape.m * shape.n * 2);
    for (int64_t i = 0; i < shape.m; ++i)
      for (int64_t j = 0; j < shape.n; ++j) {
        int64_t e = i * shape.n + j;
        float v =
            static_cast<float>(loadElement(ElementType::F32, acc.data(), e));
        v *= static_cast<float>(loadElement(ElementType::F32, scale.data(), j));
        v += static_cast<float>(
            loadElement(ElementType::F32, bias.data(), biasByRow ? i : j));
        v = applyActivation(EpilogueOp::GeluTanh, v);
        if (approximate)
          v *= 1.0f + 1e-6f;
        storeElement(ElementType::F16, out.data(), e, v);
      }
    return out;
  };
  std::vector<uint8_t> expected = apply(false, false);
  Tolerance t = toleranceFor(spec, shape.k, true);
  EXPECT_TRUE(compareMatrices(ElementType::F16, apply(true, false).data(),
                              expected.data(), shape.m, shape.n, t)
                  .passed);
  EXPECT_TRUE(!compareMatrices(ElementType::F16, apply(false, true).data(),
                               expected.data(), shape.m, shape.n, t)
                   .passed);
}
