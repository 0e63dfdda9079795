//===- ProblemTest.cpp - Sizes, requirements, launch dimensions -----------===//

#include "TestSupport.h"

#include "tgemm/runtime/GemmRunner.h"
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

TEST(problemPersistentLaunchGrid) {
  // A persistent kernel's grid lists its tiles; it is launched with at most
  // as many blocks as are resident at once, along x, shared by grid z.
  KernelManifest k = example(true);
  LaunchDims dims = computeLaunch(k, GemmShape{4096, 2048, 64}); // 16x32x1
  auto grid = [](uint32_t x, uint32_t y, uint32_t z) {
    return std::array<uint32_t, 3>{x, y, z};
  };
  EXPECT_TRUE(persistentLaunchGrid(dims, 132 * 2) == grid(264, 1, 1));
  // Fewer tiles than resident blocks: one block per tile.
  EXPECT_TRUE(persistentLaunchGrid(dims, 100000) == grid(512, 1, 1));
  EXPECT_TRUE(persistentLaunchGrid(dims, 512) == grid(512, 1, 1));
  // Grid z (batch x split K's parts) shares the resident blocks, at least
  // one block per layer.
  dims.grid[2] = 8;
  EXPECT_TRUE(persistentLaunchGrid(dims, 132) == grid(16, 1, 8));
  dims.grid[2] = 1000;
  EXPECT_TRUE(persistentLaunchGrid(dims, 132) == grid(1, 1, 1000));
  EXPECT_TRUE(persistentLaunchGrid(dims, 0) == grid(1, 1, 1000));
  // Tiles beyond 32 bits are counted in 64.
  dims.grid = {2147483647u, 65535u, 1u};
  EXPECT_TRUE(persistentLaunchGrid(dims, 1056) == grid(1056, 1, 1));
  dims.grid = {65536u, 65536u, 1u};
  EXPECT_TRUE(persistentLaunchGrid(dims, int64_t(1) << 40) ==
              grid(2147483647u, 1, 1));
}

TEST(problemClusterLaunchGrid) {
  // A clustered persistent kernel is launched in whole clusters: the
  // resident blocks rounded down to a multiple of the cluster, at least
  // one cluster; the tiles (grid x * y) are whole clusters already.
  KernelManifest k = example(true);
  LaunchDims dims = computeLaunch(k, GemmShape{4096, 2048, 64}); // 16x32x1
  auto grid = [](uint32_t x, uint32_t y, uint32_t z) {
    return std::array<uint32_t, 3>{x, y, z};
  };
  EXPECT_TRUE(persistentLaunchGrid(dims, 132, 2) == grid(132, 1, 1));
  EXPECT_TRUE(persistentLaunchGrid(dims, 131, 2) == grid(130, 1, 1));
  EXPECT_TRUE(persistentLaunchGrid(dims, 1, 2) == grid(2, 1, 1));
  EXPECT_TRUE(persistentLaunchGrid(dims, 0, 2) == grid(2, 1, 1));
  dims.grid[2] = 3;
  EXPECT_TRUE(persistentLaunchGrid(dims, 132, 2) == grid(44, 1, 3));
  dims.grid = {2u, 1u, 1u};
  EXPECT_TRUE(persistentLaunchGrid(dims, 132, 2) == grid(2, 1, 1));
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

namespace {
KernelManifest batchedKernel(const char *batch = "null") {
  std::string text = tgemm::test::batchedManifest();
  text = REPLACE(text, R"("batch": null)",
                 std::string(R"("batch": )") + batch);
  return parseManifest(text, "m.json").kernels[0];
}
} // namespace

TEST(problemBatch) {
  KernelManifest dynamic = batchedKernel(), fixed = batchedKernel("8");
  GemmShape s = resolveShape(dynamic, 64, 32, 16, 5);
  EXPECT_TRUE(s.batched);
  EXPECT_EQ(s.batch, 5);
  EXPECT_EQ(s.str(), std::string("M=64 N=32 K=16 batch=5"));
  EXPECT_EQ(s.operations(), 2.0 * 5 * 64 * 32 * 16);
  EXPECT_EQ(s.get(Dim::Batch), 5);
  EXPECT_EQ(resolveShape(fixed, 64, 32, 16).batch, 8);
  EXPECT_EQ(resolveShape(fixed, 64, 32, 16, 8).batch, 8);
  EXPECT_ERROR(resolveShape(dynamic, 64, 32, 16), ErrorKind::Usage,
               "kernel 'gemm_f16_f32_kernel' has a dynamic batch size; give "
               "it with --batch");
  EXPECT_ERROR(resolveShape(fixed, 64, 32, 16, 4), ErrorKind::Unsupported,
               "kernel 'gemm_f16_f32_kernel' was compiled for the static "
               "batch size 8; --batch 4 asks for another");
  EXPECT_ERROR(resolveShape(dynamic, 64, 32, 16, 0), ErrorKind::Usage,
               "the batch size must be positive, got 0");
  KernelManifest plain = example(true);
  GemmShape one = resolveShape(plain, 64, 32, 16);
  EXPECT_TRUE(!one.batched);
  EXPECT_EQ(one.batch, 1);
  EXPECT_EQ(one.str(), std::string("M=64 N=32 K=16"));
  EXPECT_ERROR(resolveShape(plain, 64, 32, 16, 2), ErrorKind::Unsupported,
               "kernel 'gemm_f16_f32_kernel' is not batched (its manifest's "
               "problem has no \"batch\"); --batch 2 asks for a batch of "
               "GEMMs");
  // batch * M * K overflowing int64 without the check.
  EXPECT_ERROR(resolveShape(dynamic, int64_t(1) << 24, 1, int64_t(1) << 24,
                            int64_t(1) << 20),
               ErrorKind::Unsupported,
               "A would have batch*M*K elements, more than 2^48");
  EXPECT_ERROR(resolveShape(dynamic, 2, 2, 2, INT64_MAX),
               ErrorKind::Unsupported, "more than 2^48");
}

TEST(problemBatchLaunch) {
  KernelManifest k = batchedKernel();
  GemmShape s = resolveShape(k, 1000, 256, 64, 12);
  LaunchDims dims = computeLaunch(k, s);
  EXPECT_EQ(dims.grid[0], 2u);  // ceil(256 / 128)
  EXPECT_EQ(dims.grid[1], 8u);  // ceil(1000 / 128)
  EXPECT_EQ(dims.grid[2], 12u); // batch / 1
  EXPECT_ERROR(computeLaunch(k, resolveShape(k, 128, 128, 64, 70000)),
               ErrorKind::Unsupported,
               "grid.z = 70000 exceeds CUDA's limit of 65535 for shape "
               "M=128 N=128 K=64 batch=70000");
  k.requirements.push_back({Dim::Batch, 4});
  checkRequirements(k, resolveShape(k, 128, 128, 64, 8));
  EXPECT_ERROR(checkRequirements(k, resolveShape(k, 128, 128, 64, 6)),
               ErrorKind::Unsupported,
               "breaks a requirement of kernel 'gemm_f16_f32_kernel': batch "
               "must be a multiple of 4 (6 = 1*4 + 2)");
}

namespace {
StorageRequests request(std::optional<int64_t> lda,
                        std::optional<int64_t> ldb = std::nullopt,
                        std::optional<int64_t> ldc = std::nullopt) {
  StorageRequests r;
  r[0].ld = lda;
  r[1].ld = ldb;
  r[2].ld = ldc;
  return r;
}

/// The example kernel (A row, B col) with the arguments in `strided` marked
/// strided; dynamic sizes.
KernelManifest stridedKernel(const std::string &strided,
                             const char *type = "f16") {
  std::string text = tgemm::test::exampleManifest();
  text = REPLACE(text, R"({"m": 4096, "n": 4096, "k": 4096})",
                 R"({"m": null, "n": null, "k": null})");
  if (std::string(type) == "s4") {
    text = REPLACE(text, R"("a": {"type": "f16")", R"("a": {"type": "s4")");
    text = REPLACE(text, R"("b": {"type": "f16")", R"("b": {"type": "s4")");
    text = REPLACE(text, R"("c": {"type": "f32")", R"("c": {"type": "s32")");
    text = REPLACE(text, R"("acc": "f32")", R"("acc": "s32")");
    text = REPLACE(text, R"("name": "a", "kind": "memref", "type": "f16")",
                   R"("name": "a", "kind": "memref", "type": "s4")");
    text = REPLACE(text, R"("name": "b", "kind": "memref", "type": "f16")",
                   R"("name": "b", "kind": "memref", "type": "s4")");
    text = REPLACE(text, R"("name": "c", "kind": "memref", "type": "f32")",
                   R"("name": "c", "kind": "memref", "type": "s32")");
  }
  for (char arg : strided) {
    std::string name = std::string(R"("name": ")") + arg + "\"";
    size_t at = text.find(name);
    size_t end = text.find("}", at);
    text.insert(end, R"(, "strided": true)");
  }
  return parseManifest(text, "m.json").kernels[0];
}
} // namespace

TEST(problemStoragePacked) {
  KernelManifest k = stridedKernel("");
  GemmShape s{256, 512, 64};
  OperandStorages st = resolveStorage(k, s, StorageRequests());
  // A row: M x K; B col: N x K; C: M x N.
  EXPECT_EQ(st[0].rows, 256);
  EXPECT_EQ(st[0].cols, 64);
  EXPECT_EQ(st[0].ld, 64);
  EXPECT_EQ(st[1].rows, 512);
  EXPECT_EQ(st[1].ld, 64);
  EXPECT_EQ(st[2].ld, 512);
  EXPECT_EQ(st[2].batchStride, 256 * 512);
  for (const MatrixStorage &m : st) {
    EXPECT_TRUE(m.isPacked());
    EXPECT_EQ(m.allocationElements(), m.packedElements());
  }
  OperandStorages packed = packedStorage(k, s);
  EXPECT_EQ(packed[2].allocationElements(), 256 * 512);
}

TEST(problemStorageStrided) {
  KernelManifest k = stridedKernel("abc");
  GemmShape s{256, 512, 64};
  StorageRequests r = request(72, 80, 520);
  r[0].offset = 3;
  r[2].offset = 1;
  OperandStorages st = resolveStorage(k, s, r);
  EXPECT_EQ(st[0].ld, 72);
  EXPECT_EQ(st[0].offset, 3);
  EXPECT_EQ(st[0].batchStride, 256 * 72);
  EXPECT_EQ(st[0].allocationElements(), 3 + 256 * 72);
  EXPECT_EQ(st[0].index(0, 2, 5), 3 + 2 * 72 + 5);
  EXPECT_TRUE(!st[0].isPacked());
  EXPECT_EQ(st[1].ld, 80);
  EXPECT_EQ(st[2].ld, 520);
  // A leading dimension equal to the row length, with no offset, is packed.
  EXPECT_TRUE(resolveStorage(k, s, request(64))[0].isPacked());
  // Offsets alone.
  StorageRequests offsets;
  offsets[1].offset = 5;
  EXPECT_TRUE(!resolveStorage(k, s, offsets)[1].isPacked());

  // Batched: batch stride rows*ld.
  KernelManifest batched = batchedKernel();
  GemmShape bs = resolveShape(batched, 100, 30, 20, 3);
  OperandStorages bst = resolveStorage(batched, bs, request(24, 24, 32));
  EXPECT_EQ(bst[0].batch, 3);
  EXPECT_EQ(bst[0].batchStride, 100 * 24);
  EXPECT_EQ(bst[0].allocationElements(), 3 * 100 * 24);
  EXPECT_EQ(bst[1].batchStride, 30 * 24);
  EXPECT_EQ(bst[2].batchStride, 100 * 32);
  EXPECT_EQ(bst[2].packedElements(), 3 * 100 * 30);
  EXPECT_EQ(resolveStorage(batched, bs, StorageRequests())[2].batchStride,
            100 * 30);
}

TEST(problemStorageErrors) {
  GemmShape s{256, 512, 64};
  // Only strided arguments take a leading dimension or offset.
  KernelManifest onlyA = stridedKernel("a");
  resolveStorage(onlyA, s, request(100));
  EXPECT_ERROR(resolveStorage(onlyA, s, request(std::nullopt, 64)),
               ErrorKind::Unsupported,
               "--ldb 64: argument 'b' of kernel 'gemm_f16_f32_kernel' is not "
               "strided (its manifest entry has no \"strided\": true), so B "
               "must have packed rows");
  StorageRequests offsetC;
  offsetC[2].offset = 0;
  EXPECT_ERROR(resolveStorage(onlyA, s, offsetC), ErrorKind::Unsupported,
               "--offset-c 0: argument 'c' of kernel 'gemm_f16_f32_kernel' is "
               "not strided (its manifest entry has no \"strided\": true), so "
               "C must start at offset 0");
  // Below the row length of the stored matrix.
  KernelManifest all = stridedKernel("abc");
  EXPECT_ERROR(resolveStorage(all, s, request(63)), ErrorKind::Usage,
               "--lda 63 is less than the row length of A: A (layout row) is "
               "stored as M x K = 256 x 64 row-major, so --lda must be at "
               "least 64");
  EXPECT_ERROR(resolveStorage(all, s, request(std::nullopt, 32)),
               ErrorKind::Usage,
               "--ldb 32 is less than the row length of B: B (layout col) is "
               "stored as N x K = 512 x 64 row-major, so --ldb must be at "
               "least 64");
  EXPECT_ERROR(resolveStorage(all, s, request(std::nullopt, std::nullopt, 511)),
               ErrorKind::Usage,
               "--ldc 511 is less than the row length of C: C (layout row) is "
               "stored as M x N = 256 x 512 row-major, so --ldc must be at "
               "least 512");
  EXPECT_ERROR(resolveStorage(all, s, request(0)), ErrorKind::Usage,
               "--lda 0: a leading dimension must be positive");
  StorageRequests negative;
  negative[0].offset = -2;
  EXPECT_ERROR(resolveStorage(all, s, negative), ErrorKind::Usage,
               "--offset-a -2: an offset cannot be negative");
  // s4: two per byte.
  KernelManifest s4 = stridedKernel("ab", "s4");
  resolveStorage(s4, s, request(66, 66));
  EXPECT_ERROR(resolveStorage(s4, s, request(65)), ErrorKind::Usage,
               "--lda 65: A is s4 (two elements per byte), so its leading "
               "dimension must be even, for every row to start on a byte");
  StorageRequests odd;
  odd[1].offset = 3;
  EXPECT_ERROR(resolveStorage(s4, s, odd), ErrorKind::Usage,
               "--offset-b 3: B is s4 (two elements per byte), so its offset "
               "must be even, for it to start on a byte");
  // Sizes whose products overflow int64 are refused, not wrapped.
  EXPECT_ERROR(resolveStorage(all, s, request(INT64_MAX)),
               ErrorKind::Unsupported,
               "A at M=256 N=512 K=64 with --lda 9223372036854775807 would "
               "span more than 2^48 elements");
  StorageRequests far;
  far[2].offset = INT64_MAX;
  EXPECT_ERROR(resolveStorage(all, s, far), ErrorKind::Unsupported,
               "C at M=256 N=512 K=64 with --offset-c 9223372036854775807 "
               "would span more than 2^48 elements");
  KernelManifest batched = batchedKernel();
  GemmShape big = resolveShape(batched, 1 << 20, 1, 64, 1 << 20);
  EXPECT_ERROR(resolveStorage(batched, big, request(1 << 20)),
               ErrorKind::Unsupported,
               "A at M=1048576 N=1 K=64 batch=1048576 with --lda 1048576 "
               "would span more than 2^48 elements");
  far[2].offset = (int64_t(1) << 48) - 1;
  EXPECT_ERROR(resolveStorage(all, s, far), ErrorKind::Unsupported,
               "would span more than 2^48 elements");
}

namespace {
/// TestSupport's transpose kernel as a batched tf32 GEMM whose A is stored
/// column-major (K x M) and B row-major (K x N), both read from transposed
/// copies (A's in 32 x 128 tiles by 128 threads), split into `splitK`
/// parts of K.
KernelManifest tf32BothTransposed(int64_t splitK = 1) {
  KernelManifest k = tgemm::test::transposeKernel();
  k.gemm.a = {ElementType::TF32, Layout::Col};
  k.gemm.b = {ElementType::TF32, Layout::Row};
  k.gemm.c = {ElementType::F32, Layout::Row};
  k.gemm.acc = ElementType::F32;
  k.batched = true;
  for (KernelArg &arg : k.args) {
    arg.rank = 3;
    arg.type = arg.operand == Operand::C ? ElementType::F32 : ElementType::TF32;
  }
  OperandTranspose a;
  a.operand = Operand::A;
  a.kernel = "transpose_a";
  a.tile = {32, 128};
  a.threads = 128;
  k.transposes.insert(k.transposes.begin(), a);
  k.config.splitK = splitK;
  k.grid[2].times = splitK;
  return k;
}
} // namespace

TEST(problemTransposedCopyS8) {
  // B row is stored K x N = 100 x 200; its copy is N x K, rows padded to
  // 112 (16 s8 elements), 22400 bytes taking 22528 of the workspace.
  KernelManifest k = tgemm::test::transposeKernel();
  GemmShape shape{256, 200, 100};
  EXPECT_TRUE(takesWorkspace(k));
  TransposedCopy copy = transposedCopy(k, Operand::B, shape);
  EXPECT_EQ(copy.storage.batch, 1);
  EXPECT_EQ(copy.storage.rows, 200);
  EXPECT_EQ(copy.storage.cols, 100);
  EXPECT_EQ(copy.storage.ld, 112);
  EXPECT_EQ(copy.storage.batchStride, 200 * 112);
  EXPECT_EQ(copy.storage.offset, 0);
  EXPECT_EQ(copy.offset, 0);
  EXPECT_EQ(copy.bytes, 22528);
  EXPECT_EQ(workspaceBytes(k, shape), int64_t(22528));
  // A K that is a multiple of 16 needs no padding; 16 x 16 bytes is 256.
  TransposedCopy even = transposedCopy(k, Operand::B, GemmShape{16, 16, 64});
  EXPECT_EQ(even.storage.ld, 64);
  EXPECT_EQ(even.bytes, 1024);
  EXPECT_EQ(workspaceBytes(k, GemmShape{16, 16, 64}), int64_t(1024));
  // A is read where it is stored.
  EXPECT_ERROR(transposedCopy(k, Operand::A, shape), ErrorKind::Input,
               "kernel 'gemm_s8_kernel' reads a where it is stored, not from "
               "a copy");
  // Without transposes and split K: no workspace.
  k.transposes.clear();
  EXPECT_TRUE(!takesWorkspace(k));
  EXPECT_EQ(workspaceBytes(k, shape), int64_t(0));
}

TEST(problemTransposedCopiesBatchedTf32) {
  // M=100, N=64, K=30, 3 matrices. A col (K x M = 30 x 100) becomes
  // M x K, rows padded to 32 (16 bytes of f32): 3 x 100 x 32 x 4 = 38400
  // bytes; B row (30 x 64) becomes 64 x 30, ld 32: 24576 bytes, after A's.
  KernelManifest k = tf32BothTransposed();
  GemmShape shape{100, 64, 30, 3, true};
  TransposedCopy a = transposedCopy(k, Operand::A, shape);
  EXPECT_EQ(a.storage.batch, 3);
  EXPECT_EQ(a.storage.rows, 100);
  EXPECT_EQ(a.storage.cols, 30);
  EXPECT_EQ(a.storage.ld, 32);
  EXPECT_EQ(a.storage.batchStride, 3200);
  EXPECT_EQ(a.offset, 0);
  EXPECT_EQ(a.bytes, 38400);
  TransposedCopy b = transposedCopy(k, Operand::B, shape);
  EXPECT_EQ(b.storage.rows, 64);
  EXPECT_EQ(b.storage.cols, 30);
  EXPECT_EQ(b.storage.ld, 32);
  EXPECT_EQ(b.storage.batchStride, 64 * 32);
  EXPECT_EQ(b.offset, 38400);
  EXPECT_EQ(b.bytes, 24576);
  EXPECT_EQ(workspaceBytes(k, shape), int64_t(38400 + 24576));
}

TEST(problemAlignedCopiesF16) {
  // f16 at 4095 x 4097 x 999, A row (4095 x 999) and B col (4097 x 999),
  // both copied as stored with rows of 1000 elements (16 bytes of f16):
  // A 4095 x 1000 x 2 = 8190000 bytes taking 8190208, B 8194000 taking
  // 8194048, after A's.
  KernelManifest k = tgemm::test::transposeKernel();
  k.gemm.a = {ElementType::F16, Layout::Row};
  k.gemm.b = {ElementType::F16, Layout::Col};
  k.gemm.acc = ElementType::F32;
  k.gemm.c = {ElementType::F32, Layout::Row};
  OperandTranspose a = k.transposes[0];
  a.operand = Operand::A;
  a.kernel = "align_a";
  a.tile = {16, 256};
  a.transpose = false;
  OperandTranspose b = a;
  b.operand = Operand::B;
  b.kernel = "align_b";
  k.transposes = {a, b};
  GemmShape shape{4095, 4097, 999};
  EXPECT_TRUE(takesWorkspace(k));
  TransposedCopy ca = transposedCopy(k, Operand::A, shape);
  EXPECT_EQ(ca.storage.rows, 4095);
  EXPECT_EQ(ca.storage.cols, 999);
  EXPECT_EQ(ca.storage.ld, 1000);
  EXPECT_EQ(ca.storage.batchStride, 4095 * 1000);
  EXPECT_EQ(ca.offset, 0);
  EXPECT_EQ(ca.bytes, 8190208);
  TransposedCopy cb = transposedCopy(k, Operand::B, shape);
  EXPECT_EQ(cb.storage.rows, 4097);
  EXPECT_EQ(cb.storage.cols, 999);
  EXPECT_EQ(cb.storage.ld, 1000);
  EXPECT_EQ(cb.offset, 8190208);
  EXPECT_EQ(cb.bytes, 8194048);
  EXPECT_EQ(workspaceBytes(k, shape), int64_t(8190208 + 8194048));
  // The aligning kernel's grid runs over the operand as stored: x over its
  // 999 columns (4 tiles of 256), y over its rows (256 of 16).
  LaunchDims dims = computeTransposeLaunch(k, k.transposes[0], shape);
  EXPECT_EQ(dims.grid[0], 4u);
  EXPECT_EQ(dims.grid[1], 256u);
  EXPECT_EQ(dims.grid[2], 1u);
  EXPECT_EQ(dims.block[0], 256u);
  // An s8 A with K = 1001 gets rows of 1008.
  k.gemm.a.type = ElementType::S8;
  EXPECT_EQ(transposedCopy(k, Operand::A, GemmShape{64, 64, 1001}).storage.ld,
            1008);
}

TEST(problemTransposedCopiesAfterSplitK) {
  // Split K's semaphores (3 tiles, 256 bytes) and parts (3 x 2 x 100 x 65
  // f32 = 156000 bytes) come first; A's copy starts at the next multiple of
  // 256 (156416), B's after A's 38400 bytes; B's 3 x 65 x 32 x 4 = 24960
  // bytes take 25088.
  KernelManifest k = tf32BothTransposed(2);
  GemmShape shape{100, 65, 30, 3, true};
  TransposedCopy a = transposedCopy(k, Operand::A, shape);
  TransposedCopy b = transposedCopy(k, Operand::B, shape);
  EXPECT_EQ(a.offset, 156416);
  EXPECT_EQ(a.bytes, 38400);
  EXPECT_EQ(b.offset, 156416 + 38400);
  EXPECT_EQ(b.bytes, 25088);
  EXPECT_EQ(workspaceBytes(k, shape), int64_t(156416 + 38400 + 25088));
  // Only B: its copy follows split K's part directly.
  k.transposes.erase(k.transposes.begin());
  EXPECT_EQ(transposedCopy(k, Operand::B, shape).offset, 156416);
  EXPECT_EQ(workspaceBytes(k, shape), int64_t(156416 + 25088));
}

TEST(problemTransposeLaunch) {
  // B is stored K x N = 100 x 200: 64 x 64 tiles, grid x over its 200
  // columns, y over its 100 rows.
  KernelManifest k = tgemm::test::transposeKernel();
  LaunchDims dims =
      computeTransposeLaunch(k, k.transposes[0], GemmShape{256, 200, 100});
  EXPECT_EQ(dims.grid[0], 4u);
  EXPECT_EQ(dims.grid[1], 2u);
  EXPECT_EQ(dims.grid[2], 1u);
  EXPECT_EQ(dims.block[0], 256u);
  EXPECT_EQ(dims.block[1], 1u);
  EXPECT_EQ(dims.block[2], 1u);
  EXPECT_EQ(dims.dynamicSharedMemory, 0u);
  // A col of a batch (K x M = 30 x 100) in 32 x 128 tiles: one per matrix.
  KernelManifest both = tf32BothTransposed();
  LaunchDims a = computeTransposeLaunch(both, both.transposes[0],
                                        GemmShape{100, 64, 30, 3, true});
  EXPECT_EQ(a.grid[0], 1u);
  EXPECT_EQ(a.grid[1], 1u);
  EXPECT_EQ(a.grid[2], 3u);
  EXPECT_EQ(a.block[0], 128u);
  // Beyond CUDA's grid: refused, by computeLaunch too.
  k.transposes[0].tile = {1, 64};
  GemmShape deep{128, 128, 70000};
  EXPECT_ERROR(computeTransposeLaunch(k, k.transposes[0], deep),
               ErrorKind::Unsupported,
               "the transposing kernel 'gemm_s8_kernel_transpose_b' of "
               "operand b needs grid.y = 70000, beyond CUDA's limit of 65535 "
               "for shape M=128 N=128 K=70000");
  EXPECT_ERROR(computeLaunch(k, deep), ErrorKind::Unsupported,
               "needs grid.y = 70000");
}

TEST(problemShapeOfStorages) {
  KernelManifest k = tf32BothTransposed();
  GemmShape shape{100, 64, 30, 3, true};
  GemmShape back = shapeOfStorages(k, packedStorage(k, shape));
  EXPECT_EQ(back.m, 100);
  EXPECT_EQ(back.n, 64);
  EXPECT_EQ(back.k, 30); // from A col's rows
  EXPECT_EQ(back.batch, 3);
  EXPECT_TRUE(back.batched);
  KernelManifest s8 = tgemm::test::transposeKernel();
  EXPECT_EQ(shapeOfStorages(s8, packedStorage(s8, GemmShape{8, 16, 24})).k,
            24); // from A row's columns
}
