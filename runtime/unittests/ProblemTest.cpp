//===- ProblemTest.cpp - Sizes, requirements, launch dimensions -----------===//

#include "TestSupport.h"

#include "tgemm/runtime/Manifest.h"
#include "tgemm/runtime/Problem.h"

using namespace tgemm::runtime;

namespace {
KernelManifest example(bool dynamic) {
  std::string text = tgemm::test::exampleManifest();
  if (dynamic)
    text = REPLACE(text, R"({"m": 4096, "n": 4096, "k": 4096})",
                   R"({"m": null, "n": null, "k": null})");
  return parseManifest(text, "m.json").kernels[0];
}
} // namespace

TEST(problemResolveShape) {
  KernelManifest fixed = example(false), dynamic = example(true);
  GemmShape s = resolveShape(fixed, std::nullopt, std::nullopt, std::nullopt);
  EXPECT_EQ(s.m, 4096);
  EXPECT_EQ(s.str(), std::string("M=4096 N=4096 K=4096"));
  EXPECT_EQ(resolveShape(fixed, 4096, 4096, 4096).k, 4096);
  EXPECT_ERROR(resolveShape(fixed, 1024, std::nullopt, std::nullopt),
               ErrorKind::Unsupported,
               "kernel 'gemm_f16_f32_kernel' was compiled for the static size "
               "M=4096; --m 1024 asks for another");
  GemmShape d = resolveShape(dynamic, 256, 512, 1024);
  EXPECT_EQ(d.n, 512);
  EXPECT_EQ(d.operations(), 2.0 * 256 * 512 * 1024);
  EXPECT_ERROR(resolveShape(dynamic, 256, std::nullopt, 1024),
               ErrorKind::Usage,
               "kernel 'gemm_f16_f32_kernel' has a dynamic N; give it with --n");
  EXPECT_ERROR(resolveShape(dynamic, 0, 1, 1), ErrorKind::Usage,
               "M must be positive, got 0");
  // Sizes whose products overflow int64 (found by fuzz/manifest-fuzzer).
  EXPECT_ERROR(resolveShape(dynamic, 128, int64_t(1) << 32, int64_t(1) << 32),
               ErrorKind::Unsupported,
               "shape M=128 N=4294967296 K=4294967296: B would have K*N "
               "elements, more than 2^48");
  EXPECT_EQ(resolveShape(dynamic, int64_t(1) << 47, 2, 1).m,
            int64_t(1) << 47);
}

TEST(problemRequirements) {
  KernelManifest k = example(true);
  checkRequirements(k, GemmShape{128, 256, 64});
  EXPECT_ERROR(checkRequirements(k, GemmShape{1000, 4096, 4096}),
               ErrorKind::Unsupported,
               "shape M=1000 N=4096 K=4096 breaks a requirement of kernel "
               "'gemm_f16_f32_kernel': M must be a multiple of 128 (1000 = "
               "7*128 + 104)");
  EXPECT_ERROR(checkRequirements(k, GemmShape{128, 128, 48}),
               ErrorKind::Unsupported,
               "K must be a multiple of 32 (48 = 1*32 + 16)");
}

TEST(problemLaunchDims) {
  KernelManifest k = example(true);
  LaunchDims dims = computeLaunch(k, GemmShape{4096, 2048, 64});
  EXPECT_EQ(dims.grid[0], 16u); // n / 128
  EXPECT_EQ(dims.grid[1], 32u); // m / 128
  EXPECT_EQ(dims.grid[2], 1u);
  EXPECT_EQ(dims.block[0], 128u);
  EXPECT_EQ(dims.block[1], 1u);
  EXPECT_EQ(dims.dynamicSharedMemory, 61440u);
  // Partial tiles round the grid up: the kernel guards the edges.
  k.requirements.clear();
  LaunchDims edges = computeLaunch(k, GemmShape{1000, 200, 64});
  EXPECT_EQ(edges.grid[0], 2u); // ceil(200 / 128)
  EXPECT_EQ(edges.grid[1], 8u); // ceil(1000 / 128)
  LaunchDims one = computeLaunch(k, GemmShape{1, 1, 1});
  EXPECT_EQ(one.grid[0], 1u);
  EXPECT_EQ(one.grid[1], 1u);
  // A tile near 2^63 (which a manifest may give) must not overflow the
  // rounding up.
  k.grid[0].tile = INT64_MAX;
  EXPECT_EQ(computeLaunch(k, GemmShape{128, 7, 64}).grid[0], 1u);
  // grid.y is limited to 65535.
  EXPECT_ERROR(computeLaunch(k, GemmShape{128 * 70000, 128, 64}),
               ErrorKind::Unsupported,
               "grid.y = 70000 exceeds CUDA's limit of 65535");
}

TEST(problemStoredShapes) {
  GemmShape s{2, 3, 5};
  auto check = [](MatrixShape got, int64_t rows, int64_t cols) {
    EXPECT_EQ(got.rows, rows);
    EXPECT_EQ(got.cols, cols);
  };
  check(storedShape(Operand::A, Layout::Row, s), 2, 5);
  check(storedShape(Operand::A, Layout::Col, s), 5, 2);
  check(storedShape(Operand::B, Layout::Row, s), 5, 3);
  check(storedShape(Operand::B, Layout::Col, s), 3, 5);
  check(storedShape(Operand::C, Layout::Row, s), 2, 3);
  EXPECT_EQ(storageBytes(ElementType::S4, 15), 8);
  EXPECT_EQ(storageBytes(ElementType::BF16, 15), 30);
}
