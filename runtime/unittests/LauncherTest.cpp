//===- LauncherTest.cpp - The launch API's checks, without a device -------===//

#include "TestSupport.h"

#include "tgemm/runtime/Launcher.h"
#include "tgemm/runtime/c_api.h"

#include <cstring>

using namespace tgemm::runtime;

namespace {
/// The example kernel (f16, A row, B col, C f32 row) with dynamic sizes and
/// packed (not strided) arguments; `requirements` as given.
KernelManifest dynamicExample() {
  std::string text = tgemm::test::exampleManifest();
  text = REPLACE(text, R"({"m": 4096, "n": 4096, "k": 4096})",
                 R"({"m": null, "n": null, "k": null})");
  return parseManifest(text, "m.json").kernels[0];
}

LaunchRequest request(int64_t m, int64_t n, int64_t k) {
  LaunchRequest r;
  r.m = m;
  r.n = n;
  r.k = k;
  r.operands[0].data = 0x7f0000001000;
  r.operands[1].data = 0x7f0000200000;
  r.operands[2].data = 0x7f0000400000;
  return r;
}
} // namespace

TEST(launchResolvesPackedOperands) {
  KernelManifest k = dynamicExample();
  ResolvedLaunch r = resolveLaunch(k, request(256, 512, 64));
  // A row: M x K; B col: N x K; C: M x N; packed, offset 0, at the
  // caller's addresses.
  EXPECT_EQ(r.storages[0].rows, 256);
  EXPECT_EQ(r.storages[0].cols, 64);
  EXPECT_EQ(r.storages[0].ld, 64);
  EXPECT_EQ(r.storages[1].rows, 512);
  EXPECT_EQ(r.storages[1].ld, 64);
  EXPECT_EQ(r.storages[2].ld, 512);
  EXPECT_EQ(r.storages[2].offset, 0);
  EXPECT_EQ(r.addresses.c, 0x7f0000400000u);
  EXPECT_EQ(r.shape.m, 256);
  // An explicit leading dimension equal to the row length is packed.
  LaunchRequest same = request(256, 512, 64);
  same.operands[2].ld = 512;
  EXPECT_EQ(resolveLaunch(k, same).storages[2].ld, 512);
}

TEST(launchRejectsBadOperands) {
  KernelManifest k = dynamicExample();
  LaunchRequest null = request(256, 512, 64);
  null.operands[1].data = 0;
  EXPECT_ERROR(resolveLaunch(k, null), ErrorKind::Usage,
               "argument 'b' is a null pointer");
  LaunchRequest odd = request(256, 512, 64);
  odd.operands[0].data += 1;
  EXPECT_ERROR(resolveLaunch(k, odd), ErrorKind::Usage,
               "argument 'a' at 0x7f0000001001 is not aligned to its f16 "
               "elements (2 bytes)");
  LaunchRequest narrow = request(256, 512, 64);
  narrow.operands[2].ld = 100;
  EXPECT_ERROR(resolveLaunch(k, narrow), ErrorKind::Usage,
               "argument 'c' is 256 x 512 f32 (layout row): its leading "
               "dimension 100 is less than its row length 512");
  // The example's arguments are not strided: rows must be packed.
  LaunchRequest padded = request(256, 512, 64);
  padded.operands[0].ld = 72;
  EXPECT_ERROR(resolveLaunch(k, padded), ErrorKind::Unsupported,
               "argument 'a' of kernel 'gemm_f16_f32_kernel' is compiled for packed "
               "rows: 256 x 64 f16 (layout row) needs leading dimension 64, "
               "got 72");
  LaunchRequest batchStride = request(256, 512, 64);
  batchStride.operands[0].batchStride = 100000;
  EXPECT_ERROR(resolveLaunch(k, batchStride), ErrorKind::Usage,
               "argument 'a' has a batch stride, but kernel 'gemm_f16_f32_kernel' is "
               "not batched");
  LaunchRequest negative = request(256, 512, 64);
  negative.operands[1].ld = -64;
  EXPECT_ERROR(resolveLaunch(k, negative), ErrorKind::Usage,
               "argument 'b' has a negative stride");
  EXPECT_ERROR(resolveLaunch(k, request(0, 512, 64)), ErrorKind::Usage,
               "M must be positive, got 0");
}

TEST(launchStridedAndBatched) {
  KernelManifest k =
      parseManifest(tgemm::test::batchedManifest(), "b.json").kernels[0];
  LaunchRequest r = request(128, 256, 64);
  r.batch = 4;
  r.operands[0].ld = 80;           // padded rows of A
  r.operands[1].batchStride = 0;   // packed matrices of B
  r.operands[2].batchStride = 128 * 256;
  ResolvedLaunch resolved = resolveLaunch(k, r);
  EXPECT_EQ(resolved.storages[0].ld, 80);
  EXPECT_EQ(resolved.storages[0].batchStride, 128 * 80);
  EXPECT_EQ(resolved.storages[2].batchStride, 128 * 256);
  EXPECT_EQ(resolved.dims.grid[2], 4u);
  // C's matrices must not overlap.
  r.operands[2].batchStride = 1000;
  EXPECT_ERROR(resolveLaunch(k, r), ErrorKind::Usage,
               "a batch stride of 1000 would overlap its matrices (at least "
               "32768)");
}

TEST(capiCheckLaunch) {
  std::string manifest =
      tgemm::test::writeTempFile("launch.json", tgemm::test::exampleManifest());
  tgemm_rt_launch_args args;
  std::memset(&args, 0, sizeof(args));
  EXPECT_EQ(tgemm_rt_launch_args_size(), sizeof(tgemm_rt_launch_args));
  args.a.data = 0x7f0000001000;
  args.b.data = 0x7f0000200000;
  args.c.data = 0x7f0000400000;
  // The example's static 4096^3: sizes may be left out.
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_OK);
  args.c.data = 0;
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_USAGE);
  EXPECT_TRUE(std::string(tgemm_rt_last_error()).find(
                  "argument 'c' is a null pointer") != std::string::npos);
  args.c.data = 0x7f0000400000;
  args.m = 1024;
  EXPECT_TRUE(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args) !=
              TGEMM_RT_OK);
  EXPECT_EQ(tgemm_rt_launch(nullptr, &args), TGEMM_RT_USAGE);
  EXPECT_TRUE(std::string(tgemm_rt_last_error()).find(
                  "NULL kernel or arguments") != std::string::npos);
  // A call that succeeds clears the error.
  args.m = 0;
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_OK);
  EXPECT_EQ(std::string(tgemm_rt_last_error()), std::string(""));
}

namespace {
/// The dynamic example split into 4 parts of K (manifest version 3).
KernelManifest splitExample() {
  std::string text = tgemm::test::exampleManifest();
  text = REPLACE(text, R"("version": 2)", R"("version": 3)");
  text = REPLACE(text, R"({"m": 4096, "n": 4096, "k": 4096})",
                 R"({"m": null, "n": null, "k": null})");
  text = REPLACE(text, R"("stages": 3})", R"("stages": 3, "split_k": 4})");
  text = REPLACE(text, R"({"value": 1}])", R"({"value": 1, "times": 4}])");
  return parseManifest(text, "m.json").kernels[0];
}
} // namespace

TEST(launchSplitKWorkspace) {
  KernelManifest k = splitExample();
  EXPECT_EQ(k.config.splitK, int64_t(4));
  // 384 x 256 in 128 x 128 tiles: 3 x 2 semaphores (24 bytes, padded to
  // 256), then 4 parts of 384 x 256 f32.
  GemmShape shape;
  shape.m = 384;
  shape.n = 256;
  shape.k = 1024;
  EXPECT_EQ(workspaceBytes(k, shape), int64_t(256 + 4 * 384 * 256 * 4));
  EXPECT_EQ(workspaceBytes(dynamicExample(), shape), int64_t(0));
  EXPECT_EQ(computeLaunch(k, shape).grid[2], 4u);
  LaunchRequest none = request(384, 256, 1024);
  EXPECT_ERROR(resolveLaunch(k, none), ErrorKind::Usage,
               "kernel 'gemm_f16_f32_kernel' splits K into 4 parts and needs "
               "a workspace of 1573120 bytes for shape M=384 N=256 K=1024 (zeroed "
               "before its first launch); got none");
  LaunchRequest small = request(384, 256, 1024);
  small.workspace = 0x7f0001000000;
  small.workspaceBytes = 1000;
  EXPECT_ERROR(resolveLaunch(k, small), ErrorKind::Usage, "; got 1000");
  LaunchRequest odd = request(384, 256, 1024);
  odd.workspace = 0x7f0001000010;
  odd.workspaceBytes = 1 << 21;
  EXPECT_ERROR(resolveLaunch(k, odd), ErrorKind::Usage, "256-byte aligned");
  LaunchRequest good = request(384, 256, 1024);
  good.workspace = 0x7f0001000000;
  good.workspaceBytes = 1 << 21;
  ResolvedLaunch r = resolveLaunch(k, good);
  EXPECT_EQ(r.addresses.workspace, 0x7f0001000000u);
  // The workspace follows the three memrefs: base, base, 0, bytes, 1.
  KernelArgs args(k, r.storages, r.addresses);
  const std::vector<uint64_t> &v = args.values();
  EXPECT_EQ(v.size(), size_t(3 * 7 + 5));
  EXPECT_EQ(v[21], 0x7f0001000000u);
  EXPECT_EQ(v[22], 0x7f0001000000u);
  EXPECT_EQ(v[23], 0u);
  EXPECT_EQ(v[24], uint64_t(1573120));
  EXPECT_EQ(v[25], 1u);
}

TEST(manifestSplitKMustMatchGrid) {
  std::string text = tgemm::test::exampleManifest();
  text = REPLACE(text, R"("stages": 3})", R"("stages": 3, "split_k": 4})");
  EXPECT_ERROR(parseManifest(text, "m.json"), ErrorKind::Input,
               "m.json: kernels[0].grid[2]: config.split_k is 4, so grid z "
               "must have times 4, got 1");
  std::string times = REPLACE(tgemm::test::exampleManifest(),
                              R"({"dim": "n", "tile": 128})",
                              R"({"dim": "n", "tile": 128, "times": 2})");
  EXPECT_ERROR(parseManifest(times, "m.json"), ErrorKind::Input,
               "m.json: kernels[0].grid[0]: cluster is 1, so grid x must "
               "have times 1, got 2");
  // Round trip: split_k and times are written back.
  Manifest m = parseManifest(
      REPLACE(REPLACE(tgemm::test::exampleManifest(), R"("stages": 3})",
                      R"("stages": 3, "split_k": 4})"),
              R"({"value": 1}])", R"({"value": 1, "times": 4}])"),
      "m.json");
  std::string written = writeManifest(m);
  EXPECT_TRUE(written.find("\"split_k\": 4") != std::string::npos);
  EXPECT_TRUE(written.find("\"times\": 4") != std::string::npos);
  EXPECT_EQ(parseManifest(written, "w.json").kernels[0].config.splitK,
            int64_t(4));
}

namespace {
/// TestSupport's epilogue kernel (scale(col) f32, bias(row) f16, residual
/// bf16, gelu_tanh) with dynamic sizes.
KernelManifest epilogueExample() { return tgemm::test::dynamicEpilogueKernel(); }
const uint64_t kScale = 0x7f0000600000, kBias = 0x7f0000700000,
               kResidual = 0x7f0000800000;
} // namespace

TEST(launchEpilogueOperands) {
  KernelManifest k = epilogueExample();
  LaunchRequest good = request(256, 512, 64);
  good.epilogue = {kScale, kBias, kResidual};
  ResolvedLaunch r = resolveLaunch(k, good);
  EXPECT_TRUE((r.addresses.epilogue ==
               std::vector<uint64_t>{kScale, kBias, kResidual}));
  // They reach the parameters after C's memref.
  KernelArgs args(k, r.storages, r.addresses);
  EXPECT_EQ(args.values()[21], kScale);
  EXPECT_EQ(args.values()[24], uint64_t(512)); // scale(col): N elements
  EXPECT_EQ(args.values()[26], kBias);
  EXPECT_EQ(args.values()[29], uint64_t(256)); // bias(row): M elements

  LaunchRequest missing = request(256, 512, 64);
  missing.epilogue = {kScale};
  EXPECT_ERROR(resolveLaunch(k, missing), ErrorKind::Usage,
               "kernel 'gemm_f16_f32_kernel''s epilogue reads 3 operands "
               "(epilogue0: scale(col) f32[512], epilogue1: bias(row) "
               "f16[256], epilogue2: residual bf16[256 x 512]), got 1");
  LaunchRequest null = good;
  null.epilogue[2] = 0;
  EXPECT_ERROR(resolveLaunch(k, null), ErrorKind::Usage,
               "epilogue operand epilogue2: residual bf16[256 x 512] is a "
               "null pointer");
  LaunchRequest odd = good;
  odd.epilogue[0] = kScale + 2; // f32 needs 4 bytes
  EXPECT_ERROR(resolveLaunch(k, odd), ErrorKind::Usage,
               "epilogue operand epilogue0: scale(col) f32[512] at "
               "0x7f0000600002 is not aligned to its f32 elements (4 bytes)");
  LaunchRequest oddHalf = good;
  oddHalf.epilogue[1] = kBias + 1;
  EXPECT_ERROR(resolveLaunch(k, oddHalf), ErrorKind::Usage,
               "is not aligned to its f16 elements (2 bytes)");
  // A kernel without an epilogue takes no operands for one.
  LaunchRequest extra = request(256, 512, 64);
  extra.epilogue = {kScale};
  EXPECT_ERROR(resolveLaunch(dynamicExample(), extra), ErrorKind::Usage,
               "kernel 'gemm_f16_f32_kernel' has no epilogue operands; got 1");
}

TEST(capiCheckLaunchEpilogue) {
  std::string manifest = tgemm::test::writeTempFile(
      "epilogue.json", tgemm::test::epilogueManifest());
  tgemm_rt_launch_args args;
  std::memset(&args, 0, sizeof(args));
  args.a.data = 0x7f0000001000;
  args.b.data = 0x7f0000200000;
  args.c.data = 0x7f0000400000;
  // Without the operands: the count names what the kernel reads.
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_USAGE);
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("epilogue reads 3 operands (epilogue0: scale(col) "
                        "f32[4096], epilogue1: bias(row) f16[4096], "
                        "epilogue2: residual bf16[4096 x 4096]), got 0") !=
              std::string::npos);
  uint64_t operands[3] = {kScale, kBias, kResidual};
  args.epilogue = operands;
  args.num_epilogue = 3;
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_OK);
  args.num_epilogue = -1;
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_USAGE);
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("num_epilogue must not be negative, got -1") !=
              std::string::npos);
  args.num_epilogue = 3;
  args.epilogue = nullptr;
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_USAGE);
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("num_epilogue is 3 but the epilogue array is NULL") !=
              std::string::npos);
  operands[1] = 0;
  args.epilogue = operands;
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_USAGE);
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("epilogue operand epilogue1: bias(row) f16[4096] is "
                        "a null pointer") != std::string::npos);
  // A call that succeeds clears the error.
  operands[1] = kBias;
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_OK);
  EXPECT_EQ(std::string(tgemm_rt_last_error()), std::string(""));
}

TEST(launchTransposedCopyWorkspace) {
  // s8 with B row (K x N) read from a transposed copy: a workspace without
  // split K, for the copy alone.
  KernelManifest k = tgemm::test::transposeKernel();
  LaunchRequest none = request(256, 200, 100);
  EXPECT_ERROR(resolveLaunch(k, none), ErrorKind::Usage,
               "kernel 'gemm_s8_kernel' reads B from a transposed copy and "
               "needs a workspace of 22528 bytes for shape M=256 N=200 "
               "K=100; got none");
  LaunchRequest small = request(256, 200, 100);
  small.workspace = 0x7f0001000000;
  small.workspaceBytes = 22527;
  EXPECT_ERROR(resolveLaunch(k, small), ErrorKind::Usage,
               "needs a workspace of 22528 bytes for shape M=256 N=200 "
               "K=100; got 22527");
  LaunchRequest odd = request(256, 200, 100);
  odd.workspace = 0x7f0001000080;
  odd.workspaceBytes = 22528;
  EXPECT_ERROR(resolveLaunch(k, odd), ErrorKind::Usage,
               "K=100, 256-byte aligned; got address");
  // The caller's B is checked as always: its ld must hold its row.
  LaunchRequest shortRows = request(256, 200, 100);
  shortRows.workspace = 0x7f0001000000;
  shortRows.workspaceBytes = 22528;
  shortRows.operands[1].ld = 100;
  EXPECT_ERROR(resolveLaunch(k, shortRows), ErrorKind::Usage,
               "argument 'b' is 100 x 200 s8 (layout row): its leading "
               "dimension 100 is less than its row length 200");
  LaunchRequest good = request(256, 200, 100);
  good.workspace = 0x7f0001000000;
  good.workspaceBytes = 22528;
  good.operands[1].ld = 208;
  ResolvedLaunch r = resolveLaunch(k, good);
  EXPECT_EQ(r.addresses.workspace, 0x7f0001000000u);
  // The caller's B (ld 208) is what the transposing kernel reads; the
  // GEMM kernel reads the copy.
  EXPECT_EQ(r.storages[1].ld, 208);
  KernelArgs args(k, r.storages, r.addresses);
  const std::vector<uint64_t> &v = args.values();
  EXPECT_EQ(v.size(), size_t(3 * 7 + 5));
  EXPECT_EQ(v[7], 0x7f0001000000u);
  EXPECT_EQ(v[12], 112u);
  EXPECT_EQ(v[24], 22528u);
  EXPECT_EQ(args.transposes()[0].values()[0], 0x7f0000200000u);
  EXPECT_EQ(args.transposes()[0].values()[5], 208u);
  // Split K too: both named, and the workspace holds both.
  k.config.splitK = 2;
  k.grid[2].times = 2;
  EXPECT_ERROR(resolveLaunch(k, none), ErrorKind::Usage,
               "kernel 'gemm_s8_kernel' splits K into 2 parts, reads B from "
               "a transposed copy and needs a workspace of 432384 bytes for "
               "shape M=256 N=200 K=100 (zeroed before its first launch); "
               "got none");
  // Both operands.
  KernelManifest both = tgemm::test::transposeKernel();
  both.gemm.a.layout = Layout::Col;
  OperandTranspose a = both.transposes[0];
  a.operand = Operand::A;
  a.kernel = "transpose_a";
  both.transposes.insert(both.transposes.begin(), a);
  EXPECT_ERROR(resolveLaunch(both, none), ErrorKind::Usage,
               "kernel 'gemm_s8_kernel' reads A and B from transposed copies "
               "and needs a workspace of");
}

TEST(capiCheckLaunchTransposedCopy) {
  std::string manifest = tgemm::test::writeTempFile(
      "transpose.json", tgemm::test::transposeManifest());
  tgemm_rt_launch_args args;
  std::memset(&args, 0, sizeof(args));
  args.m = 256;
  args.n = 200;
  args.k = 100;
  args.a.data = 0x7f0000001000;
  args.b.data = 0x7f0000200000;
  args.c.data = 0x7f0000400000;
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_USAGE);
  EXPECT_TRUE(
      std::string(tgemm_rt_last_error())
          .find("reads B from a transposed copy and needs a workspace of "
                "22528 bytes") != std::string::npos);
  args.workspace = 0x7f0001000000;
  args.workspace_bytes = 22528;
  EXPECT_EQ(tgemm_rt_check_launch(manifest.c_str(), nullptr, &args),
            TGEMM_RT_OK);
}
