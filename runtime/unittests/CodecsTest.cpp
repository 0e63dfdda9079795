//===- CodecsTest.cpp - Narrow-type encoders and decoders -----------------===//
//
// Checked three ways: known values, exhaustive round trips through every
// code, and agreement with CUDA's own host conversions (cuda_fp16.h,
// cuda_bf16.h, cuda_fp8.h) on many random floats.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tgemm/runtime/Codecs.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstring>

using namespace tgemm::runtime::codecs;

namespace {
float randomFloat(uint64_t &state, float scale) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  uint32_t bits = static_cast<uint32_t>(state >> 32);
  // Random sign, exponent spread around `scale`, random mantissa.
  float mantissa = 1.0f + (bits & 0x7fffff) / float(1 << 23);
  int exponent = static_cast<int>((bits >> 23) % 40) - 20;
  float value = std::ldexp(mantissa, exponent) * scale;
  return (bits >> 31) ? -value : value;
}
} // namespace

TEST(codecsHalfKnownValues) {
  EXPECT_EQ(floatToHalf(1.0f), uint16_t(0x3c00));
  EXPECT_EQ(floatToHalf(-2.0f), uint16_t(0xc000));
  EXPECT_EQ(floatToHalf(65504.0f), uint16_t(0x7bff));
  EXPECT_EQ(floatToHalf(65520.0f), uint16_t(0x7c00)); // rounds to infinity
  EXPECT_EQ(floatToHalf(65519.0f), uint16_t(0x7bff));
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), uint16_t(0x0001));
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -26)), uint16_t(0x0000));
  EXPECT_EQ(floatToHalf(-0.0f), uint16_t(0x8000));
  // Ties go to even.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), uint16_t(0x3c00));
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), uint16_t(0x3c02));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
  EXPECT_TRUE(std::isinf(halfToFloat(0xfc00)) && halfToFloat(0xfc00) < 0);
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
}

TEST(codecsHalfRoundTripsEveryCode) {
  for (uint32_t code = 0; code < 0x10000; ++code) {
    float f = halfToFloat(static_cast<uint16_t>(code));
    if (std::isnan(f))
      continue;
    EXPECT_EQ(floatToHalf(f), uint16_t(code));
  }
}

TEST(codecsHalfMatchesCuda) {
  uint64_t state = 1;
  for (int i = 0; i < 200000; ++i) {
    float f = randomFloat(state, 1.0f);
    __half h = __float2half_rn(f);
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    EXPECT_EQ(floatToHalf(f), bits);
    EXPECT_EQ(halfToFloat(bits), __half2float(h));
  }
}

TEST(codecsBFloat16) {
  EXPECT_EQ(floatToBFloat16(1.0f), uint16_t(0x3f80));
  EXPECT_EQ(floatToBFloat16(1.0f + std::ldexp(1.0f, -8)), uint16_t(0x3f80));
  EXPECT_EQ(floatToBFloat16(1.0f + 3 * std::ldexp(1.0f, -8)),
            uint16_t(0x3f82));
  for (uint32_t code = 0; code < 0x10000; ++code) {
    float f = bfloat16ToFloat(static_cast<uint16_t>(code));
    if (!std::isnan(f))
      EXPECT_EQ(floatToBFloat16(f), uint16_t(code));
  }
  uint64_t state = 2;
  for (int i = 0; i < 200000; ++i) {
    float f = randomFloat(state, 1e3f);
    __nv_bfloat16 h = __float2bfloat16_rn(f);
    uint16_t bits;
    std::memcpy(&bits, &h, 2);
    EXPECT_EQ(floatToBFloat16(f), bits);
  }
}

TEST(codecsE4M3) {
  EXPECT_EQ(e4m3ToFloat(0x7e), 448.0f);
  EXPECT_EQ(e4m3ToFloat(0x38), 1.0f);
  EXPECT_EQ(e4m3ToFloat(0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(e4m3ToFloat(0x08), std::ldexp(1.0f, -6));
  EXPECT_TRUE(std::isnan(e4m3ToFloat(0x7f)) && std::isnan(e4m3ToFloat(0xff)));
  EXPECT_TRUE(!std::isinf(e4m3ToFloat(0x78))); // no infinities in E4M3FN
  EXPECT_EQ(floatToE4M3(1000.0f), uint8_t(0x7e)); // saturates
  EXPECT_EQ(floatToE4M3(-1000.0f), uint8_t(0xfe));
  EXPECT_EQ(floatToE4M3(-0.0f), uint8_t(0x80));
  for (uint32_t code = 0; code < 256; ++code) {
    float f = e4m3ToFloat(static_cast<uint8_t>(code));
    if (!std::isnan(f))
      EXPECT_EQ(floatToE4M3(f), uint8_t(code));
  }
  uint64_t state = 3;
  for (int i = 0; i < 200000; ++i) {
    float f = randomFloat(state, 1.0f);
    uint8_t cuda = __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3);
    EXPECT_EQ(floatToE4M3(f), cuda);
  }
}

TEST(codecsE5M2) {
  EXPECT_EQ(e5m2ToFloat(0x7b), 57344.0f);
  EXPECT_EQ(e5m2ToFloat(0x3c), 1.0f);
  EXPECT_EQ(e5m2ToFloat(0x01), std::ldexp(1.0f, -16));
  EXPECT_TRUE(std::isinf(e5m2ToFloat(0x7c)));
  EXPECT_TRUE(std::isnan(e5m2ToFloat(0x7d)));
  EXPECT_EQ(floatToE5M2(1e6f), uint8_t(0x7c));
  for (uint32_t code = 0; code < 256; ++code) {
    float f = e5m2ToFloat(static_cast<uint8_t>(code));
    if (!std::isnan(f))
      EXPECT_EQ(floatToE5M2(f), uint8_t(code));
  }
  uint64_t state = 4;
  for (int i = 0; i < 200000; ++i) {
    float f = randomFloat(state, 1.0f);
    if (std::fabs(f) > 57344.0f)
      continue; // CUDA saturates here, tgemm's output rounding does not
    uint8_t cuda = __nv_cvt_float_to_fp8(f, __NV_NOSAT, __NV_E5M2);
    EXPECT_EQ(floatToE5M2(f), cuda);
  }
}

TEST(codecsTf32) {
  EXPECT_EQ(roundToTf32(1.0f), 1.0f);
  float tie = 1.0f + std::ldexp(1.0f, -11);
  EXPECT_EQ(roundToTf32(tie), 1.0f);
  float tieUp = 1.0f + std::ldexp(1.0f, -10) + std::ldexp(1.0f, -11);
  EXPECT_EQ(roundToTf32(tieUp), 1.0f + std::ldexp(1.0f, -9));
  uint64_t state = 5;
  for (int i = 0; i < 10000; ++i) {
    float r = roundToTf32(randomFloat(state, 1.0f));
    EXPECT_EQ(floatBits(r) & 0x1fffu, 0u);
  }
  EXPECT_TRUE(std::isnan(roundToTf32(NAN)));
}

TEST(codecsS4Packing) {
  uint8_t packed[2] = {0, 0};
  setS4(packed, 0, -1);
  setS4(packed, 1, 3);
  setS4(packed, 2, -8);
  setS4(packed, 3, 7);
  // Low nibble first.
  EXPECT_EQ(int(packed[0]), 0x3f);
  EXPECT_EQ(int(packed[1]), 0x78);
  EXPECT_EQ(getS4(packed, 0), -1);
  EXPECT_EQ(getS4(packed, 1), 3);
  EXPECT_EQ(getS4(packed, 2), -8);
  EXPECT_EQ(getS4(packed, 3), 7);
  setS4(packed, 0, 5); // leaves the neighbour alone
  EXPECT_EQ(int(packed[0]), 0x35);
}
