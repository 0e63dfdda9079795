//===- ReferencePlanTest.cpp - cuBLAS argument mapping and plans ----------===//
//
// cuBLAS cannot run here, so its contract is emulated: a column-major GEMM
// that reads its arguments exactly as the cuBLAS documentation defines them
// (op(A) is m x k, A stored column-major with leading dimension lda, ...).
// Feeding it the arguments toColumnMajor derives must reproduce the
// row-major C = A * B for every layout pair.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tgemm/runtime/CpuGemm.h"
#include "tgemm/runtime/Inputs.h"
#include "tgemm/runtime/ReferencePlan.h"

#include <cmath>
#include <vector>

using namespace tgemm::runtime;

namespace {

/// C (m x n, column-major, ldc) = op(A) * op(B), cuBLAS's definition.
void columnMajorGemm(const ColumnMajorGemm &g, const std::vector<double> &a,
                     const std::vector<double> &b, std::vector<double> &c) {
  for (int64_t i = 0; i < g.m; ++i) {
    for (int64_t j = 0; j < g.n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < g.k; ++l) {
        double x = g.transA ? a[l + i * g.lda] : a[i + l * g.lda];
        double y = g.transB ? b[j + l * g.ldb] : b[l + j * g.ldb];
        sum += x * y;
      }
      c[i + j * g.ldc] = sum;
    }
  }
}

/// The same through cuBLASLt's view: each operand a column-major matrix of
/// storedRows x storedCols with its leading dimension, then op applied.
void ltGemm(const ColumnMajorGemm &g, const std::vector<double> &a,
            const std::vector<double> &b, std::vector<double> &c) {
  EXPECT_TRUE(g.storedRowsA() <= g.lda && g.storedRowsB() <= g.ldb);
  EXPECT_TRUE(g.m <= g.ldc);
  auto at = [](const std::vector<double> &x, int64_t ld, int64_t r,
               int64_t col) { return x[r + col * ld]; };
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < g.k; ++l)
        sum += (g.transA ? at(a, g.lda, l, i) : at(a, g.lda, i, l)) *
               (g.transB ? at(b, g.ldb, j, l) : at(b, g.ldb, l, j));
      c[i + j * g.ldc] = sum;
    }
}

std::vector<double> decode(ElementType type, const std::vector<uint8_t> &raw,
                           int64_t count) {
  std::vector<double> out(count);
  for (int64_t i = 0; i < count; ++i)
    out[i] = loadElement(type, raw.data(), i);
  return out;
}

} // namespace

TEST(planColumnMajorMappingComputesRowMajorGemm) {
  GemmShape shape{24, 40, 56}; // M, N, K all different
  for (Layout la : {Layout::Row, Layout::Col}) {
    for (Layout lb : {Layout::Row, Layout::Col}) {
      GemmSpec spec;
      spec.a = {ElementType::S8, la};
      spec.b = {ElementType::S8, lb};
      spec.acc = ElementType::S32;
      spec.c = {ElementType::S32, Layout::Row};
      auto a = makeRandomMatrix(ElementType::S8, shape.m * shape.k, 1,
                                DataStream::A);
      auto b = makeRandomMatrix(ElementType::S8, shape.k * shape.n, 1,
                                DataStream::B);
      std::vector<uint8_t> expected(shape.m * shape.n * 4);
      cpuGemm(spec, shape, a.data(), b.data(), expected.data());

      ColumnMajorGemm g = toColumnMajor(shape, la, lb);
      // cuBLAS's A is tgemm's B, its B is tgemm's A; C^T = B^T A^T.
      std::vector<double> aPrime = decode(ElementType::S8, b, shape.k * shape.n);
      std::vector<double> bPrime = decode(ElementType::S8, a, shape.m * shape.k);
      std::vector<double> c(shape.m * shape.n), lt(shape.m * shape.n);
      columnMajorGemm(g, aPrime, bPrime, c);
      ltGemm(g, aPrime, bPrime, lt);
      for (int64_t i = 0; i < shape.m * shape.n; ++i) {
        double want = loadElement(ElementType::S32, expected.data(), i);
        if (c[i] != want || lt[i] != want) {
          tgemm::test::recordFailure(
              __FILE__, __LINE__,
              std::string("layouts ") + layoutName(la) + "," +
                  layoutName(lb) + ": element " + std::to_string(i));
          break;
        }
      }
    }
  }
}

TEST(planOperationNames) {
  GemmShape s{128, 256, 64};
  // A row and B col (K contiguous in both) is cuBLAS's fast int8 "TN".
  ColumnMajorGemm tn = toColumnMajor(s, Layout::Row, Layout::Col);
  EXPECT_EQ(tn.opName(), std::string("TN"));
  EXPECT_EQ(tn.m, 256);
  EXPECT_EQ(tn.n, 128);
  EXPECT_EQ(tn.lda, 64);
  EXPECT_EQ(tn.ldb, 64);
  EXPECT_EQ(tn.ldc, 256);
  EXPECT_EQ(toColumnMajor(s, Layout::Row, Layout::Row).opName(),
            std::string("NN"));
  EXPECT_EQ(toColumnMajor(s, Layout::Col, Layout::Row).opName(),
            std::string("NT"));
  EXPECT_EQ(toColumnMajor(s, Layout::Col, Layout::Col).opName(),
            std::string("TT"));
}

namespace {
GemmSpec spec(ElementType a, ElementType b, ElementType acc, ElementType c,
              Layout la = Layout::Row, Layout lb = Layout::Col) {
  GemmSpec s;
  s.a = {a, la};
  s.b = {b, lb};
  s.acc = acc;
  s.c = {c, Layout::Row};
  return s;
}
} // namespace

ReferencePlan planFor(const GemmSpec &s,
                      GemmShape shape = GemmShape{256, 256, 256}) {
  return planReference(s, shape);
}

TEST(planPerPrecision) {
  using ET = ElementType;
  ReferencePlan f16 = planFor(spec(ET::F16, ET::F16, ET::F32, ET::F32,
                                         Layout::Col, Layout::Row));
  EXPECT_TRUE(f16.checkEngine == ReferenceEngine::Cublas);
  EXPECT_TRUE(f16.check.writesC && f16.check.computeType == ET::F32);
  EXPECT_TRUE(f16.check.aLayout == Layout::Col); // any layout is fine
  EXPECT_TRUE(!f16.needsTNCopies && f16.anchorIsCheck);
  EXPECT_EQ(f16.check.describe(),
            std::string("cublas f16*f16->f32 compute 32F"));

  ReferencePlan bf16Out =
      planFor(spec(ET::F16, ET::F16, ET::F32, ET::BF16));
  EXPECT_TRUE(!bf16Out.check.writesC && bf16Out.check.outType == ET::F32);

  // bf16 C from bf16 operands: the check keeps f32 and rounds once; the
  // anchor is cuBLAS writing bf16, as its users call it.
  ReferencePlan bf16 = planFor(spec(ET::BF16, ET::BF16, ET::F32, ET::BF16));
  EXPECT_TRUE(!bf16.check.writesC && bf16.check.outType == ET::F32);
  EXPECT_TRUE(!bf16.anchorIsCheck && bf16.anchor.writesC &&
              bf16.anchor.outType == ET::BF16 && !bf16.anchorNeedsTNCopies);

  ReferencePlan half = planFor(spec(ET::F16, ET::F16, ET::F16, ET::F32));
  EXPECT_TRUE(half.check.computeType == ET::F16);
  EXPECT_TRUE(!half.check.writesC && half.check.outType == ET::F16);
  EXPECT_TRUE(planFor(spec(ET::F16, ET::F16, ET::F16, ET::F16))
                  .check.writesC);

  ReferencePlan tf32 = planFor(spec(ET::TF32, ET::TF32, ET::F32, ET::F32));
  EXPECT_TRUE(tf32.check.computeType == ET::TF32);
  EXPECT_TRUE(tf32.check.aType == ET::F32);
  EXPECT_EQ(std::string(computeTypeName(tf32.check.computeType)),
            std::string("32F_FAST_TF32"));

  ReferencePlan s8tn = planFor(spec(ET::S8, ET::S8, ET::S32, ET::S32));
  EXPECT_TRUE(!s8tn.needsTNCopies && s8tn.check.computeType == ET::S32);
  ReferencePlan s8nn = planFor(
      spec(ET::S8, ET::S8, ET::S32, ET::S32, Layout::Col, Layout::Row));
  EXPECT_TRUE(s8nn.needsTNCopies);
  EXPECT_TRUE(s8nn.check.aLayout == Layout::Row &&
              s8nn.check.bLayout == Layout::Col);

  for (ET t : {ET::U8, ET::S4}) {
    ReferencePlan p = planFor(spec(t, t, ET::S32, ET::S32));
    EXPECT_TRUE(p.checkEngine == ReferenceEngine::OwnKernel);
    EXPECT_TRUE(!p.anchorIsCheck && p.anchor.aType == ET::S8);
    EXPECT_TRUE(p.anchorNote.find("no library computes") == 0);
    EXPECT_EQ(p.describeCheck(), std::string("tgemm reference kernel"));
  }

  ReferencePlan fp8 = planFor(spec(ET::E4M3, ET::E5M2, ET::F32, ET::F16,
                                         Layout::Col, Layout::Col));
  EXPECT_TRUE(fp8.checkEngine == ReferenceEngine::CublasLt);
  EXPECT_TRUE(fp8.needsTNCopies && fp8.check.outType == ET::F16);
  EXPECT_TRUE(fp8.check.bType == ET::E5M2);

  // Libraries take only some sizes: cuBLASLt's fp8 GEMM multiples of 16,
  // cuBLAS's int8 GEMM multiples of 4. Elsewhere tgemm's own kernel checks
  // and nothing is timed beside the kernel.
  ReferencePlan odd = planFor(spec(ET::E4M3, ET::E4M3, ET::F32, ET::F32),
                              GemmShape{1000, 7, 4097});
  EXPECT_TRUE(odd.checkEngine == ReferenceEngine::OwnKernel && !odd.hasAnchor);
  ReferencePlan oddInt8 = planFor(spec(ET::S8, ET::S8, ET::S32, ET::S32),
                                  GemmShape{64, 64, 7});
  EXPECT_TRUE(oddInt8.checkEngine == ReferenceEngine::OwnKernel &&
              !oddInt8.hasAnchor && !oddInt8.needsTNCopies);
  // The s8 anchor of a 4-bit GEMM reads unpacked copies, TN or not.
  EXPECT_TRUE(planFor(spec(ET::S4, ET::S4, ET::S32, ET::S32))
                  .anchorNeedsTNCopies);
  ReferencePlan oddU8 = planFor(spec(ET::U8, ET::U8, ET::S32, ET::S32),
                                GemmShape{1, 4096, 4096});
  EXPECT_TRUE(!oddU8.hasAnchor && !oddU8.anchorNeedsTNCopies);
  EXPECT_TRUE(planFor(spec(ET::S8, ET::S8, ET::S32, ET::S32),
                      GemmShape{4096, 4096, 4096})
                  .hasAnchor);

  ReferencePlan e5m2 = planFor(spec(ET::E5M2, ET::E5M2, ET::F32, ET::F32));
  EXPECT_TRUE(e5m2.checkEngine == ReferenceEngine::OwnKernel);
  EXPECT_TRUE(e5m2.anchor.engine == ReferenceEngine::CublasLt &&
              e5m2.anchor.aType == ET::E4M3);
}

TEST(planStridedBatchedMappingComputesEachGemm) {
  // cublasGemmStridedBatchedEx (and cuBLASLt's batched layouts): GEMM i
  // reads A' + i*strideA, B' + i*strideB and writes C' + i*strideC, each
  // as in the single call. With the strides toColumnMajor derives for
  // packed matrices, that must be the row-major C_i = A_i * B_i.
  GemmShape shape{12, 20, 28};
  shape.batch = 3;
  shape.batched = true;
  for (Layout la : {Layout::Row, Layout::Col}) {
    for (Layout lb : {Layout::Row, Layout::Col}) {
      GemmSpec spec;
      spec.a = {ElementType::S8, la};
      spec.b = {ElementType::S8, lb};
      spec.acc = ElementType::S32;
      spec.c = {ElementType::S32, Layout::Row};
      int64_t aSize = shape.m * shape.k, bSize = shape.k * shape.n,
              cSize = shape.m * shape.n;
      auto a = makeRandomMatrix(ElementType::S8, 3 * aSize, 2, DataStream::A);
      auto b = makeRandomMatrix(ElementType::S8, 3 * bSize, 2, DataStream::B);
      ColumnMajorGemm g = toColumnMajor(shape, la, lb);
      EXPECT_EQ(g.batch, int64_t(3));
      EXPECT_EQ(g.strideA, bSize); // cuBLAS's A is tgemm's B
      EXPECT_EQ(g.strideB, aSize);
      EXPECT_EQ(g.strideC, cSize);
      std::vector<double> aPrime = decode(ElementType::S8, b, 3 * bSize);
      std::vector<double> bPrime = decode(ElementType::S8, a, 3 * aSize);
      GemmShape one{shape.m, shape.n, shape.k};
      for (int64_t i = 0; i < g.batch; ++i) {
        std::vector<double> x(aPrime.begin() + i * g.strideA,
                              aPrime.begin() + (i + 1) * g.strideA);
        std::vector<double> y(bPrime.begin() + i * g.strideB,
                              bPrime.begin() + (i + 1) * g.strideB);
        std::vector<double> c(g.strideC);
        columnMajorGemm(g, x, y, c);
        std::vector<uint8_t> expected(cSize * 4);
        cpuGemm(spec, one, a.data() + i * aSize, b.data() + i * bSize,
                expected.data());
        for (int64_t e = 0; e < cSize; ++e)
          if (c[e] != loadElement(ElementType::S32, expected.data(), e)) {
            tgemm::test::recordFailure(
                __FILE__, __LINE__,
                std::string("layouts ") + layoutName(la) + "," +
                    layoutName(lb) + ": matrix " + std::to_string(i) +
                    ", element " + std::to_string(e));
            break;
          }
      }
    }
  }
  // Not batched: one GEMM.
  EXPECT_EQ(toColumnMajor(GemmShape{4, 4, 4}, Layout::Row, Layout::Col).batch,
            int64_t(1));
}

TEST(planFusedEpilogue) {
  using ET = ElementType;
  auto fused = [](const GemmSpec &s,
                  GemmShape shape = GemmShape{256, 256, 256}) {
    return planReference(s, shape, /*fusedEpilogue=*/true);
  };
  // f16 -> f32, which cuBLAS writes directly: with steps the check writes
  // A*B in f32 for the epilogue kernel; the anchor stays the direct call.
  ReferencePlan f16 = fused(spec(ET::F16, ET::F16, ET::F32, ET::F32));
  EXPECT_TRUE(f16.epilogueKernel && f16.scratchType == ET::F32);
  EXPECT_TRUE(!f16.check.writesC && f16.check.outType == ET::F32);
  EXPECT_TRUE(!f16.anchorIsCheck && f16.anchor.writesC &&
              f16.anchor.outType == ET::F32);
  EXPECT_TRUE(
      !planFor(spec(ET::F16, ET::F16, ET::F32, ET::F32)).epilogueKernel);
  // Already through the epilogue kernel (bf16 C): the plan is unchanged.
  ReferencePlan bf16 = fused(spec(ET::BF16, ET::BF16, ET::F32, ET::BF16));
  EXPECT_TRUE(bf16.epilogueKernel && bf16.scratchType == ET::F32);
  EXPECT_TRUE(bf16.anchor.writesC && bf16.anchor.outType == ET::BF16);
  // An f16 accumulator: cuBLAS computing 16F writes an f16 scratch.
  ReferencePlan half = fused(spec(ET::F16, ET::F16, ET::F16, ET::F16));
  EXPECT_TRUE(half.epilogueKernel && half.scratchType == ET::F16);
  EXPECT_TRUE(half.anchor.writesC && half.anchor.outType == ET::F16);
  // tf32 and fp8.
  ReferencePlan tf32 = fused(spec(ET::TF32, ET::TF32, ET::F32, ET::F32));
  EXPECT_TRUE(tf32.epilogueKernel && !tf32.anchorIsCheck &&
              tf32.anchor.writesC);
  ReferencePlan fp8 = fused(
      spec(ET::E4M3, ET::E4M3, ET::F32, ET::F16, Layout::Col, Layout::Row));
  EXPECT_TRUE(fp8.epilogueKernel && fp8.check.outType == ET::F32);
  EXPECT_TRUE(fp8.anchor.outType == ET::F16 && fp8.anchorNeedsTNCopies &&
              fp8.needsTNCopies);
  // tgemm's own kernel (u8; fp8 at odd sizes) writes its accumulator.
  ReferencePlan u8 = fused(spec(ET::U8, ET::U8, ET::S32, ET::F16));
  EXPECT_TRUE(u8.checkEngine == ReferenceEngine::OwnKernel &&
              u8.epilogueKernel && u8.scratchType == ET::S32);
  ReferencePlan odd = fused(spec(ET::E4M3, ET::E4M3, ET::F32, ET::F32),
                            GemmShape{100, 256, 256});
  EXPECT_TRUE(odd.checkEngine == ReferenceEngine::OwnKernel &&
              odd.epilogueKernel && odd.scratchType == ET::F32);
  ReferencePlan plainOwn = planFor(spec(ET::U8, ET::U8, ET::S32, ET::S32));
  EXPECT_TRUE(!plainOwn.epilogueKernel);
}

TEST(planDequantizesIntegerC) {
  using ET = ElementType;
  // s8 -> s32 accumulator -> f16 C, no steps: cuBLAS writes s32, the
  // epilogue kernel dequantizes; the anchor is the s8 GEMM writing s32.
  ReferencePlan s8 = planFor(spec(ET::S8, ET::S8, ET::S32, ET::F16));
  EXPECT_TRUE(s8.epilogueKernel && s8.scratchType == ET::S32);
  EXPECT_TRUE(!s8.check.writesC && s8.check.outType == ET::S32);
  EXPECT_TRUE(!s8.anchorIsCheck && s8.anchor.outType == ET::S32);
  ReferencePlan s32 = planFor(spec(ET::S8, ET::S8, ET::S32, ET::S32));
  EXPECT_TRUE(!s32.epilogueKernel && s32.check.writesC && s32.anchorIsCheck);
  ReferencePlan s4 = planFor(spec(ET::S4, ET::S4, ET::S32, ET::BF16));
  EXPECT_TRUE(s4.checkEngine == ReferenceEngine::OwnKernel &&
              s4.epilogueKernel && s4.scratchType == ET::S32);
}
