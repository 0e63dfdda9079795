//===- KernelManifest.cpp - The launch manifest on gpu.launch_func --------===//
//
// The manifest's schema is the runtime's (runtime/include/tgemm/runtime/
// Manifest.h): this file fills a runtime::KernelManifest and carries it on
// the IR as the attribute form of its JSON, converted without knowing any
// field, so that the runtime's writer and reader stay the only code that
// names one.
//
//===----------------------------------------------------------------------===//

#include "tgemm/Transforms/KernelManifest.h"

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tgemm;
namespace rt = ::tgemm::runtime;

Attribute mlir::tgemm::jsonToAttribute(MLIRContext *ctx,
                                       const rt::JsonValue &value) {
  Builder b(ctx);
  switch (value.kind()) {
  case rt::JsonValue::Kind::Null:
    return b.getUnitAttr();
  case rt::JsonValue::Kind::Bool:
    return b.getBoolAttr(value.getBool());
  case rt::JsonValue::Kind::Number:
    if (value.isInteger())
      return b.getI64IntegerAttr(value.getInteger());
    return b.getF64FloatAttr(value.getNumber());
  case rt::JsonValue::Kind::String:
    return b.getStringAttr(value.getString());
  case rt::JsonValue::Kind::Array: {
    SmallVector<Attribute> items;
    for (const rt::JsonValue &item : value.getArray())
      items.push_back(jsonToAttribute(ctx, item));
    return b.getArrayAttr(items);
  }
  case rt::JsonValue::Kind::Object: {
    SmallVector<NamedAttribute> members;
    for (const rt::JsonValue::Member &m : value.getObject())
      members.push_back(
          b.getNamedAttr(m.first, jsonToAttribute(ctx, m.second)));
    return b.getDictionaryAttr(members);
  }
  }
  llvm_unreachable("unknown JSON kind");
}

FailureOr<rt::JsonValue> mlir::tgemm::attributeToJson(Attribute attr) {
  if (isa<UnitAttr>(attr))
    return rt::JsonValue();
  if (auto flag = dyn_cast<BoolAttr>(attr))
    return rt::JsonValue::makeBool(flag.getValue());
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    if (i.getValue().getSignificantBits() > 64)
      return failure();
    return rt::JsonValue::makeInteger(i.getValue().getSExtValue());
  }
  if (auto f = dyn_cast<FloatAttr>(attr))
    return rt::JsonValue::makeReal(f.getValueAsDouble());
  if (auto s = dyn_cast<StringAttr>(attr))
    return rt::JsonValue::makeString(s.getValue().str());
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    std::vector<rt::JsonValue> items;
    for (Attribute item : array) {
      FailureOr<rt::JsonValue> converted = attributeToJson(item);
      if (failed(converted))
        return failure();
      items.push_back(std::move(*converted));
    }
    return rt::JsonValue::makeArray(std::move(items));
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    std::vector<rt::JsonValue::Member> members;
    for (NamedAttribute m : dict) {
      FailureOr<rt::JsonValue> converted = attributeToJson(m.getValue());
      if (failed(converted))
        return failure();
      members.emplace_back(m.getName().getValue().str(),
                           std::move(*converted));
    }
    return rt::JsonValue::makeObject(std::move(members));
  }
  return failure();
}

rt::KernelManifest mlir::tgemm::buildManifest(MatmulOp op, StringRef module,
                                              StringRef kernel,
                                              int64_t dynamicSharedBytes) {
  MatmulKinds kinds = getMatmulKinds(op);
  ConfigAttr config = op.getConfigAttr();
  auto layout = [](Layout l) {
    return l == Layout::Row ? rt::Layout::Row : rt::Layout::Col;
  };
  auto size = [](int64_t v) {
    return ShapedType::isDynamic(v) ? std::optional<int64_t>()
                                    : std::optional<int64_t>(v);
  };
  rt::KernelManifest k;
  k.name = kernel.str();
  k.module = module.str();
  k.problem = {size(op.getStaticM()), size(op.getStaticN()),
               size(op.getStaticK())};
  if (op.isBatched()) {
    k.batched = true;
    k.batch = size(op.getStaticBatch());
  }
  k.gemm.a = {kinds.a, layout(op.getLayoutA())};
  k.gemm.b = {kinds.b, layout(op.getLayoutB())};
  k.gemm.c = {kinds.c, rt::Layout::Row};
  k.gemm.acc = kinds.acc;
  k.gemm.alpha = op.getAlphaValue();
  k.gemm.beta = op.getBetaValue();
  k.config.block = {config.getBlockM(), config.getBlockN(),
                    config.getBlockK()};
  k.config.warps = {config.getWarps()[0], config.getWarps()[1]};
  k.config.stages = config.getStages();
  k.config.raster = config.getRaster();
  k.config.splitK = config.getSplitK();
  auto tiled = [](rt::Dim dim, int64_t tile) {
    rt::GridExtent extent;
    extent.isTiled = true;
    extent.dim = dim;
    extent.tile = tile;
    return extent;
  };
  // A batch adds a grid z of one block per matrix.
  rt::GridExtent gridZ;
  if (op.isBatched())
    gridZ = tiled(rt::Dim::Batch, 1);
  // Split K: S blocks per matrix, one per part.
  gridZ.times = config.getSplitK();
  k.grid = {tiled(rt::Dim::N, config.getBlockN()),
            tiled(rt::Dim::M, config.getBlockM()), gridZ};
  k.block = {config.getNumThreads(), 1, 1};
  k.dynamicSharedMemory = dynamicSharedBytes;
  // Any size works; packed 4-bit rows must start on a byte.
  if (kinds.a == ::tgemm::ElemKind::S4)
    k.requirements.push_back({rt::Dim::K, 2});
  // A strided view takes any row stride and offset from its descriptor; an
  // identity layout means packed rows.
  auto arg = [&](const char *name, rt::Operand operand,
                 ::tgemm::ElemKind kind, Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    rt::KernelArg a;
    a.name = name;
    a.operand = operand;
    a.type = kind;
    a.rank = static_cast<int>(type.getRank());
    a.strided = !type.getLayout().isIdentity();
    return a;
  };
  k.args = {arg("a", rt::Operand::A, kinds.a, op.getA()),
            arg("b", rt::Operand::B, kinds.b, op.getB()),
            arg("c", rt::Operand::C, kinds.c, op.getC())};
  // The epilogue's operands follow C, named in the order the steps read
  // them; each step names its argument by index.
  for (auto [i, operand] : llvm::enumerate(op.getEpilogueOperands())) {
    Type element = cast<MemRefType>(operand.getType()).getElementType();
    rt::KernelArg e = arg("", rt::Operand::C, *getResultKind(element), operand);
    e.name = "epilogue" + std::to_string(i);
    e.epilogue = true;
    k.args.push_back(e);
  }
  k.epilogue = getEpilogueSteps(op.getEpilogueAttr(),
                                static_cast<int>(k.args.size() -
                                                 op.getEpilogueOperands().size()));
  return k;
}

void mlir::tgemm::setManifest(Operation *launch,
                              const rt::KernelManifest &manifest) {
  launch->setAttr(kManifestAttrName,
                  jsonToAttribute(launch->getContext(),
                                  rt::kernelManifestToJson(manifest)));
}

FailureOr<rt::KernelManifest> mlir::tgemm::readManifest(Operation *launch) {
  Attribute attr = launch->getAttr(kManifestAttrName);
  FailureOr<rt::JsonValue> json =
      attr ? attributeToJson(attr) : FailureOr<rt::JsonValue>(failure());
  if (failed(json))
    return mlir::emitError(launch->getLoc())
           << "'" << kManifestAttrName
           << "' must be a dictionary of strings, numbers, booleans, unit "
              "(null), arrays and dictionaries";
  rt::KernelManifest manifest;
  std::string error;
  if (!rt::readPartialKernelManifest(*json, manifest, error))
    return mlir::emitError(launch->getLoc())
           << "invalid '" << kManifestAttrName << "': " << error;
  return manifest;
}

LogicalResult mlir::tgemm::finishKernelLaunches(ModuleOp module,
                                                gpu::GPUFuncOp kernel,
                                                StringRef lowering,
                                                int64_t dynamicSharedBytes) {
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  WalkResult walk = module.walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() != gpuModule.getNameAttr() ||
        launch.getKernelName() != kernel.getNameAttr())
      return WalkResult::advance();
    OpBuilder b(launch);
    Value bytes = arith::ConstantIntOp::create(b, launch.getLoc(),
                                               dynamicSharedBytes, 32);
    launch.getDynamicSharedMemorySizeMutable().assign(bytes);
    if (!launch->hasAttr(kManifestAttrName))
      return WalkResult::advance();
    FailureOr<rt::KernelManifest> manifest = readManifest(launch);
    if (failed(manifest))
      return WalkResult::interrupt();
    manifest->lowering = lowering.str();
    manifest->dynamicSharedMemory = dynamicSharedBytes;
    setManifest(launch, *manifest);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
