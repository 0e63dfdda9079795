//===- Reference.cpp - Reference results and the timing anchor ------------===//

#include "tgemm/runtime/Reference.h"

#include "tgemm/runtime/Codecs.h"
#include "tgemm/runtime/Driver.h"
#include "tgemm/runtime/ReferenceKernels.h"

#include <climits>

namespace tgemm::runtime {

namespace {

void checkBlas(cublasStatus_t status, const std::string &what,
               ErrorKind kind = ErrorKind::Device) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return;
  if (status == CUBLAS_STATUS_ALLOC_FAILED)
    kind = ErrorKind::OutOfMemory;
  fail(kind, what + ": " + cublasGetStatusName(status) + " (" +
                 cublasGetStatusString(status) + ")");
}

cudaDataType toCudaType(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return CUDA_R_16F;
  case ElementType::BF16:
    return CUDA_R_16BF;
  case ElementType::F32:
  case ElementType::TF32:
    return CUDA_R_32F;
  case ElementType::S8:
    return CUDA_R_8I;
  case ElementType::U8:
    return CUDA_R_8U;
  case ElementType::S32:
    return CUDA_R_32I;
  case ElementType::E4M3:
    return CUDA_R_8F_E4M3;
  case ElementType::E5M2:
    return CUDA_R_8F_E5M2;
  case ElementType::S4:
    return CUDA_R_4I;
  }
  return CUDA_R_32F;
}

cublasComputeType_t toComputeType(ElementType compute) {
  switch (compute) {
  case ElementType::F16:
    return CUBLAS_COMPUTE_16F;
  case ElementType::TF32:
    return CUBLAS_COMPUTE_32F_FAST_TF32;
  case ElementType::S32:
    return CUBLAS_COMPUTE_32I;
  default:
    return CUBLAS_COMPUTE_32F;
  }
}

int toInt(int64_t value, const char *what) {
  if (value > INT_MAX)
    fail(ErrorKind::Unsupported, std::string(what) + " = " +
                                     std::to_string(value) +
                                     " is too large for cuBLAS");
  return static_cast<int>(value);
}

} // namespace

BlasLibraries::~BlasLibraries() {
  if (ltHandle)
    cublasLtDestroy(ltHandle);
  if (blasHandle)
    cublasDestroy(blasHandle);
}

cublasHandle_t BlasLibraries::blas() {
  if (!blasHandle) {
    device.makeCurrent();
    checkBlas(cublasCreate(&blasHandle), "cublasCreate");
  }
  return blasHandle;
}

cublasLtHandle_t BlasLibraries::lt() {
  if (!ltHandle) {
    device.makeCurrent();
    checkBlas(cublasLtCreate(&ltHandle), "cublasLtCreate");
  }
  return ltHandle;
}

const DeviceBuffer &BlasLibraries::ltWorkspace() {
  if (!workspace.address())
    workspace = DeviceBuffer(device, 32u << 20, "the cuBLASLt workspace");
  return workspace;
}

CUdeviceptr BlasLibraries::unitScale() {
  if (!one.address()) {
    one = DeviceBuffer(device, sizeof(float), "the fp8 scale");
    float value = 1.0f;
    one.upload(&value, sizeof(value));
  }
  return one.address();
}

LibraryGemm::LibraryGemm(BlasLibraries &libraries, const LibraryCall &call,
                         const GemmShape &shape, CUdeviceptr a, CUdeviceptr b,
                         CUdeviceptr out, double alphaValue, double betaValue)
    : libraries(libraries), call(call),
      gemm(toColumnMajor(shape, call.aLayout, call.bLayout)), a(a), b(b),
      out(out) {
  toInt(gemm.m, "N");
  toInt(gemm.n, "M");
  toInt(gemm.k, "K");
  toInt(gemm.batch, "the batch size");
  // The scalars have the compute type's scalar type (f32 for cuBLASLt).
  switch (call.engine == ReferenceEngine::CublasLt ? ElementType::F32
                                                   : call.computeType) {
  case ElementType::S32:
    alpha.s32 = static_cast<int32_t>(alphaValue);
    beta.s32 = static_cast<int32_t>(betaValue);
    break;
  case ElementType::F16:
    alpha.f16 = codecs::floatToHalf(static_cast<float>(alphaValue));
    beta.f16 = codecs::floatToHalf(static_cast<float>(betaValue));
    break;
  default:
    alpha.f32 = static_cast<float>(alphaValue);
    beta.f32 = static_cast<float>(betaValue);
    break;
  }
  if (call.engine == ReferenceEngine::CublasLt)
    prepareLt();
}

void LibraryGemm::prepareLt() {
  const Device &device = libraries.owner();
  if (device.info().computeCapability < 89)
    fail(ErrorKind::Unsupported,
         "cuBLASLt computes fp8 only on sm_89 or newer; " +
             device.info().describe() + " is not");
  std::string what = "cuBLASLt " + call.describe() + " " + gemm.opName();
  checkBlas(cublasLtMatmulDescCreate(&operation, CUBLAS_COMPUTE_32F,
                                     CUDA_R_32F),
            what);
  cublasOperation_t transA = gemm.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t transB = gemm.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  checkBlas(cublasLtMatmulDescSetAttribute(operation,
                                           CUBLASLT_MATMUL_DESC_TRANSA,
                                           &transA, sizeof(transA)),
            what);
  checkBlas(cublasLtMatmulDescSetAttribute(operation,
                                           CUBLASLT_MATMUL_DESC_TRANSB,
                                           &transB, sizeof(transB)),
            what);
  if (isFloat8Type(call.aType)) {
    const void *scale = reinterpret_cast<const void *>(libraries.unitScale());
    checkBlas(cublasLtMatmulDescSetAttribute(
                  operation, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale,
                  sizeof(scale)),
              what);
    checkBlas(cublasLtMatmulDescSetAttribute(
                  operation, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale,
                  sizeof(scale)),
              what);
  }
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  // A batch is one call on batched layouts where cuBLASLt has an algorithm
  // for them, and a loop of single calls otherwise.
  if (gemm.batch > 1 && findLtAlgorithm(true, what, status))
    return;
  if (gemm.batch > 1) {
    destroyLtLayouts();
    loopBatches = true;
  }
  if (!findLtAlgorithm(false, what, status))
    fail(ErrorKind::Unsupported,
         what + ": cuBLASLt has no algorithm for it on " +
             device.info().describe() +
             (status != CUBLAS_STATUS_SUCCESS
                  ? std::string(" (") + cublasGetStatusName(status) + ")"
                  : std::string()));
}

bool LibraryGemm::findLtAlgorithm(bool batched, const std::string &what,
                                  cublasStatus_t &status) {
  // cuBLAS's A is the problem's B (see ReferencePlan.h).
  checkBlas(cublasLtMatrixLayoutCreate(&layoutA, toCudaType(call.bType),
                                       gemm.storedRowsA(), gemm.storedColsA(),
                                       gemm.lda),
            what);
  checkBlas(cublasLtMatrixLayoutCreate(&layoutB, toCudaType(call.aType),
                                       gemm.storedRowsB(), gemm.storedColsB(),
                                       gemm.ldb),
            what);
  checkBlas(cublasLtMatrixLayoutCreate(&layoutC, toCudaType(call.outType),
                                       gemm.m, gemm.n, gemm.ldc),
            what);
  if (batched) {
    int32_t count = static_cast<int32_t>(gemm.batch);
    const std::pair<cublasLtMatrixLayout_t, int64_t> strides[] = {
        {layoutA, gemm.strideA}, {layoutB, gemm.strideB},
        {layoutC, gemm.strideC}};
    for (const auto &[layout, stride] : strides) {
      checkBlas(cublasLtMatrixLayoutSetAttribute(
                    layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                    sizeof(count)),
                what);
      checkBlas(cublasLtMatrixLayoutSetAttribute(
                    layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                    &stride, sizeof(stride)),
                what);
    }
  }
  cublasLtMatmulPreference_t preference = nullptr;
  checkBlas(cublasLtMatmulPreferenceCreate(&preference), what);
  uint64_t workspaceBytes = libraries.ltWorkspace().size();
  cublasLtMatmulPreferenceSetAttribute(
      preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes,
      sizeof(workspaceBytes));
  cublasLtMatmulHeuristicResult_t result = {};
  int found = 0;
  status = cublasLtMatmulAlgoGetHeuristic(libraries.lt(), operation, layoutA,
                                          layoutB, layoutC, layoutC,
                                          preference, 1, &result, &found);
  cublasLtMatmulPreferenceDestroy(preference);
  if (status != CUBLAS_STATUS_SUCCESS || found == 0)
    return false;
  algorithm = result.algo;
  return true;
}

void LibraryGemm::destroyLtLayouts() {
  if (layoutC)
    cublasLtMatrixLayoutDestroy(layoutC);
  if (layoutB)
    cublasLtMatrixLayoutDestroy(layoutB);
  if (layoutA)
    cublasLtMatrixLayoutDestroy(layoutA);
  layoutA = layoutB = layoutC = nullptr;
}

LibraryGemm::~LibraryGemm() {
  destroyLtLayouts();
  if (operation)
    cublasLtMatmulDescDestroy(operation);
}

void LibraryGemm::run(CUstream stream) {
  std::string what;
  if (call.engine == ReferenceEngine::CublasLt) {
    const DeviceBuffer &workspace = libraries.ltWorkspace();
    // One call for the whole batch on batched layouts, or one per matrix:
    // matrix i of each operand starts i strides (in elements) further.
    int64_t calls = loopBatches ? gemm.batch : 1;
    for (int64_t i = 0; i < calls; ++i) {
      CUdeviceptr bi = b + storageBytes(call.bType, i * gemm.strideA);
      CUdeviceptr ai = a + storageBytes(call.aType, i * gemm.strideB);
      CUdeviceptr outi = out + storageBytes(call.outType, i * gemm.strideC);
      cublasStatus_t status = cublasLtMatmul(
          libraries.lt(), operation, &alpha, reinterpret_cast<void *>(bi),
          layoutA, reinterpret_cast<void *>(ai), layoutB, &beta,
          reinterpret_cast<void *>(outi), layoutC,
          reinterpret_cast<void *>(outi), layoutC, &algorithm,
          reinterpret_cast<void *>(workspace.address()), workspace.size(),
          reinterpret_cast<cudaStream_t>(stream));
      if (status != CUBLAS_STATUS_SUCCESS)
        checkBlas(status, "cublasLtMatmul " + call.describe() + " " +
                              gemm.opName());
    }
    return;
  }
  cublasHandle_t handle = libraries.blas();
  checkBlas(cublasSetStream(handle, reinterpret_cast<cudaStream_t>(stream)),
            "cublasSetStream");
  if (gemm.batch > 1) {
    // cuBLAS's A is the problem's B, its B the problem's A (ReferencePlan.h).
    cublasStatus_t status = cublasGemmStridedBatchedEx(
        handle, gemm.transA ? CUBLAS_OP_T : CUBLAS_OP_N,
        gemm.transB ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(gemm.m),
        static_cast<int>(gemm.n), static_cast<int>(gemm.k), &alpha,
        reinterpret_cast<const void *>(b), toCudaType(call.bType),
        toInt(gemm.lda, "lda"), static_cast<long long>(gemm.strideA),
        reinterpret_cast<const void *>(a), toCudaType(call.aType),
        toInt(gemm.ldb, "ldb"), static_cast<long long>(gemm.strideB), &beta,
        reinterpret_cast<void *>(out), toCudaType(call.outType),
        toInt(gemm.ldc, "ldc"), static_cast<long long>(gemm.strideC),
        static_cast<int>(gemm.batch), toComputeType(call.computeType),
        CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS)
      checkBlas(status, "cublasGemmStridedBatchedEx " + call.describe() +
                            " " + gemm.opName() + " batch " +
                            std::to_string(gemm.batch));
    return;
  }
  cublasStatus_t status = cublasGemmEx(
      handle, gemm.transA ? CUBLAS_OP_T : CUBLAS_OP_N,
      gemm.transB ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(gemm.m),
      static_cast<int>(gemm.n), static_cast<int>(gemm.k), &alpha,
      reinterpret_cast<const void *>(b), toCudaType(call.bType),
      toInt(gemm.lda, "lda"), reinterpret_cast<const void *>(a),
      toCudaType(call.aType), toInt(gemm.ldb, "ldb"), &beta,
      reinterpret_cast<void *>(out), toCudaType(call.outType),
      toInt(gemm.ldc, "ldc"), toComputeType(call.computeType),
      CUBLAS_GEMM_DEFAULT);
  if (status != CUBLAS_STATUS_SUCCESS)
    checkBlas(status, "cublasGemmEx " + call.describe() + " " + gemm.opName());
}

namespace {

/// A copy of an operand in the layout cuBLAS's int8 and cuBLASLt's fp8
/// kernels need (A row, B col), one byte per element; or the operand itself
/// if it already is one.
CUdeviceptr tnOperand(const Device &device, Operand operand,
                      const OperandSpec &spec, const GemmShape &shape,
                      CUdeviceptr source, DeviceBuffer &copy,
                      const Stream &stream) {
  Layout wanted = operand == Operand::A ? Layout::Row : Layout::Col;
  bool widen = spec.type == ElementType::S4;
  if (spec.layout == wanted && !widen)
    return source;
  MatrixShape stored = storedShape(operand, spec.layout, shape);
  copy = DeviceBuffer(device,
                      static_cast<size_t>(shape.batch * stored.elements()),
                      std::string(operand == Operand::A ? "A" : "B") +
                          " relaid out for the library");
  launchRelayout(source, spec.type, stored, shape.batch,
                 spec.layout != wanted, copy.address(), stream.get());
  return copy.address();
}

/// Bytes of C (the whole batch) in `type`.
size_t matrixBytes(ElementType type, const GemmShape &shape) {
  return static_cast<size_t>(
      storageBytes(type, shape.batch * shape.m * shape.n));
}

} // namespace

Reference::Reference(const Device &device, BlasLibraries &libraries,
                     const GemmSpec &spec, const GemmShape &shape,
                     CUdeviceptr a, CUdeviceptr b, const Stream &stream,
                     const std::vector<ReferenceEpilogueStep> &epilogue)
    : spec(spec), shape(shape), a(a), b(b), epilogue(epilogue),
      referencePlan(planReference(spec, shape, !epilogue.empty())) {
  const ReferencePlan &plan = referencePlan;
  bool libraryCheck = plan.checkEngine != ReferenceEngine::OwnKernel;
  CUdeviceptr aLib = a, bLib = b;
  if ((libraryCheck && plan.needsTNCopies) ||
      (!plan.anchorIsCheck && plan.anchorNeedsTNCopies)) {
    aLib = tnOperand(device, Operand::A, spec.a, shape, a, aCopy, stream);
    bLib = tnOperand(device, Operand::B, spec.b, shape, b, bCopy, stream);
    stream.synchronize("relaying out the operands for the library");
  }
  result = DeviceBuffer(device, matrixBytes(spec.c.type, shape),
                        "the reference C");
  if (plan.epilogueKernel)
    scratch = DeviceBuffer(device, matrixBytes(plan.scratchType, shape),
                           "the reference's A*B");
  if (libraryCheck) {
    CUdeviceptr out = plan.check.writesC ? result.address() : scratch.address();
    checkGemm = std::make_unique<LibraryGemm>(
        libraries, plan.check, shape, aLib, bLib, out,
        plan.check.writesC ? spec.alpha : 1.0,
        plan.check.writesC ? spec.beta : 0.0);
  }
  if (plan.hasAnchor && !plan.anchorIsCheck) {
    anchorOut = DeviceBuffer(device, matrixBytes(plan.anchor.outType, shape),
                             "the anchor's C");
    anchorGemm = std::make_unique<LibraryGemm>(
        libraries, plan.anchor, shape, aLib, bLib, anchorOut.address(), 1.0,
        0.0);
  }
}

Reference::~Reference() = default;

const DeviceBuffer &Reference::compute(const DeviceBuffer &initialC,
                                       const Stream &stream) {
  result.copyFrom(initialC);
  const ReferencePlan &plan = referencePlan;
  if (!plan.epilogueKernel) {
    if (checkGemm)
      checkGemm->run(stream.get());
    else
      launchReferenceGemm(spec, shape, a, b, result.address(), stream.get());
  } else {
    // A*B alone into the scratch matrix; the epilogue kernel then applies
    // alpha, beta, the steps and the one rounding to C's type.
    if (checkGemm) {
      checkGemm->run(stream.get());
    } else {
      GemmSpec product = spec;
      product.c.type = plan.scratchType;
      product.alpha = 1.0;
      product.beta = 0.0;
      launchReferenceGemm(product, shape, a, b, scratch.address(),
                          stream.get());
    }
    launchEpilogue(scratch.address(), plan.scratchType, result.address(),
                   spec.c.type, shape, spec.alpha, spec.beta, epilogue,
                   stream.get());
  }
  stream.synchronize("computing the reference (" + checkName() + ")");
  return result;
}

std::string Reference::checkName() const {
  return referencePlan.describeCheck() +
         (epilogue.empty() ? "" : " + tgemm epilogue kernel");
}

void Reference::runAnchor(CUstream stream) {
  if (anchorGemm)
    anchorGemm->run(stream);
  else
    checkGemm->run(stream);
}

std::string Reference::anchorLayout() const {
  return anchorGemm ? anchorGemm->layoutName() : checkGemm->layoutName();
}

std::string Reference::anchorBatchNote() const {
  const LibraryGemm *anchor = anchorGemm ? anchorGemm.get() : checkGemm.get();
  if (!anchor || !anchor->loopsOverBatch())
    return "";
  return "cuBLASLt has no batched algorithm for the anchor; it is timed as "
         "a loop of " +
         std::to_string(shape.batch) + " calls";
}

} // namespace tgemm::runtime
