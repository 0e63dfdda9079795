//===- ReferenceKernels.cu - tgemm's own CUDA reference kernels -----------===//
//
// Written for obviousness, not speed: a 16x16 shared-memory tiled GEMM that
// decodes every operand element with the same codecs the host uses.
//
//===----------------------------------------------------------------------===//

#include "tgemm/runtime/ReferenceKernels.h"

#include "tgemm/runtime/Codecs.h"
#include "tgemm/runtime/Error.h"

#include <cuda_runtime.h>

#include <string>
#include <type_traits>

namespace tgemm::runtime {

namespace {

constexpr int kTile = 16;

struct DeviceGemm {
  const uint8_t *a;
  const uint8_t *b;
  uint8_t *c;
  ElementType aType, bType, cType;
  bool aRowMajor, bRowMajor;
  int64_t m, n, k;
  /// The number of matrices, each packed right after the previous one.
  int64_t batch;
  double alpha, beta;
};

/// Element `index` of a stored operand as a float (exact for every operand
/// type but TF32 operands, which are rounded to what the tensor core sees).
__device__ float decodeFloat(ElementType type, const uint8_t *base,
                             int64_t index) {
  using namespace codecs;
  switch (type) {
  case ElementType::F16:
    return halfToFloat(reinterpret_cast<const uint16_t *>(base)[index]);
  case ElementType::BF16:
    return bfloat16ToFloat(reinterpret_cast<const uint16_t *>(base)[index]);
  case ElementType::F32:
  case ElementType::TF32:
    return roundToTf32(reinterpret_cast<const float *>(base)[index]);
  case ElementType::E4M3:
    return e4m3ToFloat(base[index]);
  case ElementType::E5M2:
    return e5m2ToFloat(base[index]);
  default:
    return 0.0f;
  }
}

__device__ int32_t decodeInt(ElementType type, const uint8_t *base,
                             int64_t index) {
  switch (type) {
  case ElementType::S8:
    return static_cast<int8_t>(base[index]);
  case ElementType::U8:
    return base[index];
  case ElementType::S4:
    return codecs::getS4(base, index);
  case ElementType::S32:
    return reinterpret_cast<const int32_t *>(base)[index];
  default:
    return 0;
  }
}

__device__ float loadFloatC(ElementType type, const uint8_t *c, int64_t i) {
  using namespace codecs;
  switch (type) {
  case ElementType::F16:
    return halfToFloat(reinterpret_cast<const uint16_t *>(c)[i]);
  case ElementType::BF16:
    return bfloat16ToFloat(reinterpret_cast<const uint16_t *>(c)[i]);
  default:
    return reinterpret_cast<const float *>(c)[i];
  }
}

__device__ void storeFloatC(ElementType type, uint8_t *c, int64_t i,
                            float v) {
  using namespace codecs;
  switch (type) {
  case ElementType::F16:
    reinterpret_cast<uint16_t *>(c)[i] = floatToHalf(v);
    break;
  case ElementType::BF16:
    reinterpret_cast<uint16_t *>(c)[i] = floatToBFloat16(v);
    break;
  default:
    reinterpret_cast<float *>(c)[i] = v;
    break;
  }
}

template <typename Acc>
__device__ Acc decode(ElementType type, const uint8_t *base, int64_t index);
template <>
__device__ float decode<float>(ElementType type, const uint8_t *base,
                               int64_t index) {
  return decodeFloat(type, base, index);
}
template <>
__device__ int32_t decode<int32_t>(ElementType type, const uint8_t *base,
                                   int64_t index) {
  return decodeInt(type, base, index);
}

template <typename Acc>
__global__ void referenceGemmKernel(DeviceGemm g) {
  __shared__ Acc aTile[kTile][kTile + 1];
  __shared__ Acc bTile[kTile][kTile + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int64_t row = static_cast<int64_t>(blockIdx.y) * kTile + ty;
  int64_t col = static_cast<int64_t>(blockIdx.x) * kTile + tx;
  // Every thread of a block takes the same matrices (blockIdx.z, then
  // gridDim.z further), so all of them reach each __syncthreads.
  for (int64_t batch = blockIdx.z; batch < g.batch; batch += gridDim.z) {
    // Element indices, not byte offsets: s4 elements are nibbles.
    int64_t aBase = batch * g.m * g.k, bBase = batch * g.k * g.n;
    Acc sum = 0;
    for (int64_t k0 = 0; k0 < g.k; k0 += kTile) {
      int64_t ak = k0 + tx, bk = k0 + ty;
      Acc av = 0, bv = 0;
      if (row < g.m && ak < g.k)
        av = decode<Acc>(g.aType, g.a,
                         aBase + (g.aRowMajor ? row * g.k + ak
                                              : ak * g.m + row));
      if (col < g.n && bk < g.k)
        bv = decode<Acc>(g.bType, g.b,
                         bBase + (g.bRowMajor ? bk * g.n + col
                                              : col * g.k + bk));
      aTile[ty][tx] = av;
      bTile[ty][tx] = bv;
      __syncthreads();
      for (int l = 0; l < kTile; ++l)
        sum += aTile[ty][l] * bTile[l][tx];
      __syncthreads();
    }
    if (row >= g.m || col >= g.n)
      continue;
    int64_t index = batch * g.m * g.n + row * g.n + col;
    if constexpr (std::is_integral_v<Acc>) {
      if (g.cType != ElementType::S32) {
        // A float C from an s32 accumulator: dequantized in f32.
        float out = static_cast<float>(g.alpha) * static_cast<float>(sum);
        if (g.beta != 0)
          out += static_cast<float>(g.beta) * loadFloatC(g.cType, g.c, index);
        storeFloatC(g.cType, g.c, index, out);
        continue;
      }
      // s32: wraps like the hardware's 32-bit epilogue.
      int64_t out = static_cast<int64_t>(g.alpha) * sum;
      if (g.beta != 0)
        out += static_cast<int64_t>(g.beta) *
               reinterpret_cast<const int32_t *>(g.c)[index];
      reinterpret_cast<int32_t *>(g.c)[index] =
          static_cast<int32_t>(static_cast<uint32_t>(out));
    } else {
      float out = static_cast<float>(g.alpha) * sum;
      if (g.beta != 0)
        out += static_cast<float>(g.beta) * loadFloatC(g.cType, g.c, index);
      storeFloatC(g.cType, g.c, index, out);
    }
  }
}

/// The steps as the epilogue kernel takes them: by value, a fixed array.
struct DeviceEpilogue {
  int64_t m = 0, n = 0, count = 0;
  int steps = 0;
  ReferenceEpilogueStep step[kMaxReferenceEpilogueSteps];
};

/// Element `i` of a packed epilogue operand (f32, f16 or bf16).
__device__ float loadOperand(const ReferenceEpilogueStep &step, int64_t i) {
  return loadFloatC(step.type, reinterpret_cast<const uint8_t *>(step.operand),
                    i);
}

/// Epilogue.h's steps on `v`, for element `i` of the batch (row `row`,
/// column `col` of its matrix).
__device__ float applySteps(const DeviceEpilogue &e, float v, int64_t i,
                            int64_t row, int64_t col) {
  for (int s = 0; s < e.steps; ++s) {
    const ReferenceEpilogueStep &step = e.step[s];
    int64_t at = step.broadcast == Broadcast::Row   ? row
                 : step.broadcast == Broadcast::Col ? col
                                                    : 0;
    switch (step.op) {
    case EpilogueOp::Bias:
      v += loadOperand(step, at);
      break;
    case EpilogueOp::Scale:
      v *= loadOperand(step, at);
      break;
    case EpilogueOp::Residual:
      v += loadOperand(step, i);
      break;
    default:
      v = applyActivation(step.op, v);
      break;
    }
  }
  return v;
}

__global__ void epilogueKernel(const uint8_t *d, ElementType dType, uint8_t *c,
                               ElementType cType, double alpha, double beta,
                               DeviceEpilogue e) {
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= e.count)
    return;
  if (cType == ElementType::S32) {
    int64_t out = static_cast<int64_t>(alpha) *
                  reinterpret_cast<const int32_t *>(d)[i];
    if (beta != 0)
      out += static_cast<int64_t>(beta) *
             reinterpret_cast<const int32_t *>(c)[i];
    reinterpret_cast<int32_t *>(c)[i] =
        static_cast<int32_t>(static_cast<uint32_t>(out));
    return;
  }
  // An s32 accumulator is dequantized: converted to f32 first.
  float acc = dType == ElementType::S32
                  ? static_cast<float>(reinterpret_cast<const int32_t *>(d)[i])
                  : loadFloatC(dType, d, i);
  float out = static_cast<float>(alpha) * acc;
  if (beta != 0)
    out += static_cast<float>(beta) * loadFloatC(cType, c, i);
  int64_t within = i % (e.m * e.n);
  out = applySteps(e, out, i, within / e.n, within % e.n);
  storeFloatC(cType, c, i, out);
}

__global__ void relayoutKernel(const uint8_t *src, bool widenS4,
                               int64_t rows, int64_t cols, int64_t batch,
                               bool transpose, uint8_t *dst) {
  int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  for (int64_t b = blockIdx.z; b < batch; b += gridDim.z) {
    int64_t base = b * rows * cols; // elements (nibbles for s4)
    for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
      int64_t from = base + r * cols + c;
      uint8_t value = widenS4 ? static_cast<uint8_t>(static_cast<int8_t>(
                                    codecs::getS4(src, from)))
                              : src[from];
      dst[transpose ? base + c * rows + r : from] = value;
    }
  }
}

void checkLaunch(const char *what) {
  cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    fail(ErrorKind::Device, std::string("launching ") + what + ": " +
                                cudaGetErrorName(error) + " (" +
                                cudaGetErrorString(error) + ")");
}

cudaStream_t toRuntime(CUstream stream) {
  return reinterpret_cast<cudaStream_t>(stream);
}

unsigned blocksFor(int64_t count, int threads) {
  return static_cast<unsigned>((count + threads - 1) / threads);
}

} // namespace

void launchReferenceGemm(const GemmSpec &spec, const GemmShape &shape,
                         CUdeviceptr a, CUdeviceptr b, CUdeviceptr c,
                         CUstream stream) {
  DeviceGemm g;
  g.a = reinterpret_cast<const uint8_t *>(a);
  g.b = reinterpret_cast<const uint8_t *>(b);
  g.c = reinterpret_cast<uint8_t *>(c);
  g.aType = spec.a.type;
  g.bType = spec.b.type;
  g.cType = spec.c.type;
  g.aRowMajor = spec.a.layout == Layout::Row;
  g.bRowMajor = spec.b.layout == Layout::Row;
  g.m = shape.m;
  g.n = shape.n;
  g.k = shape.k;
  g.batch = shape.batch;
  g.alpha = spec.alpha;
  g.beta = spec.beta;
  if (blocksFor(shape.m, kTile) > 65535)
    fail(ErrorKind::Unsupported, "the reference kernel handles M up to " +
                                     std::to_string(65535 * kTile));
  dim3 block(kTile, kTile);
  // grid.z is limited to 65535; the kernel loops over the rest of a batch.
  dim3 grid(blocksFor(shape.n, kTile), blocksFor(shape.m, kTile),
            static_cast<unsigned>(shape.batch < 65535 ? shape.batch : 65535));
  if (spec.isInteger())
    referenceGemmKernel<int32_t><<<grid, block, 0, toRuntime(stream)>>>(g);
  else
    referenceGemmKernel<float><<<grid, block, 0, toRuntime(stream)>>>(g);
  checkLaunch("the reference GEMM kernel");
}

void launchEpilogue(CUdeviceptr d, ElementType dType, CUdeviceptr c,
                    ElementType cType, const GemmShape &shape, double alpha,
                    double beta,
                    const std::vector<ReferenceEpilogueStep> &steps,
                    CUstream stream) {
  if (steps.size() > kMaxReferenceEpilogueSteps)
    fail(ErrorKind::Unsupported,
         "the reference epilogue applies at most " +
             std::to_string(kMaxReferenceEpilogueSteps) + " steps; got " +
             std::to_string(steps.size()));
  if (!steps.empty() && cType == ElementType::S32)
    fail(ErrorKind::Unsupported,
         "the reference epilogue applies no steps to an s32 C");
  DeviceEpilogue e;
  e.m = shape.m;
  e.n = shape.n;
  e.count = shape.batch * shape.m * shape.n;
  e.steps = static_cast<int>(steps.size());
  for (size_t s = 0; s < steps.size(); ++s)
    e.step[s] = steps[s];
  if (e.count == 0)
    return;
  epilogueKernel<<<blocksFor(e.count, 256), 256, 0, toRuntime(stream)>>>(
      reinterpret_cast<const uint8_t *>(d), dType,
      reinterpret_cast<uint8_t *>(c), cType, alpha, beta, e);
  checkLaunch("the reference epilogue kernel");
}

void launchRelayout(CUdeviceptr src, ElementType srcType, MatrixShape stored,
                    int64_t batch, bool transpose, CUdeviceptr dst,
                    CUstream stream) {
  if (stored.elements() == 0 || batch == 0)
    return;
  dim3 grid(blocksFor(stored.cols, 256),
            static_cast<unsigned>(stored.rows < 65535 ? stored.rows : 65535),
            static_cast<unsigned>(batch < 65535 ? batch : 65535));
  relayoutKernel<<<grid, 256, 0, toRuntime(stream)>>>(
      reinterpret_cast<const uint8_t *>(src), srcType == ElementType::S4,
      stored.rows, stored.cols, batch, transpose,
      reinterpret_cast<uint8_t *>(dst));
  checkLaunch("the relayout kernel");
}

} // namespace tgemm::runtime
