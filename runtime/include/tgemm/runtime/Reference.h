//===- Reference.h - Reference results and the timing anchor --------------===//
//
// Carries out a ReferencePlan on the device: the cuBLAS/cuBLASLt calls (bound
// once to their buffers and then run as often as needed), the operand copies
// the libraries' fast layouts need, and tgemm's own reference kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_REFERENCE_H
#define TGEMM_RUNTIME_REFERENCE_H

#include "tgemm/runtime/Device.h"
#include "tgemm/runtime/ReferenceKernels.h"
#include "tgemm/runtime/ReferencePlan.h"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <memory>
#include <string>

namespace tgemm::runtime {

/// cuBLAS and cuBLASLt handles for one device, created on first use.
class BlasLibraries {
public:
  explicit BlasLibraries(const Device &device) : device(device) {}
  ~BlasLibraries();
  BlasLibraries(const BlasLibraries &) = delete;
  BlasLibraries &operator=(const BlasLibraries &) = delete;

  cublasHandle_t blas();
  cublasLtHandle_t lt();
  /// cuBLASLt's workspace (32 MiB, what it recommends for Hopper).
  const DeviceBuffer &ltWorkspace();
  /// A device float 1.0, for the fp8 scale pointers cuBLASLt requires.
  CUdeviceptr unitScale();
  const Device &owner() const { return device; }

private:
  const Device &device;
  cublasHandle_t blasHandle = nullptr;
  cublasLtHandle_t ltHandle = nullptr;
  DeviceBuffer workspace;
  DeviceBuffer one;
};

/// A library GEMM bound to its buffers: `a` and `b` hold the problem's A and
/// B in the call's layouts, `out` is MxN of the call's output type; for a
/// batch (shape.batch > 1), that many packed matrices one after another,
/// computed by one strided-batched call.
class LibraryGemm {
public:
  LibraryGemm(BlasLibraries &libraries, const LibraryCall &call,
              const GemmShape &shape, CUdeviceptr a, CUdeviceptr b,
              CUdeviceptr out, double alpha, double beta);
  ~LibraryGemm();
  LibraryGemm(const LibraryGemm &) = delete;
  LibraryGemm &operator=(const LibraryGemm &) = delete;

  void run(CUstream stream);
  /// cuBLAS's operation pair, e.g. "TN".
  std::string layoutName() const { return gemm.opName(); }
  /// Whether a batch runs as a loop of single calls (cuBLASLt without a
  /// batched algorithm for it) rather than one strided-batched call.
  bool loopsOverBatch() const { return loopBatches; }

private:
  BlasLibraries &libraries;
  LibraryCall call;
  ColumnMajorGemm gemm;
  CUdeviceptr a, b, out;
  union Scalar {
    float f32;
    int32_t s32;
    uint16_t f16;
  } alpha, beta;
  // cuBLASLt only.
  cublasLtMatmulDesc_t operation = nullptr;
  cublasLtMatrixLayout_t layoutA = nullptr, layoutB = nullptr,
                         layoutC = nullptr;
  cublasLtMatmulAlgo_t algorithm;
  bool loopBatches = false;

  void prepareLt();
  /// Creates the cuBLASLt layouts (batched ones if `batched`) and asks for
  /// an algorithm; false if there is none.
  bool findLtAlgorithm(bool batched, const std::string &what,
                       cublasStatus_t &status);
  void destroyLtLayouts();
};

class Reference {
public:
  /// `a` and `b` hold the problem's operands as the manifest lays them out,
  /// packed (for a batch, shape.batch matrices one after another).
  /// `epilogue`: the kernel's fused epilogue steps with their operands on
  /// the device, which the reference C then has too (ReferencePlan.h).
  Reference(const Device &device, BlasLibraries &libraries,
            const GemmSpec &spec, const GemmShape &shape, CUdeviceptr a,
            CUdeviceptr b, const Stream &stream,
            const std::vector<ReferenceEpilogueStep> &epilogue = {});
  ~Reference();

  /// The reference C (packed, the whole batch) for the initial C in
  /// `initialC`; the result stays in the returned buffer until the next
  /// call.
  const DeviceBuffer &compute(const DeviceBuffer &initialC,
                              const Stream &stream);

  /// The library call that is timed next to the kernel (for a batch, the
  /// whole batch).
  void runAnchor(CUstream stream);

  const ReferencePlan &plan() const { return referencePlan; }
  /// "cublas f16*f16->f32 compute 32F", with " + tgemm epilogue kernel"
  /// when the reference applies a fused epilogue's steps.
  std::string checkName() const;
  std::string anchorName() const { return referencePlan.anchor.describe(); }
  std::string anchorLayout() const;
  /// Why the anchor is timed otherwise than one library call (empty when
  /// it is not): a batch cuBLASLt runs as a loop of calls.
  std::string anchorBatchNote() const;

private:
  GemmSpec spec;
  GemmShape shape;
  CUdeviceptr a, b;
  std::vector<ReferenceEpilogueStep> epilogue;
  ReferencePlan referencePlan;
  DeviceBuffer aCopy, bCopy; // operands in "TN", when needed
  DeviceBuffer result, scratch, anchorOut;
  std::unique_ptr<LibraryGemm> checkGemm, anchorGemm;
};

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_REFERENCE_H
