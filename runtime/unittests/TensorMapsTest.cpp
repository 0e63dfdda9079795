//===- TensorMapsTest.cpp - What cuTensorMapEncodeTiled is asked for ------===//

#include "TestSupport.h"

#include "tgemm/runtime/TensorMaps.h"

using namespace tgemm::runtime;
using tgemm::test::storageOf;

namespace {
const uint64_t kBase = 0x7f0000001000;

TensorMapArg mapOf(Operand operand, int64_t rows, int64_t cols,
                   int64_t swizzle = 128) {
  TensorMapArg map;
  map.operand = operand;
  map.box = {rows, cols};
  map.swizzle = swizzle;
  return map;
}


/// Records a failure unless `d` is refused for a reason containing `text`.
void expectRefused(const TensorMapDescription &d, const std::string &text,
                   const char *file, int line) {
  if (d.describable)
    tgemm::test::recordFailure(file, line, "describable, expected '" + text +
                                               "'");
  else if (d.reason.find(text) == std::string::npos)
    tgemm::test::recordFailure(file, line, "reason '" + d.reason +
                                               "' lacks '" + text + "'");
}
#define EXPECT_REFUSED(d, text) expectRefused(d, text, __FILE__, __LINE__)
} // namespace

TEST(tensorMapPacked) {
  // A row-major f16 A of M=256, K=64, with a 128x64 box: 64 f16 are the
  // 128-byte swizzle span.
  TensorMapDescription d = describeTensorMap(
      mapOf(Operand::A, 128, 64), ElementType::F16, storageOf(256, 64, 64),
      kBase);
  EXPECT_TRUE(d.describable);
  EXPECT_TRUE(d.reason.empty());
  const TensorMapEncoding &e = d.encoding;
  EXPECT_TRUE(e.dataType == CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(e.rank, 3u);
  EXPECT_EQ(e.globalAddress, kBase);
  EXPECT_TRUE((e.globalDim == std::array<cuuint64_t, 3>{64, 256, 1}));
  EXPECT_TRUE((e.globalStrides == std::array<cuuint64_t, 2>{128, 256 * 128}));
  EXPECT_TRUE((e.boxDim == std::array<cuuint32_t, 3>{64, 128, 1}));
  EXPECT_TRUE((e.elementStrides == std::array<cuuint32_t, 3>{1, 1, 1}));
  EXPECT_TRUE(e.interleave == CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_TRUE(e.swizzle == CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_TRUE(e.l2Promotion == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_TRUE(e.oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

TEST(tensorMapStrided) {
  // lda 72 (144 bytes) and an offset of 8 elements (16 bytes).
  TensorMapDescription d =
      describeTensorMap(mapOf(Operand::A, 128, 64), ElementType::BF16,
                        storageOf(256, 64, 72, 8), kBase);
  EXPECT_TRUE(d.describable);
  EXPECT_TRUE(d.encoding.dataType == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(d.encoding.globalAddress, kBase + 16);
  EXPECT_TRUE((d.encoding.globalDim == std::array<cuuint64_t, 3>{64, 256, 1}));
  EXPECT_TRUE((d.encoding.globalStrides ==
               std::array<cuuint64_t, 2>{144, 256 * 144}));
}

TEST(tensorMapBatched) {
  // From resolveStorage of a batched, strided kernel: B col (N x K) with
  // ldb 40 and a batch of 4; the batch stride is rows * ld.
  KernelManifest k =
      parseManifest(tgemm::test::batchedManifest(), "m.json").kernels[0];
  GemmShape shape = resolveShape(k, 100, 30, 32, 4);
  StorageRequests requests;
  requests[1] = {40, 16};
  OperandStorages storages = resolveStorage(k, shape, requests);
  TensorMapDescription d =
      describeTensorMap(mapOf(Operand::B, 128, 32, 64), ElementType::F16,
                        storages[1], kBase);
  EXPECT_TRUE(d.describable);
  EXPECT_EQ(d.encoding.globalAddress, kBase + 32);
  EXPECT_TRUE((d.encoding.globalDim == std::array<cuuint64_t, 3>{32, 30, 4}));
  EXPECT_TRUE((d.encoding.globalStrides ==
               std::array<cuuint64_t, 2>{80, 30 * 40 * 2}));
  EXPECT_TRUE((d.encoding.boxDim == std::array<cuuint32_t, 3>{32, 128, 1}));
  EXPECT_TRUE(d.encoding.swizzle == CU_TENSOR_MAP_SWIZZLE_64B);
  // resolveStorage makes the batch stride rows * ld, but a storage that
  // pads between matrices is checked on its own: ld 24 f16 is 48 bytes, a
  // batch stride of 604 elements is 1208.
  MatrixStorage odd = storageOf(25, 16, 24, 0, 3);
  odd.batchStride = 604;
  EXPECT_REFUSED(describeTensorMap(mapOf(Operand::B, 64, 16, 32),
                                   ElementType::F16, odd, kBase),
                 "batch stride of 604 elements (1208 bytes) is not a "
                 "multiple of 16 bytes");
  // Not batched, the same rows take rows * ld, whatever batchStride holds.
  odd.batch = 1;
  odd.batchStride = 0;
  TensorMapDescription single = describeTensorMap(
      mapOf(Operand::B, 64, 16, 32), ElementType::F16, odd, kBase);
  EXPECT_TRUE(single.describable);
  EXPECT_EQ(single.encoding.globalStrides[1], cuuint64_t(25 * 24 * 2));
}

TEST(tensorMapMisaligned) {
  TensorMapArg a = mapOf(Operand::A, 128, 64);
  // An odd offset: the start is 6 bytes into a 16-byte chunk.
  EXPECT_REFUSED(describeTensorMap(a, ElementType::F16,
                                   storageOf(256, 64, 72, 3), kBase),
                 "its start 0x7f0000001006 (offset 3 elements into the "
                 "allocation at 0x7f0000001000) is not 16-byte aligned");
  // The allocation itself misaligned.
  EXPECT_REFUSED(describeTensorMap(a, ElementType::F16,
                                   storageOf(256, 64, 64), kBase + 8),
                 "is not 16-byte aligned");
  // lda 100: rows 200 bytes apart.
  EXPECT_REFUSED(describeTensorMap(a, ElementType::F16,
                                   storageOf(256, 64, 100), kBase),
                 "its leading dimension of 100 elements (200 bytes) is not a "
                 "multiple of 16 bytes");
  // Packed, but K = 36: the same for packed rows.
  EXPECT_REFUSED(describeTensorMap(a, ElementType::F16,
                                   storageOf(256, 36, 36), kBase),
                 "leading dimension of 36 elements (72 bytes)");
  // Strides of 2^40 bytes or more.
  EXPECT_REFUSED(describeTensorMap(a, ElementType::F16,
                                   storageOf(1, 64, int64_t(1) << 39), kBase),
                 "is not below 2^40 bytes");
  // More than 2^32 columns.
  EXPECT_REFUSED(describeTensorMap(a, ElementType::S8,
                                   storageOf(1, (int64_t(1) << 32) + 16,
                                             (int64_t(1) << 32) + 16),
                                   kBase),
                 "its 4294967312 columns are not in [1, 2^32]");
  // Exactly 2^32 is still fine.
  EXPECT_TRUE(describeTensorMap(a, ElementType::S8,
                                storageOf(1, int64_t(1) << 32,
                                          int64_t(1) << 32),
                                kBase)
                  .describable);
}

TEST(tensorMapBoxLargerThanMatrix) {
  // TMA clips the box at the tensor's edges (and fills zeros): an 8x16
  // matrix takes a 128x64 box.
  TensorMapDescription d =
      describeTensorMap(mapOf(Operand::A, 128, 64), ElementType::F16,
                        storageOf(8, 16, 16), kBase);
  EXPECT_TRUE(d.describable);
  EXPECT_TRUE((d.encoding.globalDim == std::array<cuuint64_t, 3>{16, 8, 1}));
  EXPECT_TRUE((d.encoding.boxDim == std::array<cuuint32_t, 3>{64, 128, 1}));
}

TEST(tensorMapByteTypes) {
  // s8, u8, e4m3 and e5m2 move as raw bytes: strides in bytes are the
  // leading dimension itself.
  for (ElementType type : {ElementType::S8, ElementType::U8,
                           ElementType::E4M3, ElementType::E5M2}) {
    TensorMapDescription d =
        describeTensorMap(mapOf(Operand::B, 128, 128), type,
                          storageOf(512, 64, 80, 16), kBase);
    EXPECT_TRUE(d.describable);
    EXPECT_TRUE(d.encoding.dataType == CU_TENSOR_MAP_DATA_TYPE_UINT8);
    EXPECT_EQ(d.encoding.globalAddress, kBase + 16);
    EXPECT_TRUE((d.encoding.globalStrides ==
                 std::array<cuuint64_t, 2>{80, 512 * 80}));
    // 72 bytes between rows: not a multiple of 16.
    EXPECT_REFUSED(describeTensorMap(mapOf(Operand::B, 128, 128), type,
                                     storageOf(512, 64, 72), kBase),
                   "leading dimension of 72 elements (72 bytes)");
    // An offset of 8 bytes.
    EXPECT_REFUSED(describeTensorMap(mapOf(Operand::B, 128, 128), type,
                                     storageOf(512, 64, 80, 8), kBase),
                   "not 16-byte aligned");
  }
}

TEST(tensorMapOtherTypes) {
  struct Case {
    ElementType type;
    CUtensorMapDataType expected;
  };
  for (const Case &c :
       {Case{ElementType::F32, CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
        Case{ElementType::TF32, CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
        Case{ElementType::S32, CU_TENSOR_MAP_DATA_TYPE_INT32}}) {
    TensorMapDescription d =
        describeTensorMap(mapOf(Operand::C, 64, 32), c.type,
                          storageOf(64, 32, 36), kBase);
    EXPECT_TRUE(d.describable);
    EXPECT_TRUE(d.encoding.dataType == c.expected);
    EXPECT_EQ(d.encoding.globalStrides[0], cuuint64_t(144));
  }
  EXPECT_REFUSED(describeTensorMap(mapOf(Operand::A, 64, 64),
                                   ElementType::S4, storageOf(64, 64, 64),
                                   kBase),
                 "its element type s4 is not a whole number of bytes");
}

TEST(tensorMapSwizzles) {
  struct Case {
    int64_t bytes;
    CUtensorMapSwizzle expected;
  };
  // f16 box rows of 16 elements (32 bytes) fit every span.
  for (const Case &c : {Case{0, CU_TENSOR_MAP_SWIZZLE_NONE},
                        Case{32, CU_TENSOR_MAP_SWIZZLE_32B},
                        Case{64, CU_TENSOR_MAP_SWIZZLE_64B},
                        Case{128, CU_TENSOR_MAP_SWIZZLE_128B}}) {
    TensorMapDescription d =
        describeTensorMap(mapOf(Operand::A, 64, 16, c.bytes),
                          ElementType::F16, storageOf(64, 64, 64), kBase);
    EXPECT_TRUE(d.describable);
    EXPECT_TRUE(d.encoding.swizzle == c.expected);
  }
  // What the manifest reader refuses is refused here too, for maps built
  // in code.
  MatrixStorage s = storageOf(64, 64, 64);
  EXPECT_REFUSED(describeTensorMap(mapOf(Operand::A, 64, 16, 16),
                                   ElementType::F16, s, kBase),
                 "its swizzle 16 is not 0, 32, 64 or 128 bytes");
  EXPECT_REFUSED(describeTensorMap(mapOf(Operand::A, 64, 128, 128),
                                   ElementType::F16, s, kBase),
                 "its box row of 256 bytes does not fit the 128-byte "
                 "swizzle span");
  EXPECT_REFUSED(describeTensorMap(mapOf(Operand::A, 64, 4, 0),
                                   ElementType::F16, s, kBase),
                 "its box row of 8 bytes is not a multiple of 16");
  EXPECT_REFUSED(describeTensorMap(mapOf(Operand::A, 300, 16, 0),
                                   ElementType::F16, s, kBase),
                 "its box extent 300 is not in [1, 256]");
  // No swizzle: a box row may be up to 256 elements wide.
  EXPECT_TRUE(describeTensorMap(mapOf(Operand::A, 8, 256, 0),
                                ElementType::F16, s, kBase)
                  .describable);
}

TEST(tensorMapsEmpty) {
  TensorMaps none;
  EXPECT_TRUE(none.values().empty());
  EXPECT_TRUE(none.reasons().empty());
}
