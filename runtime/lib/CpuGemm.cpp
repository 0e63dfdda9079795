//===- CpuGemm.cpp - A host GEMM on stored operands -----------------------===//

#include "tgemm/runtime/CpuGemm.h"

#include "tgemm/runtime/Codecs.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace tgemm::runtime {

double loadElement(ElementType type, const uint8_t *base, int64_t index) {
  using namespace codecs;
  switch (type) {
  case ElementType::F16: {
    uint16_t h;
    std::memcpy(&h, base + 2 * index, 2);
    return halfToFloat(h);
  }
  case ElementType::BF16: {
    uint16_t h;
    std::memcpy(&h, base + 2 * index, 2);
    return bfloat16ToFloat(h);
  }
  case ElementType::F32:
  case ElementType::TF32: {
    float f;
    std::memcpy(&f, base + 4 * index, 4);
    return f;
  }
  case ElementType::E4M3:
    return e4m3ToFloat(base[index]);
  case ElementType::E5M2:
    return e5m2ToFloat(base[index]);
  case ElementType::S8:
    return static_cast<int8_t>(base[index]);
  case ElementType::U8:
    return base[index];
  case ElementType::S4:
    return getS4(base, index);
  case ElementType::S32: {
    int32_t v;
    std::memcpy(&v, base + 4 * index, 4);
    return v;
  }
  }
  return 0;
}

void storeElement(ElementType type, uint8_t *base, int64_t index,
                  double value) {
  using namespace codecs;
  switch (type) {
  case ElementType::F16: {
    uint16_t h = floatToHalf(static_cast<float>(value));
    std::memcpy(base + 2 * index, &h, 2);
    return;
  }
  case ElementType::BF16: {
    uint16_t h = floatToBFloat16(static_cast<float>(value));
    std::memcpy(base + 2 * index, &h, 2);
    return;
  }
  case ElementType::F32:
  case ElementType::TF32: {
    float f = static_cast<float>(value);
    std::memcpy(base + 4 * index, &f, 4);
    return;
  }
  case ElementType::E4M3:
    base[index] = floatToE4M3(static_cast<float>(value));
    return;
  case ElementType::E5M2:
    base[index] = floatToE5M2(static_cast<float>(value));
    return;
  case ElementType::S8:
  case ElementType::U8:
    base[index] = static_cast<uint8_t>(static_cast<int64_t>(value));
    return;
  case ElementType::S4:
    setS4(base, index, static_cast<int>(static_cast<int64_t>(value)));
    return;
  case ElementType::S32: {
    int32_t v = static_cast<int32_t>(
        static_cast<uint32_t>(static_cast<int64_t>(value)));
    std::memcpy(base + 4 * index, &v, 4);
    return;
  }
  }
}

double loadA(const GemmSpec &spec, const GemmShape &shape, const uint8_t *a,
             int64_t i, int64_t l) {
  int64_t index = spec.a.layout == Layout::Row ? i * shape.k + l
                                               : l * shape.m + i;
  return loadElement(spec.a.type, a, index);
}

double loadB(const GemmSpec &spec, const GemmShape &shape, const uint8_t *b,
             int64_t l, int64_t j) {
  int64_t index = spec.b.layout == Layout::Row ? l * shape.n + j
                                               : j * shape.k + l;
  return loadElement(spec.b.type, b, index);
}

void cpuGemm(const GemmSpec &spec, const GemmShape &shape, const uint8_t *a,
             const uint8_t *b, uint8_t *c) {
  // Decode once: the inner loop then runs on doubles.
  std::vector<double> aRows(shape.m * shape.k), bCols(shape.n * shape.k);
  for (int64_t i = 0; i < shape.m; ++i)
    for (int64_t l = 0; l < shape.k; ++l)
      aRows[i * shape.k + l] = loadA(spec, shape, a, i, l);
  for (int64_t j = 0; j < shape.n; ++j)
    for (int64_t l = 0; l < shape.k; ++l)
      bCols[j * shape.k + l] = loadB(spec, shape, b, l, j);
  bool integer = spec.isInteger();
  for (int64_t i = 0; i < shape.m; ++i) {
    for (int64_t j = 0; j < shape.n; ++j) {
      const double *x = &aRows[i * shape.k];
      const double *y = &bCols[j * shape.k];
      double result;
      if (integer) {
        int64_t sum = 0;
        for (int64_t l = 0; l < shape.k; ++l)
          sum += static_cast<int64_t>(x[l]) * static_cast<int64_t>(y[l]);
        if (spec.c.type == ElementType::S32) {
          int64_t out = static_cast<int64_t>(spec.alpha) * sum;
          if (spec.beta != 0)
            out += static_cast<int64_t>(spec.beta) *
                   static_cast<int64_t>(
                       loadElement(spec.c.type, c, i * shape.n + j));
          result = static_cast<double>(out);
        } else {
          // A float C dequantizes the exact sum.
          result = spec.alpha * static_cast<double>(sum);
          if (spec.beta != 0)
            result += spec.beta * loadElement(spec.c.type, c, i * shape.n + j);
        }
      } else {
        double sum = 0;
        for (int64_t l = 0; l < shape.k; ++l)
          sum += x[l] * y[l];
        result = spec.alpha * sum;
        if (spec.beta != 0)
          result += spec.beta * loadElement(spec.c.type, c, i * shape.n + j);
      }
      storeElement(spec.c.type, c, i * shape.n + j, result);
    }
  }
}

} // namespace tgemm::runtime
