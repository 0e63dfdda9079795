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
