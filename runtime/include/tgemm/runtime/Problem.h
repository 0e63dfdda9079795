//===- Problem.h - Problem sizes, requirements and launch dimensions ------===//
//
// Everything about a launch that follows from the manifest, M, N, K, the
// batch size and the operands' leading dimensions and offsets alone, so it is
// decided (and every mistake reported) before a device is touched.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_PROBLEM_H
#define TGEMM_RUNTIME_PROBLEM_H

#include "tgemm/runtime/Manifest.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tgemm::runtime {

/// The most elements a matrix (with its whole batch, padding and offset) of
/// a resolved shape has (2^48).
constexpr int64_t kMaxMatrixElements = int64_t(1) << 48;

struct GemmShape {
  int64_t m = 0, n = 0, k = 0;
  /// The number of GEMMs of a batched kernel; 1 when not batched.
  int64_t batch = 1;
  bool batched = false;

  int64_t get(Dim dim) const {
    switch (dim) {
    case Dim::M:
      return m;
    case Dim::N:
      return n;
    case Dim::K:
      return k;
    case Dim::Batch:
      return batch;
    }
    return 0;
  }
  /// "M=4096 N=4096 K=4096", with " batch=8" when batched.
  std::string str() const;
  /// 2*batch*M*N*K: the operations of the whole launch.
  double operations() const { return 2.0 * batch * m * n * k; }
};

/// Reconciles sizes from the command line (nullopt: not given) with the
/// sizes the kernel was compiled for: a static size is used when none is
/// given and must match when one is; likewise the batch size of a batched
/// kernel. Throws Error(Usage) for a missing dynamic size or batch,
/// Error(Unsupported) for a static size mismatch, a batch given to a kernel
/// that is not batched, or a matrix (with its batch) of more than
/// kMaxMatrixElements elements.
GemmShape resolveShape(const KernelManifest &kernel,
                       std::optional<int64_t> m, std::optional<int64_t> n,
                       std::optional<int64_t> k,
                       std::optional<int64_t> batch = std::nullopt);

/// Throws Error(Unsupported) naming the first requirement `shape` breaks.
void checkRequirements(const KernelManifest &kernel, const GemmShape &shape);

/// The device memory a kernel takes after its memrefs (its workspace), in
/// bytes: 0 for a kernel without split K (config.splitK > 1) and without
/// transposes. The layout: split K's semaphores, one 32-bit counter per
/// tile of C of every matrix (batch x ceil(M / BM) x ceil(N / BN)), padded
/// to a multiple of 256 bytes, then its parts, batch x splitK x M x N
/// accumulators (`acc`); then the transposed copy of A, if the kernel reads
/// one, then B's (transposedCopy), each starting at a multiple of 256 bytes
/// and taking its bytes rounded up to 256. The caller zeroes it before the
/// kernel's first launch; each launch leaves its semaphores at zero again
/// (the parts and the copies need no initial value).
int64_t workspaceBytes(const KernelManifest &kernel, const GemmShape &shape);

/// Whether the kernel takes a workspace parameter: it splits K, or reads
/// an operand from a transposed copy.
bool takesWorkspace(const KernelManifest &kernel);

struct LaunchDims {
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t dynamicSharedMemory = 0;
};

/// Grid, block and dynamic shared memory for `shape`. Throws
/// Error(Unsupported) if a grid extent, of the kernel or of one of its
/// transposing kernels (computeTransposeLaunch), exceeds what CUDA can
/// launch.
LaunchDims computeLaunch(const KernelManifest &kernel, const GemmShape &shape);

/// Rows and columns of a stored matrix, in elements.
struct MatrixShape {
  int64_t rows = 0, cols = 0;
  int64_t elements() const { return rows * cols; }
};

/// The stored shape of an operand: A row is MxK, A col KxM; B row KxN,
/// B col NxK; C is MxN.
MatrixShape storedShape(Operand operand, Layout layout,
                        const GemmShape &shape);

/// How an operand lies in its allocation, in elements: element (b, r, c)
/// of the stored matrix (batch b, row r, column c) is element
/// offset + b*batchStride + r*ld + c of the allocation. Rows are padded to
/// `ld`; batchStride is rows*ld. Packed storage has ld = cols and offset 0.
struct MatrixStorage {
  int64_t batch = 1;
  int64_t rows = 0, cols = 0;
  int64_t ld = 0;
  int64_t batchStride = 0;
  int64_t offset = 0;

  bool isPacked() const { return ld == cols && offset == 0; }
  /// Elements of the allocation: offset + batch*batchStride.
  int64_t allocationElements() const { return offset + batch * batchStride; }
  /// Elements of the matrices themselves: batch*rows*cols.
  int64_t packedElements() const { return batch * rows * cols; }
  int64_t index(int64_t b, int64_t r, int64_t c) const {
    return offset + b * batchStride + r * ld + c;
  }
};

/// The copy of an operand that a kernel reads transposed (an entry of
/// KernelManifest::transposes), in its workspace.
struct TransposedCopy {
  /// The operand stored the other way: the caller's R x C (storedShape) is
  /// C rows of R elements, rows ld apart where ld is R rounded up to 16
  /// bytes of elements, matrices C x ld apart, offset 0, as many matrices
  /// as the operand has.
  MatrixStorage storage;
  /// Bytes from the start of the workspace to the copy (a multiple of 256).
  int64_t offset = 0;
  /// Bytes the copy takes there: its elements' bytes rounded up to 256.
  int64_t bytes = 0;
};

/// The copy of `operand` (A or B, an entry of `kernel.transposes`) at
/// `shape`. Throws Error(Input) if the kernel does not read `operand` from
/// a transposed copy.
TransposedCopy transposedCopy(const KernelManifest &kernel, Operand operand,
                              const GemmShape &shape);

/// The launch of the transposing kernel `transpose` (an entry of
/// `kernel.transposes`) at `shape`, for the operand stored R x C: grid x =
/// ceil(C / tile[1]), y = ceil(R / tile[0]), z = the batch (1 when not
/// batched); block [threads, 1, 1]; no dynamic shared memory. Throws
/// Error(Unsupported) if a grid extent exceeds what CUDA can launch.
LaunchDims computeTransposeLaunch(const KernelManifest &kernel,
                                  const OperandTranspose &transpose,
                                  const GemmShape &shape);

/// The leading dimension and offset asked for one operand (--lda, --offset-a
/// and so on), in elements; nullopt: not asked (packed rows, offset 0).
struct StorageRequest {
  std::optional<int64_t> ld;
  std::optional<int64_t> offset;
};

/// For A, B and C, in that order (indexed by Operand).
using StorageRequests = std::array<StorageRequest, 3>;
using OperandStorages = std::array<MatrixStorage, 3>;

/// The storage of A, B and C for `shape` and the requests. A leading
/// dimension or offset may be asked only for an argument the manifest marks
/// strided (else Error(Unsupported)); a leading dimension must be at least
/// the stored matrix's row length, and for s4 (two per byte) leading
/// dimension and offset must be even (else Error(Usage)); an allocation of
/// more than kMaxMatrixElements elements is Error(Unsupported).
OperandStorages resolveStorage(const KernelManifest &kernel,
                               const GemmShape &shape,
                               const StorageRequests &requests);

/// Packed storage for every operand (what resolveStorage gives with no
/// requests).
OperandStorages packedStorage(const KernelManifest &kernel,
                              const GemmShape &shape);

/// The shape that `storages` (of A, B and C, as resolveStorage or
/// resolveLaunch give them) are of: M, N and the batch from C, K from A.
GemmShape shapeOfStorages(const KernelManifest &kernel,
                          const OperandStorages &storages);

/// The shape of an epilogue operand (KernelManifest::args[argIndex] with
/// `epilogue` set) at a problem shape, always packed: a bias or scale vector
/// is rank 1 with M (row), N (col) or 1 (scalar) elements, shared by every
/// matrix of a batch; a residual has C's rank and shape, [M, N] or
/// [batch, M, N].
struct EpilogueOperandShape {
  int rank = 1;
  /// sizes[0..rank), outermost first.
  std::array<int64_t, 3> sizes = {0, 0, 0};
  int64_t elements = 0;
  /// The step that reads it, and where it is in KernelManifest::epilogue.
  EpilogueStep step;
  size_t stepIndex = 0;

  /// Packed strides in elements: strides[rank - 1] = 1.
  std::array<int64_t, 3> strides() const;
};

/// Throws Error(Input) if `argIndex` is not an epilogue argument read by a
/// step (parseManifest guarantees it is, for every epilogue argument).
EpilogueOperandShape epilogueOperandShape(const KernelManifest &kernel,
                                          size_t argIndex,
                                          const GemmShape &shape);

/// The indices in KernelManifest::args of the epilogue arguments, in args
/// order (the order a launch passes their addresses in).
std::vector<size_t> epilogueArgIndices(const KernelManifest &kernel);

/// What a step does, for reports: "scale(col)", "residual", "gelu_tanh".
std::string describeEpilogueStep(const EpilogueStep &step);
/// The steps, comma-separated ("scale(col),bias(col),gelu_tanh"); empty
/// when the kernel has none.
std::string describeEpilogue(const KernelManifest &kernel);
/// One epilogue operand for messages: "epilogue0: bias(col) f32[4096]",
/// sizes as at `shape` ("f16[8 x 256 x 512]" for a batched residual).
std::string describeEpilogueOperand(const KernelManifest &kernel,
                                    size_t argIndex, const GemmShape &shape);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_PROBLEM_H
