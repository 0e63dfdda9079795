//===- ReferencePlan.cpp - Which library computes and anchors each GEMM ---===//

#include "tgemm/runtime/ReferencePlan.h"

namespace tgemm::runtime {

std::string ColumnMajorGemm::opName() const {
  return std::string(transA ? "T" : "N") + (transB ? "T" : "N");
}

ColumnMajorGemm toColumnMajor(const GemmShape &shape, Layout a, Layout b) {
  ColumnMajorGemm g;
  g.m = shape.n;
  g.n = shape.m;
  g.k = shape.k;
  // A' = B. B row is KxN row-major = NxK column-major (ld N): op N.
  // B col is NxK row-major = KxN column-major (ld K): op T.
  g.transA = b == Layout::Col;
  g.lda = b == Layout::Row ? shape.n : shape.k;
  // B' = A. A row is MxK row-major = KxM column-major (ld K): op N.
  // A col is KxM row-major = MxK column-major (ld M): op T.
  g.transB = a == Layout::Col;
  g.ldb = a == Layout::Row ? shape.k : shape.m;
  g.ldc = shape.n;
  g.batch = shape.batch;
  g.strideA = shape.k * shape.n;
  g.strideB = shape.m * shape.k;
  g.strideC = shape.m * shape.n;
  return g;
}

const char *computeTypeName(ElementType computeType) {
  switch (computeType) {
  case ElementType::F16:
    return "16F";
  case ElementType::TF32:
    return "32F_FAST_TF32";
  case ElementType::S32:
    return "32I";
  default:
    return "32F";
  }
}

std::string LibraryCall::describe() const {
  std::string s = engine == ReferenceEngine::CublasLt ? "cublasLt" : "cublas";
  s += std::string(" ") + elementTypeName(aType) + "*" +
       elementTypeName(bType) + "->" + elementTypeName(outType) +
       " compute " + computeTypeName(computeType);
  return s;
}

std::string ReferencePlan::describeCheck() const {
  if (checkEngine == ReferenceEngine::OwnKernel)
    return "tgemm reference kernel";
  return check.describe();
}

namespace {

/// The operand type as the library names it: f32 operands are TF32 in tgemm.
ElementType libraryOperandType(ElementType t) {
  return t == ElementType::TF32 ? ElementType::F32 : t;
}

LibraryCall cublasCall(const GemmSpec &spec, ElementType compute,
                       bool directOutput, ElementType scratchType) {
  LibraryCall call;
  call.engine = ReferenceEngine::Cublas;
  call.aType = libraryOperandType(spec.a.type);
  call.bType = libraryOperandType(spec.b.type);
  call.aLayout = spec.a.layout;
  call.bLayout = spec.b.layout;
  call.computeType = compute;
  call.writesC = directOutput;
  call.outType = directOutput ? spec.c.type : scratchType;
  return call;
}

/// "TN": the layout cuBLAS's int8 and cuBLASLt's fp8 kernels need.
LibraryCall tnCall(ReferenceEngine engine, ElementType a, ElementType b,
                   ElementType out, ElementType compute) {
  LibraryCall call;
  call.engine = engine;
  call.aType = a;
  call.bType = b;
  call.aLayout = Layout::Row;
  call.bLayout = Layout::Col;
  call.outType = out;
  call.computeType = compute;
  call.writesC = true;
  return call;
}

} // namespace

/// The granule a library needs M, N and K to be multiples of for `call`, or
/// 1: cuBLAS's int8 GEMM needs multiples of 4, cuBLASLt's fp8 GEMM of 16.
static int64_t libraryGranule(const LibraryCall &call) {
  bool int8 = call.aType == ElementType::S8;
  bool fp8 = call.aType == ElementType::E4M3 || call.aType == ElementType::E5M2;
  if (call.engine == ReferenceEngine::CublasLt && fp8)
    return 16;
  if (int8)
    return 4;
  return 1;
}

static ReferencePlan planForAnySize(const GemmSpec &spec);

/// Makes a library check that writes C directly write its accumulator to
/// the scratch matrix instead, when the epilogue kernel must run after it:
/// for a fused epilogue, or when the type it writes is not C's (s8 gives
/// s32; a float C dequantizes). The anchor stays the call it was.
static void routeThroughEpilogueKernel(ReferencePlan &plan,
                                       const GemmSpec &spec,
                                       bool fusedEpilogue) {
  if (plan.checkEngine == ReferenceEngine::OwnKernel || !plan.check.writesC)
    return;
  if (!fusedEpilogue && plan.check.outType == spec.c.type)
    return;
  if (plan.anchorIsCheck) {
    plan.anchor = plan.check;
    plan.anchorIsCheck = false;
    plan.anchorNeedsTNCopies = plan.needsTNCopies;
  }
  plan.check.writesC = false;
  // cuBLAS computing in 16F writes f16; the others keep 32 bits.
  plan.check.outType = spec.isInteger() ? ElementType::S32
                       : plan.check.computeType == ElementType::F16
                           ? ElementType::F16
                           : ElementType::F32;
}

ReferencePlan planReference(const GemmSpec &spec, const GemmShape &shape,
                            bool fusedEpilogue) {
  ReferencePlan plan = planForAnySize(spec);
  routeThroughEpilogueKernel(plan, spec, fusedEpilogue);
  auto fits = [&](const LibraryCall &call) {
    int64_t g = libraryGranule(call);
    return shape.m % g == 0 && shape.n % g == 0 && shape.k % g == 0;
  };
  bool checkFits = plan.checkEngine == ReferenceEngine::OwnKernel ||
                   fits(plan.check);
  bool anchorFits = plan.hasAnchor && fits(plan.anchor);
  if (!checkFits) {
    // tgemm's own reference kernel takes any size.
    plan.checkEngine = ReferenceEngine::OwnKernel;
    plan.needsTNCopies = false;
  }
  if (!anchorFits) {
    plan.hasAnchor = false;
    plan.anchorIsCheck = false;
    plan.anchorNeedsTNCopies = false;
    plan.anchorNote = plan.anchor.describe() + " needs M, N and K multiples "
                      "of " + std::to_string(libraryGranule(plan.anchor)) +
                      "; no anchor at this size";
  }
  if (plan.checkEngine == ReferenceEngine::OwnKernel) {
    // tgemm's kernel writes C itself, unless there are steps to apply or
    // an s32 accumulator to dequantize.
    plan.epilogueKernel =
        fusedEpilogue || (spec.isInteger() && spec.c.type != ElementType::S32);
    plan.scratchType = spec.isInteger() ? ElementType::S32 : ElementType::F32;
  } else {
    plan.epilogueKernel = !plan.check.writesC;
    plan.scratchType = plan.check.outType;
  }
  return plan;
}

static ReferencePlan planForAnySize(const GemmSpec &spec) {
  using ET = ElementType;
  ReferencePlan plan;
  ET a = spec.a.type, c = spec.c.type;
  bool tn = spec.a.layout == Layout::Row && spec.b.layout == Layout::Col;
  switch (a) {
  case ET::F16:
  case ET::BF16:
    if (spec.acc == ET::F16) {
      plan.check = cublasCall(spec, ET::F16, c == ET::F16, ET::F16);
      break;
    }
    // The check keeps f32 until tgemm's epilogue rounds once: a library
    // writing a 16-bit C may round partial sums (split-K) on the way.
    // The anchor is the call a cuBLAS user makes: C's type written
    // directly where cuBLAS can (same type in and out).
    plan.check = cublasCall(spec, ET::F32, c == ET::F32, ET::F32);
    plan.anchor = cublasCall(spec, ET::F32, c == ET::F32 || c == a, ET::F32);
    plan.anchorIsCheck = plan.anchor.writesC == plan.check.writesC;
    return plan;
  case ET::F32:
  case ET::TF32:
    plan.check = cublasCall(spec, ET::TF32, c == ET::F32, ET::F32);
    break;
  case ET::S8:
    plan.check = tnCall(ReferenceEngine::Cublas, ET::S8, ET::S8, ET::S32,
                        ET::S32);
    plan.needsTNCopies = !tn;
    break;
  case ET::U8:
  case ET::S4:
    plan.checkEngine = ReferenceEngine::OwnKernel;
    plan.anchor = tnCall(ReferenceEngine::Cublas, ET::S8, ET::S8, ET::S32,
                         ET::S32);
    plan.anchorIsCheck = false;
    // The s8 anchor reads bytes: 4-bit operands are always unpacked.
    plan.anchorNeedsTNCopies = !tn || a == ET::S4;
    plan.anchorNote = std::string("no library computes ") +
                      elementTypeName(a) +
                      "; the anchor is cuBLAS s8 at the same size";
    return plan;
  case ET::E4M3:
  case ET::E5M2:
    if (a == ET::E5M2 && spec.b.type == ET::E5M2) {
      plan.checkEngine = ReferenceEngine::OwnKernel;
      plan.anchor = tnCall(ReferenceEngine::CublasLt, ET::E4M3, ET::E4M3, c,
                           ET::F32);
      plan.anchorIsCheck = false;
      plan.anchorNeedsTNCopies = !tn;
      plan.anchorNote = "cuBLASLt has no e5m2*e5m2; the anchor is "
                        "cuBLASLt e4m3*e4m3 at the same size";
      return plan;
    }
    plan.checkEngine = ReferenceEngine::CublasLt;
    plan.check = tnCall(ReferenceEngine::CublasLt, a, spec.b.type, c, ET::F32);
    plan.needsTNCopies = !tn;
    break;
  default:
    break;
  }
  plan.anchor = plan.check;
  plan.anchorIsCheck = true;
  return plan;
}

} // namespace tgemm::runtime
