//===- TileLowering.cpp - What every tile-op lowering shares --------------===//

#include "tgemm/Conversion/TileLowering.h"

#include "tgemm/Utils/IndexMath.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tgemm;

static constexpr int64_t kRingAlignment = 128;
static constexpr StringLiteral kDynamicSharedName = "__tgemm_dynamic_smem";

int64_t mlir::tgemm::getElementBits(Type type) {
  return type.getIntOrFloatBitWidth();
}

SharedMemoryPlan SharedMemoryPlan::build(gpu::GPUFuncOp kernel,
                                         int64_t rowPadding,
                                         int64_t extraBytes) {
  SharedMemoryPlan plan;
  int64_t offset = 0;
  kernel.walk([&](AllocSmemOp alloc) {
    SmemType type = alloc.getType();
    RingLayout ring;
    ring.elementBits = getElementBits(type.getElementType());
    ring.rowBytes = type.getCols() * ring.elementBits / 8;
    ring.rowPitch = ring.rowBytes + rowPadding;
    ring.stagePitch = type.getRows() * ring.rowPitch;
    ring.offset = llvm::alignTo(offset, kRingAlignment);
    offset = ring.offset + ring.sizeBytes(type.getStages());
    plan.rings[alloc] = ring;
  });
  plan.scratchOffset = llvm::alignTo(offset, kRingAlignment);
  plan.totalBytes = plan.scratchOffset + extraBytes;
  return plan;
}

Value mlir::tgemm::getDynamicSharedMemory(OpBuilder &b, Location loc,
                                          gpu::GPUModuleOp module) {
  MLIRContext *ctx = b.getContext();
  auto arrayType = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0);
  if (!module.lookupSymbol(kDynamicSharedName)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/false,
                           LLVM::Linkage::External, kDynamicSharedName,
                           Attribute(), kRingAlignment, /*addrSpace=*/3);
  }
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 3),
                                   kDynamicSharedName);
}

Value mlir::tgemm::offsetSharedPointer(OpBuilder &b, Location loc, Value base,
                                       Value byteOffset) {
  IndexMath im{b, loc};
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{im.toI32(byteOffset)});
}

Value mlir::tgemm::getGlobalElementPointer(OpBuilder &b, Location loc,
                                           Value memref, Value row,
                                           Value col) {
  IndexMath im{b, loc};
  auto type = cast<MemRefType>(memref.getType());
  int64_t bits = getElementBits(type.getElementType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value element = im.add(im.add(meta.getOffset(),
                                im.mul(row, meta.getStrides()[0])),
                         col);
  // Byte offset; sub-byte elements are packed, so divide rather than scale.
  Value bytes = bits >= 8 ? im.mul(element, bits / 8) : im.div(element, 8 / bits);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = im.toI64(im.add(base, bytes));
  MLIRContext *ctx = b.getContext();
  Value generic = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx), address);
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 1), generic);
}

int64_t mlir::tgemm::getThreadsPerBlock(gpu::GPUFuncOp kernel) {
  std::optional<ArrayRef<int32_t>> size = kernel.getKnownBlockSize();
  if (!size)
    return 0;
  int64_t threads = 1;
  for (int32_t d : *size)
    threads *= d;
  return threads;
}
