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
