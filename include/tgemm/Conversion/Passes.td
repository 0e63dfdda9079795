//===- Passes.td - tgemm instruction-level lowerings -------*- tablegen -*-===//

#ifndef TGEMM_CONVERSION_PASSES_TD
#define TGEMM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TGemmLowerToWMMA : Pass<"tgemm-lower-to-wmma", "ModuleOp"> {
  let summary = "Lower tile ops to WMMA (nvvm.wmma.*) instructions";
  let description = [{
    Rewrites the kernel-level tile ops of every `gpu.func` the way a CUDA
    programmer's `nvcuda::wmma` kernel does the work:

    - `tgemm.copy_tile`: every thread loads 16-byte vectors from global memory
      and stores them to shared memory (synchronously: `async` is ignored, and
      `tgemm.commit_copies` / `tgemm.wait_copies` vanish); rows of each ring
      are padded by `padding` bytes against bank conflicts;
    - `tgemm.mma_tile`: `nvvm.wmma.load` of A and B fragments from shared
      memory and `nvvm.wmma.mma` into the accumulator fragments;
    - `tgemm.store_tile`: `nvvm.wmma.store` of each accumulator fragment to a
      per-warp scratch tile in shared memory, then each lane applies
      alpha/beta, converts to C's type and writes its elements with one
      vector store.

    The NVVM dialect has no op for the bf16 and 4-bit WMMA shapes; those
    fragments go through the same LLVM NVVM intrinsics
    (`llvm.nvvm.wmma.*.bf16`, `llvm.nvvm.wmma.m8n8k32.*.s4`) with
    `llvm.call_intrinsic`. The accumulator becomes an `!llvm.array` of
    fragment registers. The launches of each lowered kernel get its dynamic
    shared memory size and `lowering = "wmma"` in their manifest.

    fp8 has no WMMA instruction: such a kernel is rejected with a diagnostic.
  }];
  let options = [
    Option<"padding", "padding", "int64_t", /*default=*/"16",
           "Bytes of padding after each shared-memory row (multiple of 16)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TGEMM_CONVERSION_PASSES_TD
