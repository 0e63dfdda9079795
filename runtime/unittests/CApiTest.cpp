//===- CApiTest.cpp - The C API's errors without a GPU --------------------===//

#include "TestSupport.h"

#include "tgemm/runtime/c_api.h"

#include <string>

TEST(capiAbi) {
  EXPECT_EQ(tgemm_rt_abi_version(), TGEMM_RT_ABI_VERSION);
  EXPECT_EQ(tgemm_rt_result_size(), sizeof(tgemm_rt_result));
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
