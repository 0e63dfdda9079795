//===- Codecs.h - Bit-exact encoders and decoders of narrow types ---------===//
//
// Conversions between float and the stored bit patterns of f16, bf16, tf32,
// e4m3 (OCP FP8 E4M3FN: no infinities, S.1111.111 is NaN, max 448) and e5m2
// (IEEE-like, max 57344), all rounding to nearest even like the PTX
// `cvt.rn` instructions, plus s4 nibble access. The same code runs on the
// host (input generation, CPU reference, checker) and in the reference
// kernels, so the two never disagree about a value.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_CODECS_H
#define TGEMM_RUNTIME_CODECS_H

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define TGEMM_HD __host__ __device__
#else
#define TGEMM_HD
#endif

namespace tgemm::runtime::codecs {

/// A float format with 1 sign bit, `exponentBits`, `mantissaBits` and the
/// given bias. `ieee` formats reserve the top exponent for inf/NaN; the
/// OCP E4M3FN format uses it for numbers, except S.1111.111 (NaN).
struct MiniFloat {
  int exponentBits;
  int mantissaBits;
  int bias;
  bool ieee;
};

constexpr MiniFloat kHalf = {5, 10, 15, true};
constexpr MiniFloat kBFloat16 = {8, 7, 127, true};
constexpr MiniFloat kE4M3 = {4, 3, 7, false};
constexpr MiniFloat kE5M2 = {5, 2, 15, true};

TGEMM_HD inline uint32_t floatBits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  return u;
}

TGEMM_HD inline float bitsToFloat(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof(f));
  return f;
}

/// The largest finite value of the format.
TGEMM_HD inline float maxFinite(MiniFloat fmt) {
  int topExponent = (1 << fmt.exponentBits) - (fmt.ieee ? 2 : 1);
  // E4M3FN's top binade loses its last code to NaN.
  int topMantissa = (1 << fmt.mantissaBits) - (fmt.ieee ? 1 : 2);
  return ldexpf(1.0f + ldexpf((float)topMantissa, -fmt.mantissaBits),
                topExponent - fmt.bias);
}

/// Decodes a code of the format (in the low 1+E+M bits).
TGEMM_HD inline float decodeMiniFloat(uint32_t code, MiniFloat fmt) {
  int totalBits = 1 + fmt.exponentBits + fmt.mantissaBits;
  bool negative = (code >> (totalBits - 1)) & 1;
  uint32_t exponentField =
      (code >> fmt.mantissaBits) & ((1u << fmt.exponentBits) - 1);
  uint32_t mantissa = code & ((1u << fmt.mantissaBits) - 1);
  uint32_t topExponent = (1u << fmt.exponentBits) - 1;
  float value;
  if (fmt.ieee && exponentField == topExponent) {
    value = mantissa ? NAN : INFINITY;
  } else if (!fmt.ieee && exponentField == topExponent &&
             mantissa == (1u << fmt.mantissaBits) - 1) {
    value = NAN;
  } else if (exponentField == 0) {
    value = ldexpf((float)mantissa, 1 - fmt.bias - fmt.mantissaBits);
  } else {
    value = ldexpf((float)(mantissa | (1u << fmt.mantissaBits)),
                   (int)exponentField - fmt.bias - fmt.mantissaBits);
  }
  return negative ? -value : value;
}

/// Encodes `x`, rounding to nearest even. Out-of-range values become
/// infinity in IEEE-like formats and saturate to the largest finite value
/// otherwise (PTX `cvt.rn.satfinite` for E4M3).
TGEMM_HD inline uint32_t encodeMiniFloat(float x, MiniFloat fmt) {
  int totalBits = 1 + fmt.exponentBits + fmt.mantissaBits;
  uint32_t sign = (floatBits(x) >> 31) << (totalBits - 1);
  uint32_t topExponent = (1u << fmt.exponentBits) - 1;
  uint32_t mantissaMask = (1u << fmt.mantissaBits) - 1;
  uint32_t maxCode = fmt.ieee ? ((topExponent - 1) << fmt.mantissaBits) |
                                    mantissaMask
                              : (topExponent << fmt.mantissaBits) |
                                    (mantissaMask - 1);
  if (x != x) // NaN
    return sign | (topExponent << fmt.mantissaBits) | mantissaMask;
  double a = fabs((double)x);
  if (a == 0.0)
    return sign;
  if (a == (double)INFINITY)
    return fmt.ieee ? sign | (topExponent << fmt.mantissaBits)
                    : sign | maxCode;
  int exponent;
  frexp(a, &exponent); // a = f * 2^exponent, f in [0.5, 1)
  int unbiased = exponent - 1;
  int minNormal = 1 - fmt.bias;
  if (unbiased < minNormal)
    unbiased = minNormal; // subnormal: fixed quantum
  double quantum = ldexp(1.0, unbiased - fmt.mantissaBits);
  double rounded = rint(a / quantum) * quantum; // exact in double
  if (rounded > (double)maxFinite(fmt))
    return fmt.ieee ? sign | (topExponent << fmt.mantissaBits)
                    : sign | maxCode;
  if (rounded < ldexp(1.0, minNormal))
    return sign | (uint32_t)(rounded / ldexp(1.0, minNormal -
                                                       fmt.mantissaBits));
  frexp(rounded, &exponent);
  unbiased = exponent - 1;
  uint32_t mantissa = (uint32_t)((rounded / ldexp(1.0, unbiased) - 1.0) *
                                 ldexp(1.0, fmt.mantissaBits));
  return sign | ((uint32_t)(unbiased + fmt.bias) << fmt.mantissaBits) |
         mantissa;
}

TGEMM_HD inline uint16_t floatToHalf(float x) {
  return (uint16_t)encodeMiniFloat(x, kHalf);
}
TGEMM_HD inline float halfToFloat(uint16_t h) {
  return decodeMiniFloat(h, kHalf);
}
TGEMM_HD inline uint16_t floatToBFloat16(float x) {
  return (uint16_t)encodeMiniFloat(x, kBFloat16);
}
TGEMM_HD inline float bfloat16ToFloat(uint16_t h) {
  return bitsToFloat((uint32_t)h << 16);
}
TGEMM_HD inline uint8_t floatToE4M3(float x) {
  return (uint8_t)encodeMiniFloat(x, kE4M3);
}
TGEMM_HD inline float e4m3ToFloat(uint8_t v) {
  return decodeMiniFloat(v, kE4M3);
}
TGEMM_HD inline uint8_t floatToE5M2(float x) {
  return (uint8_t)encodeMiniFloat(x, kE5M2);
}
TGEMM_HD inline float e5m2ToFloat(uint8_t v) {
  return decodeMiniFloat(v, kE5M2);
}

/// Rounds to TF32 (10 mantissa bits), to nearest even. The hardware's
/// `cvt.rna.tf32.f32` rounds ties away from zero instead; the inputs
/// tgemm-run makes are exact in TF32, so the two never differ on them.
TGEMM_HD inline float roundToTf32(float x) {
  uint32_t u = floatBits(x);
  if ((u & 0x7f800000u) == 0x7f800000u)
    return x; // inf, NaN
  uint32_t lsb = (u >> 13) & 1u;
  u += 0xfffu + lsb;
  u &= ~0x1fffu;
  return bitsToFloat(u);
}

/// The signed 4-bit element `index` of a packed s4 buffer (two per byte,
/// low nibble first).
TGEMM_HD inline int getS4(const uint8_t *packed, int64_t index) {
  int nibble = (packed[index >> 1] >> ((index & 1) * 4)) & 0xf;
  return nibble >= 8 ? nibble - 16 : nibble;
}

/// Stores `value` (in [-8, 7]) as the s4 element `index`.
TGEMM_HD inline void setS4(uint8_t *packed, int64_t index, int value) {
  int shift = (int)(index & 1) * 4;
  uint8_t &byte = packed[index >> 1];
  byte = (uint8_t)((byte & ~(0xf << shift)) | ((value & 0xf) << shift));
}

} // namespace tgemm::runtime::codecs

#endif // TGEMM_RUNTIME_CODECS_H
