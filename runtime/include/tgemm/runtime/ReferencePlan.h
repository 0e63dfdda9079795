//===- ReferencePlan.h - Which library computes and anchors each GEMM -----===//
//
// For every precision, what tgemm-run checks a kernel against and what it
// times next to it (the "anchor"), decided from the manifest alone:
//
//   A*B        check reference                        anchor (timed)
//   f16, bf16  cublasGemmEx, compute 32F (16F for     the same call, but
//              acc f16), manifest layouts; a 16-bit   writing C's type
//              C from an f32 accumulator is written
//              as f32 and rounded by tgemm's epilogue
//   tf32/f32   cublasGemmEx, compute 32F_FAST_TF32    the same call
//   s8         cublasGemmEx, compute 32I, on "TN"     the same call
//              copies (A row, B col) if needed
//   e4m3/e5m2  cublasLtMatmul, compute 32F, "TN"      the same call
//   u8, s4     tgemm's reference kernel               cuBLAS s8 TN, same size
//   e5m2*e5m2  tgemm's reference kernel               cuBLASLt e4m3 TN
//   fp8 at sizes that are not multiples of 16 (cuBLASLt has no fp8
//              algorithm there): tgemm's reference kernel, no anchor
//
// When the library cannot write C's type directly (e.g. f16 inputs with a
// bf16 C, or s8 inputs with a float C: an s32 accumulator dequantized), it
// writes its accumulator type to a scratch matrix and a small epilogue
// kernel applies alpha, beta and the conversion. A kernel with a fused
// epilogue (bias, scale, residual, activations: Epilogue.h) is always
// checked that way, the epilogue kernel applying the steps too, in f32,
// before the one rounding to C's type; tgemm's own reference kernel then
// writes its accumulator (f32 or s32) to the scratch matrix as well. The
// anchor stays the plain library GEMM (no epilogue, C = A*B in the type it
// writes): the time of the GEMM a user would fuse the epilogue into.
//
// cuBLAS is column-major: the row-major C = A*B is computed as
// C^T = B^T * A^T, i.e. cuBLAS's first operand is tgemm's B.
//
// The libraries always read packed operands (copies of the kernel's, when
// the kernel's have padded rows or an offset). A batch of GEMMs is one
// strided-batched call: cublasGemmStridedBatchedEx, or cuBLASLt with
// batched matrix layouts (a loop of single calls where cuBLASLt has no
// batched algorithm).
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_REFERENCEPLAN_H
#define TGEMM_RUNTIME_REFERENCEPLAN_H

#include "tgemm/runtime/ElementType.h"
#include "tgemm/runtime/Problem.h"

#include <string>

namespace tgemm::runtime {

/// A row-major GEMM as cuBLAS sees it: C' (m x n, column-major, ldc) =
/// op(A') * op(B'), where A' is the problem's B buffer and B' its A buffer.
/// A batch is `batch` such GEMMs, matrix i of A' at A' + i*strideA
/// elements (likewise B', C'): the packed matrices one after another.
struct ColumnMajorGemm {
  bool transA = false, transB = false;
  int64_t m = 0, n = 0, k = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;
  int64_t batch = 1;
  int64_t strideA = 0, strideB = 0, strideC = 0;

  /// cuBLAS's name of the operation pair, e.g. "TN".
  std::string opName() const;
  /// Rows, columns of the stored A' and B' as column-major matrices (what
  /// cublasLtMatrixLayoutCreate takes).
  int64_t storedRowsA() const { return transA ? k : m; }
  int64_t storedColsA() const { return transA ? m : k; }
  int64_t storedRowsB() const { return transB ? n : k; }
  int64_t storedColsB() const { return transB ? k : n; }
};

ColumnMajorGemm toColumnMajor(const GemmShape &shape, Layout a, Layout b);

enum class ReferenceEngine { Cublas, CublasLt, OwnKernel };

/// One library GEMM: operand types and the layouts of the buffers it reads
/// (row-major terms), the type it writes, and the compute type.
struct LibraryCall {
  ReferenceEngine engine = ReferenceEngine::Cublas;
  ElementType aType = ElementType::F16, bType = ElementType::F16;
  Layout aLayout = Layout::Row, bLayout = Layout::Row;
  ElementType outType = ElementType::F32;
  ElementType computeType = ElementType::F32; // F32, TF32, F16 or S32
  /// The call computes C = alpha*A*B + beta*C in C's type; otherwise it
  /// writes A*B in outType to a scratch matrix for the epilogue kernel.
  bool writesC = true;

  /// "cublas f16*f16->f32 compute 32F" (no layout).
  std::string describe() const;
};

struct ReferencePlan {
  /// What computes the reference C.
  ReferenceEngine checkEngine = ReferenceEngine::Cublas;
  LibraryCall check; // unless checkEngine is OwnKernel
  /// Whether the check call's operands must be relaid out (copies of A in
  /// row and B in col layout), because the library needs "TN".
  bool needsTNCopies = false;

  /// What is timed next to the kernel, if anything.
  bool hasAnchor = true;
  LibraryCall anchor;
  bool anchorIsCheck = true;
  /// Whether a separate anchor reads "TN" copies of the operands.
  bool anchorNeedsTNCopies = false;
  /// Why the anchor computes something else (empty when it does not).
  std::string anchorNote;

  /// Whether the check's GEMM writes A*B (alpha 1, beta 0) to a scratch
  /// matrix of `scratchType`, and tgemm's epilogue kernel then applies
  /// alpha, beta, the fused epilogue's steps and the conversion to C.
  bool epilogueKernel = false;
  ElementType scratchType = ElementType::F32;

  /// "cublas f16*f16->f32 compute 32F" or "tgemm reference kernel".
  std::string describeCheck() const;
};

/// `fusedEpilogue`: the kernel has epilogue steps (KernelManifest::epilogue
/// is not empty), which the check then applies with the epilogue kernel.
ReferencePlan planReference(const GemmSpec &spec, const GemmShape &shape,
                            bool fusedEpilogue = false);

/// The cuBLAS compute-type name, e.g. "32F_FAST_TF32".
const char *computeTypeName(ElementType computeType);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_REFERENCEPLAN_H
