//===- Pipelines.h - The tgemm compilation pipeline -------------*- C++ -*-===//
//
// From tgemm.matmul to a gpu.binary holding PTX, in one call:
//
//   mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
//   mlir::tgemm::PipelineOptions options;
//   options.lowering = "wmma";
//   options.chip = "sm_90";
//   mlir::tgemm::buildPipeline(pm, options);
//
// or, from the command line, --tgemm-pipeline="lowering=wmma chip=sm_90".
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_PIPELINES_PIPELINES_H
#define TGEMM_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tgemm {

/// The instruction-level lowering a pipeline uses.
enum class Lowering { Wmma, Ptx };

struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  PassOptions::Option<Lowering> lowering{
      *this, "lowering", llvm::cl::desc("Instruction family"),
      llvm::cl::init(Lowering::Ptx),
      llvm::cl::values(
          clEnumValN(Lowering::Wmma, "wmma", "WMMA (nvvm.wmma.* instructions)"),
          clEnumValN(Lowering::Ptx, "ptx",
                     "inline PTX: cp.async, ldmatrix, mma.sync"))};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip: sm_80, sm_86, sm_89, sm_90"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<bool> fromLinalg{
      *this, "from-linalg",
      llvm::cl::desc("First import linalg.matmul / linalg.batch_matmul on "
                     "memrefs (tgemm-from-linalg)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("Import f32 linalg matmuls, computed as TF32"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> configDatabase{
      *this, "config-db",
      llvm::cl::desc("A tuned config database searched before the built-in "
                     "ones (tgemm-select-config)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("Override every config's stage count (0: keep)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> interleaveCopies{
      *this, "interleave-copies",
      llvm::cl::desc("Issue each k-tile's refill copies between halves of "
                     "its multiply (tgemm-tile)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> prefetchMinWarps{
      *this, "prefetch-fragments-min-warps",
      llvm::cl::desc("ptx: in blocks of at least this many warps, load each "
                     "stage's first fragments before the previous stage's "
                     "last multiply (tgemm-tile; 0: never)"),
      llvm::cl::init(8)};
  PassOptions::Option<bool> asyncCopy{
      *this, "async-copy",
      llvm::cl::desc("Copy with cp.async (else ld.global + st.shared)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> ldmatrix{
      *this, "ldmatrix",
      llvm::cl::desc("ptx: load fragments with ldmatrix (else ld.shared)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> swizzle{
      *this, "swizzle",
      llvm::cl::desc("ptx: shared-memory layout, xor, pad or none"),
      llvm::cl::init("xor")};
  PassOptions::Option<int64_t> padding{
      *this, "padding",
      llvm::cl::desc("Bytes of padding per shared-memory row (wmma, and "
                     "ptx with swizzle=pad)"),
      llvm::cl::init(16)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level of the NVPTX back end"),
      llvm::cl::init(3)};
};

/// Appends the whole pipeline to `pm` (anchored on builtin.module): the
/// linalg import, config selection (tuned database or default), target
/// checks, tiling, the chosen lowering, then the upstream NVVM path to a
/// gpu.binary with PTX (gpu-module-to-binary format=isa). An unknown chip
/// is reported by the first pass, tgemm-check-target, when the pipeline runs.
void buildPipeline(OpPassManager &pm, const PipelineOptions &options);

/// Registers --tgemm-pipeline.
void registerTGemmPipelines();

} // namespace mlir::tgemm

#endif // TGEMM_PIPELINES_PIPELINES_H
