//===- SelfTest.cpp - Checking the references themselves on a GPU ---------===//

#include "tgemm/runtime/SelfTest.h"

#include "tgemm/runtime/Compare.h"
#include "tgemm/runtime/CpuGemm.h"
#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/Inputs.h"
#include "tgemm/runtime/Reference.h"
#include "tgemm/runtime/ReferenceKernels.h"

#include <cstdio>
#include <vector>

namespace tgemm::runtime {

namespace {

/// Every (A, B, acc, C) tgemm compiles.
std::vector<GemmSpec> allSignatures() {
  using ET = ElementType;
  struct Row {
    ET a, b, acc, c;
  };
  static const Row rows[] = {
      {ET::F16, ET::F16, ET::F32, ET::F32},
      {ET::F16, ET::F16, ET::F32, ET::F16},
      {ET::F16, ET::F16, ET::F32, ET::BF16},
      {ET::F16, ET::F16, ET::F16, ET::F16},
      {ET::F16, ET::F16, ET::F16, ET::F32},
      {ET::BF16, ET::BF16, ET::F32, ET::F32},
      {ET::BF16, ET::BF16, ET::F32, ET::F16},
      {ET::BF16, ET::BF16, ET::F32, ET::BF16},
      {ET::TF32, ET::TF32, ET::F32, ET::F32},
      {ET::TF32, ET::TF32, ET::F32, ET::F16},
      {ET::TF32, ET::TF32, ET::F32, ET::BF16},
      {ET::S8, ET::S8, ET::S32, ET::S32},
      {ET::U8, ET::U8, ET::S32, ET::S32},
      {ET::S4, ET::S4, ET::S32, ET::S32},
      // An s32 accumulator dequantized into a float C.
      {ET::S8, ET::S8, ET::S32, ET::F16},
      {ET::U8, ET::U8, ET::S32, ET::F32},
      {ET::S4, ET::S4, ET::S32, ET::BF16},
      {ET::E4M3, ET::E4M3, ET::F32, ET::F32},
      {ET::E4M3, ET::E4M3, ET::F32, ET::F16},
      {ET::E4M3, ET::E4M3, ET::F32, ET::BF16},
      {ET::E4M3, ET::E5M2, ET::F32, ET::F32},
      {ET::E5M2, ET::E4M3, ET::F32, ET::BF16},
      {ET::E5M2, ET::E5M2, ET::F32, ET::F32},
  };
  std::vector<GemmSpec> specs;
  for (const Row &row : rows) {
    GemmSpec spec;
    spec.a.type = row.a;
    spec.b.type = row.b;
    spec.acc = row.acc;
    spec.c.type = row.c;
    specs.push_back(spec);
  }
  return specs;
}

class SelfTest {
public:
  SelfTest(const Device &device, std::ostream &out)
      : device(device), out(out), libraries(device) {}

  int run();

private:
  const Device &device;
  std::ostream &out;
  BlasLibraries libraries;
  int cases = 0, failures = 0;

  void report(bool ok, const std::string &what, const std::string &detail) {
    ++cases;
    failures += ok ? 0 : 1;
    out << (ok ? "ok    " : "FAIL  ") << what << ": " << detail << "\n";
    out.flush();
  }

  static std::string describe(const GemmSpec &spec, const GemmShape &shape) {
    char scalars[64];
    std::snprintf(scalars, sizeof(scalars), " alpha=%g beta=%g", spec.alpha,
                  spec.beta);
    return spec.signature() + " " + layoutName(spec.a.layout) + "," +
           layoutName(spec.b.layout) + scalars + " " + shape.str();
  }

  static std::string verdict(const CompareResult &r) {
    if (!r.passed)
      return r.describeFailure();
    char text[64];
    std::snprintf(text, sizeof(text), "rel %.2e, max %.2e", r.relativeError,
                  r.maxError);
    return text;
  }

  void runCase(const GemmSpec &spec, const GemmShape &shape, bool library);
  void checkWrongTileIsCaught();
  /// The reference's fused epilogue (the library or tgemm's kernel, then
  /// the epilogue kernel) against the same steps on the CPU.
  void runEpilogueCase(const GemmSpec &spec, const GemmShape &shape);
};

void SelfTest::runCase(const GemmSpec &spec, const GemmShape &shape,
                       bool library) {
  std::string what = describe(spec, shape);
  // A batch is shape.batch packed matrices one after another (sizes are
  // chosen so that every s4 matrix starts on a byte).
  int64_t aMatrix = storedShape(Operand::A, spec.a.layout, shape).elements();
  int64_t bMatrix = storedShape(Operand::B, spec.b.layout, shape).elements();
  int64_t cMatrix = shape.m * shape.n;
  std::vector<uint8_t> aHost = makeRandomMatrix(
      spec.a.type, shape.batch * aMatrix, 7, DataStream::A);
  std::vector<uint8_t> bHost = makeRandomMatrix(
      spec.b.type, shape.batch * bMatrix, 7, DataStream::B);
  std::vector<uint8_t> cInitial = makeRandomMatrix(
      spec.c.type, shape.batch * cMatrix, 7, DataStream::C);
  std::vector<uint8_t> expected = cInitial;
  GemmShape one = shape;
  one.batch = 1;
  one.batched = false;
  for (int64_t i = 0; i < shape.batch; ++i)
    cpuGemm(spec, one, aHost.data() + storageBytes(spec.a.type, i * aMatrix),
            bHost.data() + storageBytes(spec.b.type, i * bMatrix),
            expected.data() + storageBytes(spec.c.type, i * cMatrix));
  Tolerance tolerance = toleranceFor(spec, shape.k);
  auto compare = [&](const std::vector<uint8_t> &got) {
    return compareBatch(spec.c.type, got.data(), expected.data(), shape.batch,
                        shape.batched, shape.m, shape.n, tolerance);
  };

  Stream stream;
  DeviceBuffer a(device, aHost.size(), "A");
  DeviceBuffer b(device, bHost.size(), "B");
  DeviceBuffer c0(device, cInitial.size(), "C0");
  DeviceBuffer c(device, cInitial.size(), "C");
  a.upload(aHost.data(), aHost.size());
  b.upload(bHost.data(), bHost.size());
  c0.upload(cInitial.data(), cInitial.size());
  std::vector<uint8_t> got(cInitial.size());

  try {
    c.copyFrom(c0);
    launchReferenceGemm(spec, shape, a.address(), b.address(), c.address(),
                        stream.get());
    stream.synchronize("the reference kernel");
    c.download(got.data(), got.size());
    CompareResult r = compare(got);
    report(r.passed, what, "tgemm reference kernel vs CPU: " + verdict(r));
  } catch (const Error &e) {
    report(false, what, std::string("tgemm reference kernel: ") + e.what());
  }
  if (!library)
    return;

  try {
    Reference reference(device, libraries, spec, shape, a.address(),
                        b.address(), stream);
    if (reference.plan().checkEngine != ReferenceEngine::OwnKernel) {
      const DeviceBuffer &result = reference.compute(c0, stream);
      result.download(got.data(), got.size());
      CompareResult r = compare(got);
      report(r.passed, what,
             reference.checkName() + " vs CPU: " + verdict(r));
    }
    reference.runAnchor(stream.get());
    stream.synchronize("the anchor");
    report(true, what,
           "anchor " + reference.anchorName() + " " + reference.anchorLayout() +
               " runs");
  } catch (const Error &e) {
    report(false, what, std::string("library reference: ") + e.what());
  }
}

void SelfTest::runEpilogueCase(const GemmSpec &spec, const GemmShape &shape) {
  std::string what = describe(spec, shape) + " + scale(col),bias(row)," +
                     "residual,gelu_erf,silu";
  int64_t aMatrix = storedShape(Operand::A, spec.a.layout, shape).elements();
  int64_t bMatrix = storedShape(Operand::B, spec.b.layout, shape).elements();
  int64_t cMatrix = shape.m * shape.n, count = shape.batch * cMatrix;
  std::vector<uint8_t> aHost =
      makeRandomMatrix(spec.a.type, shape.batch * aMatrix, 5, DataStream::A);
  std::vector<uint8_t> bHost =
      makeRandomMatrix(spec.b.type, shape.batch * bMatrix, 5, DataStream::B);
  std::vector<uint8_t> cInitial =
      makeRandomMatrix(spec.c.type, count, 5, DataStream::C);
  // The operands: f32 scale (N), f16 bias (M), bf16 residual (C's shape).
  std::vector<uint8_t> scale =
      makeEpilogueOperand(EpilogueOp::Scale, ElementType::F32, shape.n, 5, 0);
  std::vector<uint8_t> bias =
      makeEpilogueOperand(EpilogueOp::Bias, ElementType::F16, shape.m, 5, 1);
  std::vector<uint8_t> residual =
      makeEpilogueOperand(EpilogueOp::Residual, ElementType::BF16, count, 5, 2);

  // CPU: alpha*A*B + beta*C in double, then the steps in f32 as
  // Epilogue.h defines them, rounded once to C's type.
  GemmSpec product = spec; // alpha*A*B alone; beta*C is added below
  product.c.type = ElementType::F32;
  product.beta = 0;
  std::vector<uint8_t> expected = cInitial;
  std::vector<uint8_t> sum(static_cast<size_t>(4 * cMatrix));
  GemmShape one = shape;
  one.batch = 1;
  one.batched = false;
  for (int64_t i = 0; i < shape.batch; ++i) {
    cpuGemm(product, one, aHost.data() + storageBytes(spec.a.type, i * aMatrix),
            bHost.data() + storageBytes(spec.b.type, i * bMatrix), sum.data());
    for (int64_t e = 0; e < cMatrix; ++e) {
      int64_t at = i * cMatrix + e, row = e / shape.n, col = e % shape.n;
      float v =
          static_cast<float>(loadElement(ElementType::F32, sum.data(), e));
      if (spec.beta != 0)
        v += static_cast<float>(spec.beta *
                                loadElement(spec.c.type, cInitial.data(), at));
      v *= static_cast<float>(loadElement(ElementType::F32, scale.data(), col));
      v += static_cast<float>(loadElement(ElementType::F16, bias.data(), row));
      v += static_cast<float>(
          loadElement(ElementType::BF16, residual.data(), at));
      v = applyActivation(EpilogueOp::GeluErf, v);
      v = applyActivation(EpilogueOp::Silu, v);
      storeElement(spec.c.type, expected.data(), at, v);
    }
  }
  try {
    Stream stream;
    DeviceBuffer a(device, aHost.size(), "A"), b(device, bHost.size(), "B");
    DeviceBuffer c0(device, cInitial.size(), "C0");
    DeviceBuffer s(device, scale.size(), "the scale"),
        x(device, bias.size(), "the bias"),
        r(device, residual.size(), "the residual");
    a.upload(aHost.data(), aHost.size());
    b.upload(bHost.data(), bHost.size());
    c0.upload(cInitial.data(), cInitial.size());
    s.upload(scale.data(), scale.size());
    x.upload(bias.data(), bias.size());
    r.upload(residual.data(), residual.size());
    std::vector<ReferenceEpilogueStep> steps(5);
    steps[0] = {EpilogueOp::Scale, Broadcast::Col, s.address(),
                ElementType::F32};
    steps[1] = {EpilogueOp::Bias, Broadcast::Row, x.address(),
                ElementType::F16};
    steps[2] = {EpilogueOp::Residual, Broadcast::Col, r.address(),
                ElementType::BF16};
    steps[3].op = EpilogueOp::GeluErf;
    steps[4].op = EpilogueOp::Silu;
    Reference reference(device, libraries, spec, shape, a.address(),
                        b.address(), stream, steps);
    const DeviceBuffer &result = reference.compute(c0, stream);
    std::vector<uint8_t> got(cInitial.size());
    result.download(got.data(), got.size());
    CompareResult cmp = compareBatch(
        spec.c.type, got.data(), expected.data(), shape.batch, shape.batched,
        shape.m, shape.n, toleranceFor(spec, shape.k, true));
    report(cmp.passed, what,
           reference.checkName() + " vs CPU: " + verdict(cmp));
  } catch (const Error &e) {
    report(false, what, std::string("reference epilogue: ") + e.what());
  }
}

void SelfTest::checkWrongTileIsCaught() {
  GemmSpec spec;
  spec.a.type = spec.b.type = ElementType::F16;
  spec.acc = spec.c.type = ElementType::F32;
  GemmShape shape{256, 256, 512};
  std::vector<uint8_t> a = makeRandomMatrix(ElementType::F16, 256 * 512, 3,
                                            DataStream::A);
  std::vector<uint8_t> b = makeRandomMatrix(ElementType::F16, 512 * 256, 3,
                                            DataStream::B);
  std::vector<uint8_t> c(256 * 256 * 4);
  cpuGemm(spec, shape, a.data(), b.data(), c.data());
  std::vector<uint8_t> wrong = c;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      storeElement(ElementType::F32, wrong.data(), (32 + i) * 256 + 48 + j,
                   0.0);
  CompareResult r = compareMatrices(ElementType::F32, wrong.data(), c.data(),
                                    256, 256, toleranceFor(spec, shape.k));
  report(!r.passed, "checker", r.passed ? "a zeroed 16x16 tile passed"
                                        : "a zeroed 16x16 tile is caught: " +
                                              r.describeFailure());
}

int SelfTest::run() {
  out << "self-test on " << device.info().describe() << "\n";
  bool fp8Library = device.info().computeCapability >= 89;
  GemmShape small{96, 64, 160};
  for (GemmSpec spec : allSignatures()) {
    bool library = !isFloat8Type(spec.a.type) || fp8Library;
    for (Layout la : {Layout::Row, Layout::Col}) {
      for (Layout lb : {Layout::Row, Layout::Col}) {
        spec.a.layout = la;
        spec.b.layout = lb;
        spec.alpha = 1;
        spec.beta = 0;
        runCase(spec, small, library);
      }
    }
    // An epilogue that reads C, in the layouts tgemm uses most.
    spec.a.layout = Layout::Row;
    spec.b.layout = Layout::Col;
    spec.alpha = spec.isInteger() ? 2 : 1.5;
    spec.beta = spec.isInteger() ? -3 : 0.5;
    runCase(spec, small, library);
    if (!library)
      out << "skip  " << spec.signature()
          << ": cuBLASLt fp8 needs sm_89 or newer\n";
  }
  // Sizes that take the reference kernel through many tiles.
  for (ElementType t : {ElementType::S4, ElementType::U8, ElementType::E5M2}) {
    GemmSpec spec;
    spec.a.type = spec.b.type = t;
    spec.acc = spec.c.type = isIntegerType(t) ? ElementType::S32
                                              : ElementType::F32;
    spec.a.layout = Layout::Row;
    spec.b.layout = Layout::Col;
    runCase(spec, GemmShape{256, 192, 1024}, false);
  }
  // Batches of 3: the reference kernel over a batch, the libraries'
  // strided-batched calls, the relayout of every matrix of a batch, and the
  // epilogue over all of them. Sizes are multiples of 16 (cuBLASLt's fp8).
  GemmShape batch{48, 80, 96};
  batch.batch = 3;
  batch.batched = true;
  for (GemmSpec spec : allSignatures()) {
    bool library = !isFloat8Type(spec.a.type) || fp8Library;
    spec.a.layout = Layout::Row;
    spec.b.layout = Layout::Col;
    runCase(spec, batch, library);
    spec.a.layout = Layout::Col;
    spec.b.layout = Layout::Row;
    spec.alpha = spec.isInteger() ? 2 : 1.5;
    spec.beta = spec.isInteger() ? -3 : 0.5;
    runCase(spec, batch, library);
  }
  // Fused epilogues, through a library (f16, s8 dequantized, e4m3 through
  // cuBLASLt writing f32) and through tgemm's own kernel (u8), on one
  // matrix and on a batch.
  for (ElementType t : {ElementType::F16, ElementType::S8, ElementType::U8,
                        ElementType::E4M3}) {
    if (isFloat8Type(t) && !fp8Library)
      continue;
    GemmSpec spec;
    spec.a.type = spec.b.type = t;
    spec.acc = isIntegerType(t) ? ElementType::S32 : ElementType::F32;
    spec.c.type = t == ElementType::F16 ? ElementType::F16 : ElementType::BF16;
    spec.a.layout = Layout::Row;
    spec.b.layout = Layout::Col;
    spec.alpha = isIntegerType(t) ? 0.0625 : 1.0;
    spec.beta = 0.5;
    runEpilogueCase(spec, small);
    runEpilogueCase(spec, batch);
  }
  checkWrongTileIsCaught();
  out << "self-test: " << cases << " checks, " << failures << " failed\n";
  return failures;
}

} // namespace

int runSelfTest(const Device &device, std::ostream &out) {
  return SelfTest(device, out).run();
}

} // namespace tgemm::runtime
