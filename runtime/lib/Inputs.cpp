//===- Inputs.cpp - Deterministic test data -------------------------------===//

#include "tgemm/runtime/Inputs.h"

#include "tgemm/runtime/Codecs.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace tgemm::runtime {

namespace {

uint64_t splitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// The random bits of element `index`.
uint64_t randomBits(uint64_t seed, DataStream stream, int64_t index) {
  uint64_t key = splitMix64(seed ^ (static_cast<uint64_t>(stream) << 56));
  return splitMix64(key + static_cast<uint64_t>(index));
}

/// Uniform in [-1, 1).
float uniformSigned(uint64_t bits) {
  return static_cast<float>(bits >> 40) * (1.0f / (1 << 23)) - 1.0f;
}

/// Uniform integer in [lo, hi].
int uniformInt(uint64_t bits, int lo, int hi) {
  return lo + static_cast<int>((bits >> 32) % static_cast<uint64_t>(hi - lo + 1));
}

void fillRange(ElementType type, uint64_t seed, DataStream stream,
               int64_t begin, int64_t end, uint8_t *out) {
  using namespace codecs;
  for (int64_t i = begin; i < end; ++i) {
    uint64_t bits = randomBits(seed, stream, i);
    switch (type) {
    case ElementType::F16: {
      uint16_t h = floatToHalf(uniformSigned(bits));
      std::memcpy(out + 2 * i, &h, 2);
      break;
    }
    case ElementType::BF16: {
      uint16_t h = floatToBFloat16(uniformSigned(bits));
      std::memcpy(out + 2 * i, &h, 2);
      break;
    }
    case ElementType::F32:
    case ElementType::TF32: {
      float f = roundToTf32(uniformSigned(bits));
      std::memcpy(out + 4 * i, &f, 4);
      break;
    }
    case ElementType::E4M3:
      out[i] = floatToE4M3(uniformSigned(bits));
      break;
    case ElementType::E5M2:
      out[i] = floatToE5M2(uniformSigned(bits));
      break;
    case ElementType::S8:
      out[i] = static_cast<uint8_t>(static_cast<int8_t>(uniformInt(bits, -16, 15)));
      break;
    case ElementType::U8:
      out[i] = static_cast<uint8_t>(uniformInt(bits, 0, 31));
      break;
    case ElementType::S4:
      setS4(out, i, uniformInt(bits, -8, 7));
      break;
    case ElementType::S32: {
      int32_t v = uniformInt(bits, -64, 63);
      std::memcpy(out + 4 * i, &v, 4);
      break;
    }
    }
  }
}

/// Calls fill(begin, end) over [0, elements) in parallel chunks of an even
/// size (so that no two threads share an s4 byte).
template <typename Fill> void fillInParallel(int64_t elements, Fill fill) {
  int64_t threads = std::max<int64_t>(
      1, std::min<int64_t>(std::thread::hardware_concurrency(), 32));
  int64_t chunk = ((elements / threads + 1) + 1) & ~int64_t(1);
  if (elements < (1 << 16))
    chunk = elements;
  std::vector<std::thread> workers;
  for (int64_t begin = 0; begin < elements; begin += chunk)
    workers.emplace_back(fill, begin, std::min(elements, begin + chunk));
  for (std::thread &t : workers)
    t.join();
}

} // namespace

std::vector<uint8_t> makeRandomMatrix(ElementType type, int64_t elements,
                                      uint64_t seed, DataStream stream) {
  std::vector<uint8_t> out(static_cast<size_t>(storageBytes(type, elements)),
                           0);
  fillInParallel(elements, [&](int64_t begin, int64_t end) {
    fillRange(type, seed, stream, begin, end, out.data());
  });
  return out;
}

std::vector<uint8_t> makeEpilogueOperand(EpilogueOp op, ElementType type,
                                         int64_t elements, uint64_t seed,
                                         size_t ordinal) {
  using namespace codecs;
  auto stream = static_cast<DataStream>(
      static_cast<uint64_t>(DataStream::Epilogue0) + ordinal);
  std::vector<uint8_t> out(static_cast<size_t>(storageBytes(type, elements)),
                           0);
  bool scale = op == EpilogueOp::Scale;
  fillInParallel(elements, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      float v = uniformSigned(randomBits(seed, stream, i));
      if (scale)
        v = 1.0f + 0.5f * v; // [0.5, 1.5)
      if (type == ElementType::F32) {
        std::memcpy(out.data() + 4 * i, &v, 4);
        continue;
      }
      uint16_t h =
          type == ElementType::BF16 ? floatToBFloat16(v) : floatToHalf(v);
      std::memcpy(out.data() + 2 * i, &h, 2);
    }
  });
  return out;
}

std::vector<uint8_t> makeRandomBytes(size_t bytes, uint64_t seed,
                                     DataStream stream) {
  std::vector<uint8_t> out(bytes);
  for (size_t i = 0; i < bytes; i += 8) {
    uint64_t bits = randomBits(seed, stream, static_cast<int64_t>(i / 8));
    std::memcpy(out.data() + i, &bits, std::min<size_t>(8, bytes - i));
  }
  return out;
}

namespace {

/// The raw bits of element `index` (a nibble for s4).
uint32_t nibble(const uint8_t *base, int64_t index) {
  return (base[index >> 1] >> ((index & 1) * 4)) & 0xfu;
}

/// Calls visit(packedIndex, allocationIndex, count) for each run of `count`
/// elements that lie contiguously in both (one row of one matrix).
template <typename Visit>
void forEachRow(const MatrixStorage &storage, Visit &&visit) {
  for (int64_t b = 0; b < storage.batch; ++b)
    for (int64_t r = 0; r < storage.rows; ++r)
      visit((b * storage.rows + r) * storage.cols, storage.index(b, r, 0),
            storage.cols);
}

} // namespace

std::vector<uint8_t> scatterToStorage(ElementType type,
                                      const MatrixStorage &storage,
                                      const uint8_t *packed,
                                      std::vector<uint8_t> fill) {
  fill.resize(static_cast<size_t>(
      storageBytes(type, storage.allocationElements())));
  uint8_t *out = fill.data();
  if (type == ElementType::S4) {
    forEachRow(storage, [&](int64_t from, int64_t to, int64_t count) {
      for (int64_t i = 0; i < count; ++i)
        codecs::setS4(out, to + i, codecs::getS4(packed, from + i));
    });
    return fill;
  }
  size_t size = static_cast<size_t>(elementBits(type) / 8);
  forEachRow(storage, [&](int64_t from, int64_t to, int64_t count) {
    std::memcpy(out + to * size, packed + from * size, count * size);
  });
  return fill;
}

std::vector<uint8_t> gatherFromStorage(ElementType type,
                                       const MatrixStorage &storage,
                                       const uint8_t *allocation) {
  std::vector<uint8_t> out(
      static_cast<size_t>(storageBytes(type, storage.packedElements())), 0);
  if (type == ElementType::S4) {
    forEachRow(storage, [&](int64_t to, int64_t from, int64_t count) {
      for (int64_t i = 0; i < count; ++i)
        codecs::setS4(out.data(), to + i, codecs::getS4(allocation, from + i));
    });
    return out;
  }
  size_t size = static_cast<size_t>(elementBits(type) / 8);
  forEachRow(storage, [&](int64_t to, int64_t from, int64_t count) {
    std::memcpy(out.data() + to * size, allocation + from * size,
                count * size);
  });
  return out;
}

PaddingChange comparePadding(ElementType type, const MatrixStorage &storage,
                             const uint8_t *before, const uint8_t *after) {
  PaddingChange change;
  size_t size = static_cast<size_t>(elementBits(type) / 8);
  auto compareRange = [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      bool differs = type == ElementType::S4
                         ? nibble(before, i) != nibble(after, i)
                         : std::memcmp(before + i * size, after + i * size,
                                       size) != 0;
      if (!differs)
        continue;
      if (change.first < 0)
        change.first = i;
      ++change.changed;
    }
  };
  compareRange(0, storage.offset);
  if (storage.ld > storage.cols)
    forEachRow(storage, [&](int64_t, int64_t rowStart, int64_t count) {
      compareRange(rowStart + count, rowStart + storage.ld);
    });
  return change;
}

std::string describeStorageIndex(const MatrixStorage &storage,
                                 int64_t index) {
  if (index < storage.offset)
    return "element " + std::to_string(index) + " of the " +
           std::to_string(storage.offset) +
           " before the first element (the offset)";
  int64_t within = index - storage.offset;
  int64_t b = within / storage.batchStride;
  int64_t r = (within % storage.batchStride) / storage.ld;
  int64_t c = within % storage.ld;
  std::string where = "row " + std::to_string(r) + ", column " +
                      std::to_string(c);
  if (storage.batch > 1)
    where += " of matrix " + std::to_string(b);
  if (c >= storage.cols)
    where += " (in the padding: rows have " + std::to_string(storage.cols) +
             " elements and the leading dimension is " +
             std::to_string(storage.ld) + ")";
  return where;
}

} // namespace tgemm::runtime
