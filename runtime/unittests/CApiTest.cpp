//===- CApiTest.cpp - The C API's errors without a GPU --------------------===//

#include "TestSupport.h"

#include "tgemm/runtime/c_api.h"

#include <cstddef>
#include <cstring>
#include <string>

TEST(capiAbi) {
  EXPECT_EQ(tgemm_rt_abi_version(), TGEMM_RT_ABI_VERSION);
  EXPECT_EQ(tgemm_rt_result_size(), sizeof(tgemm_rt_result));
  // ABI 2: tgemm_rt_launch_args ends with the epilogue operands.
  EXPECT_EQ(TGEMM_RT_ABI_VERSION, 2);
  EXPECT_EQ(tgemm_rt_launch_args_size(), sizeof(tgemm_rt_launch_args));
  EXPECT_EQ(offsetof(tgemm_rt_launch_args, num_epilogue) + sizeof(int64_t),
            sizeof(tgemm_rt_launch_args));
  EXPECT_EQ(std::string(tgemm_rt_last_error()), std::string(""));
}

TEST(capiLoadErrors) {
  EXPECT_TRUE(tgemm_rt_load(nullptr, nullptr, nullptr, 0) == nullptr);
  EXPECT_TRUE(std::string(tgemm_rt_last_error()).find("manifest path is NULL") !=
              std::string::npos);
  EXPECT_TRUE(tgemm_rt_load("k.ptx", "/nonexistent/k.json", nullptr, 0) ==
              nullptr);
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("cannot read manifest '/nonexistent/k.json'") == 0);
  std::string manifest = tgemm::test::writeTempFile(
      "k.json", tgemm::test::exampleManifest());
  EXPECT_TRUE(tgemm_rt_load(nullptr, manifest.c_str(), "nope", 0) == nullptr);
  EXPECT_TRUE(std::string(tgemm_rt_last_error()).find("has no kernel 'nope'") !=
              std::string::npos);
  std::string ptx = tgemm::test::writeTempFile(
      "k.ptx", ".version 8.4\n.target sm_90\n.visible .entry other()\n{\n}\n");
  EXPECT_TRUE(tgemm_rt_load(ptx.c_str(), manifest.c_str(), nullptr, 0) ==
              nullptr);
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("PTX has no kernel 'gemm_f16_f32_kernel'; it has: "
                        "other") != std::string::npos);
}

TEST(capiRunErrors) {
  tgemm_rt_result result;
  EXPECT_EQ(tgemm_rt_run(nullptr, 1, 1, 1, 1, 0, &result),
            int(TGEMM_RT_USAGE));
  EXPECT_TRUE(std::string(tgemm_rt_last_error()).find("NULL kernel") !=
              std::string::npos);
  tgemm_rt_free(nullptr);
}

TEST(capiLoadNeedsADevice) {
  // A valid kernel and manifest: loads on a GPU machine, and fails with a
  // clear message on one without.
  std::string manifest = tgemm::test::writeTempFile(
      "k.json", tgemm::test::exampleManifest());
  std::string ptx = tgemm::test::writeTempFile(
      "k.ptx", ".version 8.4\n.target sm_90\n"
               ".visible .entry gemm_f16_f32_kernel()\n{\n\tret;\n}\n");
  tgemm_rt_kernel *kernel =
      tgemm_rt_load(nullptr, manifest.c_str(), nullptr, 0);
  if (kernel) {
    tgemm_rt_free(kernel);
    return;
  }
  std::string error = tgemm_rt_last_error();
  EXPECT_TRUE(error.find("no CUDA device") == 0 ||
              error.find("unusable CUDA driver") == 0);
}

TEST(capiOptions) {
  EXPECT_EQ(tgemm_rt_options_size(), sizeof(tgemm_rt_options));
  tgemm_rt_options options;
  std::memset(&options, 0x5a, sizeof(options));
  tgemm_rt_options_init(&options);
  EXPECT_EQ(options.m, int64_t(0));
  EXPECT_EQ(options.lda, int64_t(0));
  EXPECT_EQ(options.offset_c, int64_t(0));
  EXPECT_EQ(options.reps, 0);
  tgemm_rt_result result;
  EXPECT_EQ(tgemm_rt_run_with(nullptr, &options, &result),
            int(TGEMM_RT_USAGE));
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("tgemm_rt_run_with: NULL kernel") == 0);
}

TEST(capiValidate) {
  // Everything a run checks before it needs a device.
  std::string plain = tgemm::test::writeTempFile(
      "k.json", tgemm::test::exampleManifest());
  std::string batched = tgemm::test::writeTempFile(
      "b.json", tgemm::test::batchedManifest());
  tgemm_rt_options options;
  tgemm_rt_options_init(&options);
  EXPECT_EQ(tgemm_rt_validate(plain.c_str(), nullptr, &options),
            int(TGEMM_RT_OK));
  EXPECT_EQ(std::string(tgemm_rt_last_error()), std::string(""));
  options.lda = 4160;
  EXPECT_EQ(tgemm_rt_validate(plain.c_str(), nullptr, &options),
            int(TGEMM_RT_ERROR));
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("--lda 4160: argument 'a' of kernel "
                        "'gemm_f16_f32_kernel' is not strided") == 0);
  tgemm_rt_options_init(&options);
  options.batch = 2;
  EXPECT_EQ(tgemm_rt_validate(plain.c_str(), nullptr, &options),
            int(TGEMM_RT_ERROR));
  EXPECT_TRUE(std::string(tgemm_rt_last_error()).find("is not batched") !=
              std::string::npos);

  tgemm_rt_options_init(&options);
  options.m = 100;
  options.n = 30;
  options.k = 20;
  EXPECT_EQ(tgemm_rt_validate(batched.c_str(), nullptr, &options),
            int(TGEMM_RT_USAGE));
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("has a dynamic batch size; give it with --batch") !=
              std::string::npos);
  options.batch = 4;
  options.lda = 24;
  options.offset_c = 3;
  EXPECT_EQ(tgemm_rt_validate(batched.c_str(), nullptr, &options),
            int(TGEMM_RT_OK));
  options.ldc = 29;
  EXPECT_EQ(tgemm_rt_validate(batched.c_str(), nullptr, &options),
            int(TGEMM_RT_USAGE));
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("--ldc 29 is less than the row length of C") == 0);
  options.ldc = 0;
  options.offset_a = -1;
  EXPECT_EQ(tgemm_rt_validate(batched.c_str(), nullptr, &options),
            int(TGEMM_RT_USAGE));
  EXPECT_EQ(tgemm_rt_validate(nullptr, nullptr, &options),
            int(TGEMM_RT_USAGE));
  EXPECT_EQ(tgemm_rt_validate("/nonexistent/k.json", nullptr, &options),
            int(TGEMM_RT_ERROR));
  EXPECT_TRUE(std::string(tgemm_rt_last_error())
                  .find("cannot read manifest '/nonexistent/k.json'") == 0);
}
