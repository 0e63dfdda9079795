//===- KernelArgsTest.cpp - Memref descriptor packing ---------------------===//

#include "TestSupport.h"

#include "tgemm/runtime/KernelArgs.h"

#include <vector>

using namespace tgemm::runtime;

namespace {
KernelManifest example(const char *aLayout, const char *bLayout) {
  std::string text = tgemm::test::exampleManifest();
  text = REPLACE(text, R"("a": {"type": "f16", "layout": "row"})",
                 std::string(R"("a": {"type": "f16", "layout": ")") +
                     aLayout + "\"}");
  text = REPLACE(text, R"("b": {"type": "f16", "layout": "col"})",
                 std::string(R"("b": {"type": "f16", "layout": ")") +
                     bLayout + "\"}");
  text = REPLACE(text, R"({"m": 4096, "n": 4096, "k": 4096})",
                 R"({"m": null, "n": null, "k": null})");
  return parseManifest(text, "m.json").kernels[0];
}

using Values = std::vector<uint64_t>;
const uint64_t A = 0x7f0000001000, B = 0x7f0000200000, C = 0x7f0000400000;
} // namespace

TEST(kernelArgsRowCol) {
  // M=256, N=512, K=64; A row (MxK), B col (NxK), C row (MxN).
  KernelArgs args(example("row", "col"), GemmShape{256, 512, 64}, {A, B, C});
  Values expected = {A, A, 0, 256, 64, 64, 1,   //
                     B, B, 0, 512, 64, 64, 1,   //
                     C, C, 0, 256, 512, 512, 1};
  EXPECT_TRUE(args.values() == expected);
}

TEST(kernelArgsColRow) {
  // A col is KxM (strides [M, 1]); B row is KxN.
  KernelArgs args(example("col", "row"), GemmShape{256, 512, 64}, {A, B, C});
  Values expected = {A, A, 0, 64, 256, 256, 1, //
                     B, B, 0, 64, 512, 512, 1, //
                     C, C, 0, 256, 512, 512, 1};
  EXPECT_TRUE(args.values() == expected);
}

TEST(kernelArgsFollowManifestOrder) {
  KernelManifest k = example("row", "row");
  std::swap(k.args[0], k.args[2]); // c, b, a
  KernelArgs args(k, GemmShape{8, 16, 32}, {A, B, C});
  Values expected = {C, C, 0, 8, 16, 16, 1, //
                     B, B, 0, 32, 16, 16, 1, //
                     A, A, 0, 8, 32, 32, 1};
  EXPECT_TRUE(args.values() == expected);
}

TEST(kernelArgsPointers) {
  KernelArgs args(example("row", "col"), GemmShape{128, 128, 32}, {A, B, C});
  void **pointers = args.pointers();
  EXPECT_EQ(args.values().size(), size_t(21));
  for (size_t i = 0; i < args.values().size(); ++i)
    EXPECT_TRUE(*static_cast<uint64_t *>(pointers[i]) == args.values()[i]);
}

TEST(kernelArgsStrided) {
  // A row (M x K) with lda 72 and offset 3, B col (N x K) packed, C (M x N)
  // with ldc 520: allocated = aligned = the allocation, the offset and the
  // row stride in the descriptor.
  KernelManifest k = example("row", "col");
  for (KernelArg &arg : k.args)
    arg.strided = true;
  GemmShape shape{256, 512, 64};
  StorageRequests requests;
  requests[0] = {72, 3};
  requests[2] = {520, std::nullopt};
  KernelArgs args(k, resolveStorage(k, shape, requests), {A, B, C});
  Values expected = {A, A, 3, 256, 64, 72, 1, //
                     B, B, 0, 512, 64, 64, 1, //
                     C, C, 0, 256, 512, 520, 1};
  EXPECT_TRUE(args.values() == expected);
  // With no requests, the same as the packed constructor.
  KernelArgs packed(k, resolveStorage(k, shape, StorageRequests()), {A, B, C});
  EXPECT_TRUE(packed.values() ==
              KernelArgs(k, shape, {A, B, C}).values());
}

TEST(kernelArgsBatched) {
  // Rank 3: sizes [batch, rows, cols], strides [batchStride, ld, 1].
  KernelManifest k = parseManifest(tgemm::test::batchedManifest(), "m.json")
                         .kernels[0];
  GemmShape shape = resolveShape(k, 100, 30, 20, 4);
  KernelArgs packed(k, shape, {A, B, C});
  Values expected = {A, A, 0, 4, 100, 20, 100 * 20, 20, 1, //
                     B, B, 0, 4, 30, 20, 30 * 20, 20, 1,   //
                     C, C, 0, 4, 100, 30, 100 * 30, 30, 1};
  EXPECT_TRUE(packed.values() == expected);
  EXPECT_EQ(packed.values().size(), size_t(27));
  StorageRequests requests;
  requests[0] = {24, 8};
  requests[2] = {32, 1};
  KernelArgs strided(k, resolveStorage(k, shape, requests), {A, B, C});
  Values stridedExpected = {A, A, 8, 4, 100, 20, 100 * 24, 24, 1, //
                            B, B, 0, 4, 30, 20, 30 * 20, 20, 1,   //
                            C, C, 1, 4, 100, 30, 100 * 32, 32, 1};
  EXPECT_TRUE(strided.values() == stridedExpected);
}

TEST(kernelArgsTensorMapsByValue) {
  // After every memref parameter, one 128-byte parameter per map, then the
  // 32-bit flag: zeros and 0 (copy with cp.async) until set.
  KernelManifest k = example("row", "col");
  TensorMapArg a, b;
  a.operand = Operand::A;
  a.box = {128, 64};
  b.operand = Operand::B;
  b.box = {128, 64};
  k.tensorMaps = {a, b};
  KernelArgs args(k, GemmShape{256, 512, 64}, {A, B, C});
  EXPECT_EQ(args.values().size(), size_t(21));
  EXPECT_EQ(args.mapValues().size(), size_t(2));
  EXPECT_EQ(args.mapsMadeFlag(), 0u);
  void **pointers = args.pointers();
  EXPECT_EQ(static_cast<TensorMapValue *>(pointers[21])->words[0], 0u);
  EXPECT_EQ(*static_cast<uint32_t *>(pointers[23]), 0u);
  TensorMapValue first, second;
  first.words[0] = 0x1111;
  second.words[15] = 0x2222;
  args.setTensorMapValues({first, second}, true);
  pointers = args.pointers();
  EXPECT_EQ(static_cast<TensorMapValue *>(pointers[21])->words[0], 0x1111u);
  EXPECT_EQ(static_cast<TensorMapValue *>(pointers[22])->words[15], 0x2222u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(pointers[21]) % 64, uintptr_t(0));
  EXPECT_EQ(*static_cast<uint32_t *>(pointers[23]), 1u);
  args.setTensorMapValues({first, second}, false);
  EXPECT_EQ(*static_cast<uint32_t *>(args.pointers()[23]), 0u);
  EXPECT_ERROR(args.setTensorMapValues({first}, true), ErrorKind::Input,
               "the kernel takes 2 tensor maps, not 1");
  EXPECT_ERROR(args.setTensorMaps({0, 0}), ErrorKind::Input,
               "the kernel takes its tensor maps by value, not by address");
}

TEST(kernelArgsTensorMaps) {
  // By address: one 64-bit parameter per tensor map, after every memref
  // parameter: 0 (copy with cp.async) until set.
  KernelManifest k = example("row", "col");
  TensorMapArg a, b;
  a.operand = Operand::A;
  a.box = {128, 64};
  a.passing = MapPassing::Global;
  b.operand = Operand::B;
  b.box = {128, 64};
  b.passing = MapPassing::Global;
  k.tensorMaps = {a, b};
  KernelArgs args(k, GemmShape{256, 512, 64}, {A, B, C});
  Values expected = {A, A, 0, 256, 64, 64, 1,   //
                     B, B, 0, 512, 64, 64, 1,   //
                     C, C, 0, 256, 512, 512, 1, //
                     0, 0};
  EXPECT_TRUE(args.values() == expected);
  const uint64_t mapA = 0x7f0000600000, mapB = 0x7f0000600080;
  args.setTensorMaps({mapA, 0});
  expected[21] = mapA;
  EXPECT_TRUE(args.values() == expected);
  args.setTensorMaps({mapA, mapB});
  expected[22] = mapB;
  EXPECT_TRUE(args.values() == expected);
  void **pointers = args.pointers();
  EXPECT_EQ(*static_cast<uint64_t *>(pointers[22]), mapB);
  EXPECT_ERROR(args.setTensorMaps({mapA}), ErrorKind::Input,
               "the kernel takes 2 tensor-map parameters, not 1");
  // A kernel without tensor maps takes an empty list.
  KernelArgs plain(example("row", "col"), GemmShape{256, 512, 64}, {A, B, C});
  plain.setTensorMaps({});
  EXPECT_EQ(plain.values().size(), size_t(21));
}

namespace {
/// TestSupport's epilogue kernel (scale(col) f32, bias(row) f16, residual
/// bf16, gelu_tanh) with dynamic sizes.
KernelManifest epilogueKernel() { return tgemm::test::dynamicEpilogueKernel(); }
const uint64_t S = 0x7f0000600000, Bias = 0x7f0000700000, R = 0x7f0000800000;
} // namespace

TEST(kernelArgsEpilogueOperands) {
  KernelManifest k = epilogueKernel();
  OperandAddresses addresses;
  addresses.a = A;
  addresses.b = B;
  addresses.c = C;
  addresses.epilogue = {S, Bias, R};
  // M=256, N=512, K=64: scale is N long, bias M long, the residual M x N.
  KernelArgs args(k, GemmShape{256, 512, 64}, addresses);
  Values expected = {A,    A,    0, 256, 64,  64,  1, //
                     B,    B,    0, 512, 64,  64,  1, //
                     C,    C,    0, 256, 512, 512, 1, //
                     S,    S,    0, 512, 1,           //
                     Bias, Bias, 0, 256, 1,           //
                     R,    R,    0, 256, 512, 512, 1};
  EXPECT_TRUE(args.values() == expected);
  EXPECT_EQ(args.values().size(), size_t(3 * 7 + 2 * 5 + 7));
  // Too few or too many addresses are refused, not launched.
  addresses.epilogue.pop_back();
  EXPECT_ERROR(KernelArgs(k, GemmShape{256, 512, 64}, addresses),
               ErrorKind::Input,
               "kernel 'gemm_f16_f32_kernel' reads 3 epilogue operands, but "
               "2 addresses were given");
  // A kernel without an epilogue takes none.
  addresses.epilogue = {S};
  EXPECT_ERROR(KernelArgs(example("row", "col"), GemmShape{8, 8, 8}, addresses),
               ErrorKind::Input, "reads 0 epilogue operands, but 1");
}

TEST(kernelArgsEpilogueBeforeWorkspaceAndScalar) {
  KernelManifest k = epilogueKernel();
  // One scalar bias, then split K: the workspace follows the epilogue.
  k.epilogue = {k.epilogue[1]};
  k.epilogue[0].broadcast = Broadcast::Scalar;
  k.epilogue[0].arg = 3;
  k.args.resize(4);
  k.args[3].type = ElementType::F16;
  k.config.splitK = 2;
  OperandAddresses addresses;
  addresses.a = A;
  addresses.b = B;
  addresses.c = C;
  addresses.workspace = 0x7f0000900000;
  addresses.epilogue = {Bias};
  GemmShape shape{128, 128, 64};
  KernelArgs args(k, shape, addresses);
  Values tail(args.values().end() - 10, args.values().end());
  Values expected = {Bias,
                     Bias,
                     0,
                     1,
                     1, //
                     addresses.workspace,
                     addresses.workspace,
                     0,
                     static_cast<uint64_t>(workspaceBytes(k, shape)),
                     1};
  EXPECT_TRUE(tail == expected);
}

TEST(kernelArgsEpilogueBatchedResidual) {
  std::string text = tgemm::test::batchedManifest();
  text = REPLACE(text, R"("version": 2)", R"("version": 4)");
  text = REPLACE(text, R"("rank": 3, "strided": true}
      ])",
                 R"("rank": 3, "strided": true},
        {"name": "epilogue0", "kind": "memref", "type": "f16", "rank": 1},
        {"name": "epilogue1", "kind": "memref", "type": "f32", "rank": 3}
      ],
      "epilogue": [{"op": "bias", "broadcast": "col", "arg": "epilogue0"},
                   {"op": "residual", "arg": "epilogue1"}, {"op": "silu"}])");
  KernelManifest k = parseManifest(text, "m.json").kernels[0];
  GemmShape shape{64, 32, 16, 4, true};
  // The vector is shared by the batch; the residual is batch x M x N.
  EpilogueOperandShape bias = epilogueOperandShape(k, 3, shape);
  EXPECT_EQ(bias.rank, 1);
  EXPECT_EQ(bias.elements, int64_t(32));
  EpilogueOperandShape residual = epilogueOperandShape(k, 4, shape);
  EXPECT_EQ(residual.rank, 3);
  EXPECT_EQ(residual.elements, int64_t(4 * 64 * 32));
  EXPECT_TRUE((residual.strides() == std::array<int64_t, 3>{64 * 32, 32, 1}));
  EXPECT_EQ(describeEpilogueOperand(k, 4, shape),
            std::string("epilogue1: residual f32[4 x 64 x 32]"));
  EXPECT_EQ(describeEpilogue(k), std::string("bias(col),residual,silu"));
  EXPECT_TRUE((epilogueArgIndices(k) == std::vector<size_t>{3, 4}));
  EXPECT_ERROR(epilogueOperandShape(k, 2, shape), ErrorKind::Input,
               "has no epilogue argument at index 2");
  OperandAddresses addresses;
  addresses.a = A;
  addresses.b = B;
  addresses.c = C;
  addresses.epilogue = {Bias, R};
  KernelArgs args(k, packedStorage(k, shape), addresses);
  Values tail(args.values().end() - 14, args.values().end());
  Values expected = {Bias, Bias, 0, 32, 1, //
                     R,    R,    0, 4,  64, 32, 64 * 32, 32, 1};
  // 5 + 9 values: the vector, then the rank-3 residual.
  EXPECT_TRUE(tail == expected);
}

namespace {
const uint64_t W = 0x7f0000900000; // a workspace
} // namespace

TEST(kernelArgsTransposedCopy) {
  // s8, B row (K x N = 100 x 200) read from its copy (N x K, ld 112) at
  // the workspace's start; no split K, and still a workspace parameter.
  KernelManifest k = tgemm::test::transposeKernel();
  EXPECT_EQ(k.config.splitK, int64_t(1));
  OperandAddresses addresses;
  addresses.a = A;
  addresses.b = B;
  addresses.c = C;
  addresses.workspace = W;
  GemmShape shape{256, 200, 100};
  KernelArgs args(k, shape, addresses);
  Values expected = {A, A, 0, 256,   100, 100, 1, //
                     W, W, 0, 200,   100, 112, 1, //
                     C, C, 0, 256,   200, 200, 1, //
                     W, W, 0, 22528, 1};
  EXPECT_TRUE(args.values() == expected);
  // Its tensor maps (by value) follow: two maps and the flag.
  EXPECT_EQ(args.mapValues().size(), size_t(2));
  // The transposing kernel: B as the caller stores it, then the copy.
  EXPECT_EQ(args.transposes().size(), size_t(1));
  TransposeArgs &t = args.transposes()[0];
  EXPECT_EQ(t.transpose().kernel, std::string("gemm_s8_kernel_transpose_b"));
  Values transposeExpected = {B, B, 0, 100, 200, 200, 1, //
                              W, W, 0, 200, 100, 112, 1};
  EXPECT_TRUE(t.values() == transposeExpected);
  EXPECT_EQ(t.dims().grid[0], 4u); // ceil(200 / 64)
  EXPECT_EQ(t.dims().grid[1], 2u); // ceil(100 / 64)
  EXPECT_EQ(t.dims().grid[2], 1u);
  EXPECT_EQ(t.dims().block[0], 256u);
  EXPECT_EQ(t.dims().dynamicSharedMemory, 0u);
  void **pointers = t.pointers();
  EXPECT_EQ(*static_cast<uint64_t *>(pointers[0]), B);
  EXPECT_EQ(*static_cast<uint64_t *>(pointers[7]), W);
  EXPECT_EQ(*static_cast<uint64_t *>(pointers[13]), uint64_t(1));
  // The GEMM kernel reads the copy; A and C where they are.
  OperandStorages storages = packedStorage(k, shape);
  OperandSource b = kernelOperand(k, storages, addresses, Operand::B);
  EXPECT_EQ(b.address, W);
  EXPECT_EQ(b.storage.ld, 112);
  EXPECT_EQ(b.storage.rows, 200);
  OperandSource a = kernelOperand(k, storages, addresses, Operand::A);
  EXPECT_EQ(a.address, A);
  EXPECT_EQ(a.storage.ld, 100);
  EXPECT_EQ(kernelOperand(k, storages, addresses, Operand::C).address, C);
  // Without transposes: no workspace parameter, no transposing launch.
  KernelManifest plain = k;
  plain.transposes.clear();
  KernelArgs direct(plain, shape, addresses);
  EXPECT_EQ(direct.values().size(), size_t(3 * 7));
  EXPECT_EQ(direct.values()[7], B);
  EXPECT_TRUE(direct.transposes().empty());
}

TEST(kernelArgsTransposedCopyOfStridedOperand) {
  // B with padded rows (ld 256) and an offset: the transposing kernel
  // reads it so; the copy is packed to 16 bytes regardless.
  KernelManifest k = tgemm::test::transposeKernel();
  StorageRequests requests;
  requests[1].ld = 256;
  requests[1].offset = 8;
  OperandStorages storages =
      resolveStorage(k, GemmShape{256, 200, 100}, requests);
  OperandAddresses addresses;
  addresses.a = A;
  addresses.b = B;
  addresses.c = C;
  addresses.workspace = W;
  KernelArgs args(k, storages, addresses);
  Values transposeExpected = {B, B, 8, 100, 200, 256, 1, //
                              W, W, 0, 200, 100, 112, 1};
  EXPECT_TRUE(args.transposes()[0].values() == transposeExpected);
  Values bExpected = {W, W, 0, 200, 100, 112, 1};
  EXPECT_TRUE(Values(args.values().begin() + 7, args.values().begin() + 14) ==
              bExpected);
}

TEST(kernelArgsTransposedCopiesBatchedAfterSplitK) {
  // Batched tf32, A col and B row both read from copies, split K into 2:
  // A's copy at 156416 bytes into the workspace, B's at 194816
  // (ProblemTest's problemTransposedCopiesAfterSplitK).
  KernelManifest k = tgemm::test::transposeKernel();
  k.gemm.a = {ElementType::TF32, Layout::Col};
  k.gemm.b = {ElementType::TF32, Layout::Row};
  k.gemm.c = {ElementType::F32, Layout::Row};
  k.gemm.acc = ElementType::F32;
  k.batched = true;
  for (KernelArg &arg : k.args) {
    arg.rank = 3;
    arg.type = ElementType::F32; // tf32 lies in memory as f32
  }
  OperandTranspose a;
  a.operand = Operand::A;
  a.kernel = "transpose_a";
  a.tile = {32, 128};
  a.threads = 128;
  k.transposes.insert(k.transposes.begin(), a);
  k.config.splitK = 2;
  k.grid[2].times = 2;
  OperandAddresses addresses;
  addresses.a = A;
  addresses.b = B;
  addresses.c = C;
  addresses.workspace = W;
  GemmShape shape{100, 65, 30, 3, true};
  KernelArgs args(k, shape, addresses);
  const uint64_t WA = W + 156416, WB = W + 156416 + 38400;
  Values expected = {WA,  WA, 0,    3,
                     100, 30, 3200, 32,
                     1, //
                     WB,  WB, 0,    3,
                     65,  30, 2080, 32,
                     1, //
                     C,   C,  0,    3,
                     100, 65, 6500, 65,
                     1, //
                     W,   W,  0,    156416 + 38400 + 25088,
                     1};
  EXPECT_TRUE(args.values() == expected);
  EXPECT_EQ(args.transposes().size(), size_t(2));
  // A (K x M = 30 x 100 per matrix), then its copy (M x K, ld 32).
  Values aExpected = {A,  A,  0, 3, 30,  100, 3000, 100, 1, //
                      WA, WA, 0, 3, 100, 30,  3200, 32,  1};
  EXPECT_TRUE(args.transposes()[0].values() == aExpected);
  EXPECT_EQ(args.transposes()[0].dims().grid[0], 1u);
  EXPECT_EQ(args.transposes()[0].dims().grid[1], 1u);
  EXPECT_EQ(args.transposes()[0].dims().grid[2], 3u);
  EXPECT_EQ(args.transposes()[0].dims().block[0], 128u);
  // B (K x N = 30 x 65), then its copy (N x K).
  Values bExpected = {B,  B,  0, 3, 30, 65, 1950, 65, 1, //
                      WB, WB, 0, 3, 65, 30, 2080, 32, 1};
  EXPECT_TRUE(args.transposes()[1].values() == bExpected);
  EXPECT_EQ(args.transposes()[1].dims().grid[0], 2u); // ceil(65 / 64)
  EXPECT_EQ(args.transposes()[1].dims().grid[1], 1u);
  EXPECT_EQ(args.transposes()[1].dims().grid[2], 3u);
}
