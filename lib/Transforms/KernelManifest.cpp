//===- KernelManifest.cpp - The launch manifest on gpu.launch_func --------===//

#include "tgemm/Transforms/KernelManifest.h"

#include "tgemm/Dialect/TGemm/IR/TGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tgemm;

namespace {
/// Builds dictionaries and arrays of the manifest with short calls.
struct Json {
  explicit Json(MLIRContext *ctx) : b(ctx) {}
  Attribute str(StringRef s) { return b.getStringAttr(s); }
  Attribute num(int64_t v) { return b.getI64IntegerAttr(v); }
  Attribute real(double v) { return b.getF64FloatAttr(v); }
  Attribute null() { return b.getUnitAttr(); }
  Attribute sizeOrNull(int64_t v) {
    return ShapedType::isDynamic(v) ? null() : num(v);
  }
  Attribute list(ArrayRef<Attribute> items) { return b.getArrayAttr(items); }
  Attribute nums(ArrayRef<int64_t> items) {
    SmallVector<Attribute> attrs;
    for (int64_t v : items)
      attrs.push_back(num(v));
    return list(attrs);
  }
  DictionaryAttr obj(ArrayRef<std::pair<StringRef, Attribute>> entries) {
    SmallVector<NamedAttribute> named;
    for (auto [key, value] : entries)
      named.push_back(b.getNamedAttr(key, value));
    return b.getDictionaryAttr(named);
  }
  Builder b;
};
} // namespace

DictionaryAttr mlir::tgemm::buildManifest(MatmulOp op, StringRef module,
                                          StringRef kernel,
                                          int64_t dynamicSharedBytes) {
  Json j(op.getContext());
  MatmulKinds kinds = getMatmulKinds(op);
  ConfigAttr config = op.getConfigAttr();
  auto operand = [&](::tgemm::ElemKind kind, Layout layout) {
    return j.obj({{"type", j.str(::tgemm::ptxName(kind))},
                  {"layout", j.str(stringifyLayout(layout))}});
  };
  // A strided view takes any row stride and offset from its descriptor; an
  // identity layout means packed rows.
  auto arg = [&](StringRef name, ::tgemm::ElemKind kind, Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    return j.obj({{"name", j.str(name)},
                  {"kind", j.str("memref")},
                  {"type", j.str(::tgemm::ptxName(kind))},
                  {"rank", j.num(type.getRank())},
                  {"strided", j.b.getBoolAttr(!type.getLayout().isIdentity())}});
  };
  auto multiple = [&](StringRef dim, int64_t tile) {
    return j.obj({{"dim", j.str(dim)}, {"multiple_of", j.num(tile)}});
  };
  // Any size works; packed 4-bit rows must start on a byte.
  SmallVector<Attribute> requirements;
  if (kinds.a == ::tgemm::ElemKind::S4)
    requirements.push_back(multiple("k", 2));
  // A batch adds its size to the problem and a grid z of one block per
  // matrix.
  SmallVector<std::pair<StringRef, Attribute>> sizes = {
      {"m", j.sizeOrNull(op.getStaticM())},
      {"n", j.sizeOrNull(op.getStaticN())},
      {"k", j.sizeOrNull(op.getStaticK())}};
  Attribute gridZ = j.obj({{"value", j.num(1)}});
  if (op.isBatched()) {
    sizes.push_back({"batch", j.sizeOrNull(op.getStaticBatch())});
    gridZ = j.obj({{"dim", j.str("batch")}, {"tile", j.num(1)}});
  }
  Attribute problem = j.obj(sizes);
  return j.obj({
      {"name", j.str(kernel)},
      {"module", j.str(module)},
      {"problem", problem},
      {"a", operand(kinds.a, op.getLayoutA())},
      {"b", operand(kinds.b, op.getLayoutB())},
      {"c", operand(kinds.c, Layout::Row)},
      {"acc", j.str(::tgemm::ptxName(kinds.acc))},
      {"alpha", j.real(op.getAlphaValue())},
      {"beta", j.real(op.getBetaValue())},
      {"config", j.obj({{"block", j.nums(config.getBlock())},
                        {"warps", j.nums(config.getWarps())},
                        {"stages", j.num(config.getStages())},
                        {"raster", j.num(config.getRaster())}})},
      {"grid", j.list({j.obj({{"dim", j.str("n")},
                              {"tile", j.num(config.getBlockN())}}),
                       j.obj({{"dim", j.str("m")},
                              {"tile", j.num(config.getBlockM())}}),
                       gridZ})},
      {"block", j.nums({config.getNumThreads(), 1, 1})},
      {"dynamic_shared_memory", j.num(dynamicSharedBytes)},
      {"requires", j.list(requirements)},
      {"args", j.list({arg("a", kinds.a, op.getA()),
                       arg("b", kinds.b, op.getB()),
                       arg("c", kinds.c, op.getC())})},
  });
}

void mlir::tgemm::finishKernelLaunches(ModuleOp module, gpu::GPUFuncOp kernel,
                                       StringRef lowering,
                                       int64_t dynamicSharedBytes) {
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() != gpuModule.getNameAttr() ||
        launch.getKernelName() != kernel.getNameAttr())
      return;
    OpBuilder b(launch);
    Value bytes = arith::ConstantIntOp::create(b, launch.getLoc(),
                                               dynamicSharedBytes, 32);
    launch.getDynamicSharedMemorySizeMutable().assign(bytes);
    NamedAttrList manifest;
    if (auto existing = launch->getAttrOfType<DictionaryAttr>(kManifestAttrName))
      manifest.append(existing.getValue());
    manifest.set("lowering", b.getStringAttr(lowering));
    manifest.set("dynamic_shared_memory",
                 b.getI64IntegerAttr(dynamicSharedBytes));
    launch->setAttr(kManifestAttrName, manifest.getDictionary(b.getContext()));
  });
}
