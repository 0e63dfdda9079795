//===- Epilogue.h - The steps of a fused epilogue (docs/epilogue.md) ------===//
//
// What a GEMM does to each element of C after `alpha * acc + beta * C` and
// before the conversion to C's type: a list of steps, applied in order.
// One vocabulary for the compiler (the `#tgemm.epilogue_step` attribute and
// its lowering), the manifest, the references and the launchers; the
// activations' reference definitions are here too, for the host and the
// reference kernels alike.
//
//   v = alpha * float(acc) + beta * float(C)       (C read when beta != 0)
//   for each step:
//     bias  (row|col|scalar) x:  v = v + float(x[i | j | 0])
//     scale (row|col|scalar) x:  v = v * float(x[i | j | 0])
//     residual r:                v = v + float(r[i, j])   (M x N, like C)
//     relu:      v = max(v, 0)
//     gelu_tanh: v = 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3)))
//     gelu_erf:  v = 0.5 v (1 + erf(v / sqrt(2)))
//     silu:      v = v / (1 + exp(-v))
//   C = v, rounded to C's type
//
// i is the row of C, j its column. Vectors (bias, scale) are rank 1 and
// packed: M elements for `row`, N for `col`, 1 for `scalar`, shared by every
// matrix of a batch; a residual has C's rank and shape, packed.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_EPILOGUE_H
#define TGEMM_RUNTIME_EPILOGUE_H

#include "tgemm/runtime/ElementType.h"

#include <cmath>
#include <optional>
#include <string_view>

#if defined(__CUDACC__)
#define TGEMM_HOST_DEVICE __host__ __device__
#else
#define TGEMM_HOST_DEVICE
#endif

namespace tgemm::runtime {

enum class EpilogueOp : int {
  Bias,
  Scale,
  Residual,
  Relu,
  GeluTanh,
  GeluErf,
  Silu,
};

/// "bias", "scale", "residual", "relu", "gelu_tanh", "gelu_erf", "silu".
const char *epilogueOpName(EpilogueOp op);
std::optional<EpilogueOp> parseEpilogueOp(std::string_view name);
/// "bias, scale, ..." for messages.
const char *allEpilogueOpNames();

/// Whether the step reads an operand (bias, scale and residual do).
inline bool takesOperand(EpilogueOp op) {
  return op == EpilogueOp::Bias || op == EpilogueOp::Scale ||
         op == EpilogueOp::Residual;
}
/// Whether the step's operand is a broadcast vector (bias and scale).
inline bool takesBroadcast(EpilogueOp op) {
  return op == EpilogueOp::Bias || op == EpilogueOp::Scale;
}

/// How a bias or scale vector is indexed: by C's row (M elements), by its
/// column (N elements), or one value for the whole tensor (1 element).
enum class Broadcast : int { Row, Col, Scalar };
const char *broadcastName(Broadcast broadcast);
std::optional<Broadcast> parseBroadcast(std::string_view name);

struct EpilogueStep {
  EpilogueOp op = EpilogueOp::Relu;
  /// For bias and scale.
  Broadcast broadcast = Broadcast::Col;
  /// For bias, scale and residual: the index, in KernelManifest::args, of
  /// the operand the step reads; -1 for the others.
  int arg = -1;

  bool operator==(const EpilogueStep &other) const {
    return op == other.op && arg == other.arg &&
           (!takesBroadcast(op) || broadcast == other.broadcast);
  }
};

/// The element types an epilogue operand may have: f32, f16, bf16.
inline bool isEpilogueOperandType(ElementType type) {
  return type == ElementType::F32 || type == ElementType::F16 ||
         type == ElementType::BF16;
}

/// The reference definition of an activation step (relu, gelu_tanh,
/// gelu_erf, silu) at `v`, in f32; any other step returns `v`.
TGEMM_HOST_DEVICE inline float applyActivation(EpilogueOp op, float v) {
  switch (op) {
  case EpilogueOp::Relu:
    return v > 0.0f ? v : 0.0f;
  case EpilogueOp::GeluTanh: {
    const float k = 0.7978845608028654f; // sqrt(2 / pi)
    return 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
  }
  case EpilogueOp::GeluErf:
    return 0.5f * v * (1.0f + erff(v * 0.7071067811865476f));
  case EpilogueOp::Silu:
    return v / (1.0f + expf(-v));
  default:
    return v;
  }
}

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_EPILOGUE_H
