//===- Pipelines.h - The tgemm compilation pipeline -------------*- C++ -*-===//
//
// From tgemm.matmul to a gpu.binary holding PTX, in one call:
//
//   #include "tgemm/Pipelines/Pipelines.h"
//   #include "mlir/IR/BuiltinOps.h"  // mlir::ModuleOp
//
//   mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
//   mlir::tgemm::PipelineOptions options;
//   options.lowering = "wmma";  // both PassOptions::Option<std::string>,
//   options.chip = "sm_90";     // assigned as text (empty: the defaults)
//   mlir::tgemm::buildPipeline(pm, options);
//
// Chip and lowering become the module's #tgemm.target, which every pass
// reads; tgemm-attach-target, the pipeline's first pass after the linalg
// import, rejects an unknown name when the pipeline runs. From the command
// line: --tgemm-pipeline="lowering=wmma chip=sm_90".
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_PIPELINES_PIPELINES_H
#define TGEMM_PIPELINES_PIPELINES_H

#include "tgemm/Transforms/TargetOptions.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tgemm {

/// Options of --tgemm-pipeline. `chip` and `lowering` choose the module's
/// `#tgemm.target` (left empty: the module's own, else sm_90 and the chip's
/// fastest legal family, tgemm-attach-target); the
/// schedule options, where given, override every matmul's
/// `#tgemm.schedule` (tgemm-override-config), for ablations. Each value is
/// checked when the options are parsed.
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  PassOptions::Option<std::string, FamilyOptionParser> lowering{
      *this, "lowering",
      llvm::cl::desc("Instruction family: wmma (nvvm.wmma.*), ptx (inline "
                     "PTX: cp.async, ldmatrix, mma.sync) or wgmma (sm_90a: "
                     "TMA, mbarriers, wgmma.mma_async); empty: the module's "
                     "tgemm.target, else the chip's fastest that every "
                     "matmul is legal for (sm_90a: wgmma, then ptx; else "
                     "ptx)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string, ChipOptionParser> chip{
      *this, "chip",
      llvm::cl::desc("Target chip: sm_80, sm_86, sm_89, sm_90, sm_90a; "
                     "empty: the module's tgemm.target, else sm_90"),
      llvm::cl::init("")};
  PassOptions::Option<bool, FlagOptionParser> bufferize{
      *this, "bufferize",
      llvm::cl::desc("First bufferize functions on tensors "
                     "(one-shot-bufferize with function boundaries: "
                     "their arguments become strided<[?, ?], offset: ?> "
                     "memrefs); a module on memrefs is left as it is"),
      llvm::cl::init(true)};
  PassOptions::Option<bool, FlagOptionParser> fromLinalg{
      *this, "from-linalg",
      llvm::cl::desc("First import linalg.matmul / linalg.batch_matmul and "
                     "other contractions (tgemm-from-linalg)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool, FlagOptionParser> allowNoKernel{
      *this, "allow-no-kernel",
      llvm::cl::desc("Accept a module whose linalg contractions all stay "
                     "linalg (else that is an error: no kernel)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool, FlagOptionParser> tf32{
      *this, "tf32",
      llvm::cl::desc("Import f32 linalg matmuls, computed as TF32"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> configDatabase{
      *this, "config-db",
      llvm::cl::desc("A tuned config database searched before the built-in "
                     "ones (tgemm-select-config)"),
      llvm::cl::init("")};
  PassOptions::Option<int, CountOptionParser> stages{
      *this, "stages",
      llvm::cl::desc("Override every config's stage count (0: keep)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool, FlagOptionParser> deterministic{
      *this, "deterministic",
      llvm::cl::desc("Choose split K from M, N and K and the family alone, "
                     "so that every config and chip sums in the same order "
                     "(tgemm-select-config)"),
      llvm::cl::init(false)};
  PassOptions::Option<int, CountOptionParser> splitK{
      *this, "split-k",
      llvm::cl::desc("Override every config's split of K into parts (0: "
                     "keep; 1: no split)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool, FlagOptionParser> refillAfterMma{
      *this, "refill-after-mma",
      llvm::cl::desc("Schedule: issue the k-loop's refill copies after the "
                     "multiply (default: the family's)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool, FlagOptionParser> interleaveCopies{
      *this, "interleave-copies",
      llvm::cl::desc("Schedule: issue each k-tile's refill copies between "
                     "halves of its multiply"),
      llvm::cl::init(false)};
  PassOptions::Option<int, CountOptionParser> prefetchMinWarps{
      *this, "prefetch-fragments-min-warps",
      llvm::cl::desc("Schedule, ptx: in blocks of at least this many warps, "
                     "load each stage's first fragments before the previous "
                     "stage's last multiply (0: never; default: the "
                     "family's, 8 for ptx)"),
      llvm::cl::init(8)};
  PassOptions::Option<bool, FlagOptionParser> asyncCopy{
      *this, "async-copy",
      llvm::cl::desc("Schedule: copy with cp.async (else ld.global + "
                     "st.shared)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool, FlagOptionParser> ldmatrix{
      *this, "ldmatrix",
      llvm::cl::desc("Schedule, ptx: load fragments with ldmatrix (else "
                     "ld.shared)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string, SwizzleOptionParser> swizzle{
      *this, "swizzle",
      llvm::cl::desc("Schedule, ptx: shared-memory layout, xor, pad or none"),
      llvm::cl::init("xor")};
  PassOptions::Option<int, CountOptionParser> padding{
      *this, "padding",
      llvm::cl::desc("Schedule: bytes of padding per shared-memory row (wmma, "
                     "and ptx with swizzle=pad)"),
      llvm::cl::init(16)};
  PassOptions::Option<bool, FlagOptionParser> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("Schedule, wgmma: a producer warpgroup copies the "
                     "tiles, the config's warps multiply (mbarriers)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool, FlagOptionParser> tma{
      *this, "tma",
      llvm::cl::desc("Schedule, wgmma with warp-specialize: copy with TMA "
                     "(else cp.async)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool, FlagOptionParser> setmaxnreg{
      *this, "setmaxnreg",
      llvm::cl::desc("Schedule, wgmma with warp-specialize: move registers "
                     "from the producer to the consumers"),
      llvm::cl::init(false)};
  PassOptions::Option<bool, FlagOptionParser> persistent{
      *this, "persistent",
      llvm::cl::desc("Schedule: a persistent grid, as many blocks as are "
                     "resident, each looping over C's tiles"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> cluster{
      *this, "cluster",
      llvm::cl::desc("Schedule, wgmma with tma: blocks per cluster (1 or "
                     "2), sharing B's tiles by TMA multicast"),
      llvm::cl::init(1)};
  PassOptions::Option<bool, FlagOptionParser> tmaStore{
      *this, "tma-store",
      llvm::cl::desc("Schedule, wgmma with tma: store C through shared "
                     "memory with the copy engine (a tensor map of C)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool, FlagOptionParser> transposeKernel{
      *this, "transpose-kernel",
      llvm::cl::desc("Schedule: transpose MN-major 8-bit and tf32 operands "
                     "(8-bit only in wmma) with a kernel launched before "
                     "the GEMM (into the workspace) instead of on their way "
                     "into shared memory or into fragments (not given: "
                     "where the GEMM reuses the operand across 1024 rows or "
                     "more, or sizes known only at launch, but not for "
                     "ptx's fp8 operands)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool, FlagOptionParser> alignKernel{
      *this, "align-kernel",
      llvm::cl::desc("Schedule: copy an operand whose rows the IR places "
                     "less than 16-byte aligned (an odd f16 leading "
                     "dimension, say) with a kernel launched before the "
                     "GEMM into the workspace with aligned rows, instead of "
                     "reading it in place with narrower copies (not given: "
                     "where the GEMM reuses the operand across 1024 rows or "
                     "columns or more, or sizes known only at launch)"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level of the NVPTX back end"),
      llvm::cl::init(3)};
};

/// Appends the whole pipeline to `pm` (anchored on builtin.module): the
/// target (tgemm-attach-target), the linalg import, config and schedule
/// selection (tuned database or default), the options' overrides, the
/// target check (the legality module), tiling, each family's lowering of
/// its kernels, then the upstream NVVM path to a gpu.binary with PTX
/// (gpu-module-to-binary format=isa).
void buildPipeline(OpPassManager &pm, const PipelineOptions &options);

/// Registers --tgemm-pipeline.
void registerTGemmPipelines();

} // namespace mlir::tgemm

#endif // TGEMM_PIPELINES_PIPELINES_H
