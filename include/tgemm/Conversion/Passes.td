//===- Passes.td - tgemm instruction-level lowerings -------*- tablegen -*-===//

#ifndef TGEMM_CONVERSION_PASSES_TD
#define TGEMM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TGemmLowerToWMMA : Pass<"tgemm-lower-to-wmma", "ModuleOp"> {
  let summary = "Lower tile ops to WMMA (nvvm.wmma.*) instructions";
  let description = [{
    Rewrites the kernel-level tile ops of every `gpu.func` the way a CUDA
    programmer's `nvcuda::wmma` kernel does the work:

    - `tgemm.copy_tile ... async`: `nvvm.cp.async.shared.global` 16-byte
      copies (what `__pipeline_memcpy_async` gives a CUDA programmer), and
      `tgemm.commit_copies` / `tgemm.wait_copies` become
      `nvvm.cp.async.commit.group` / `nvvm.cp.async.wait.group`, so the
      tiling pass's S-stage ring overlaps loads and math as in the ptx
      lowering; a refill past the last k-tile copies zero source bytes.
      Without `async`, with `async-copy=false`, and for tiles at an operand's
      edge, every thread loads 16-byte vectors from global memory and stores
      them to shared memory through registers (the pre-Ampere way); rows of
      each ring are padded by `padding` bytes against bank conflicts;
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

    The pass lowers the kernels whose `tgemm.target` names the wmma family
    (and kernels without a target), with the kernel's `tgemm.schedule`
    (`async_copy`, `padding`); other kernels are left to their family's
    lowering.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def TGemmLowerToWGMMA : Pass<"tgemm-lower-to-wgmma", "ModuleOp"> {
  let summary = "Lower tile ops to Hopper's warpgroup MMA (wgmma, sm_90a)";
  let description = [{
    Rewrites the kernel-level tile ops of every `gpu.func` whose
    `tgemm.target` names the wgmma family (and of kernels without a target)
    for sm_90a:

    - `tgemm.copy_tile ... async`: the cp.async copies of the ptx lowering
      into 128-byte XOR-swizzled rings aligned to 1024 bytes;
      `tgemm.wait_copies` is `cp.async.wait_group N` followed by
      `fence.proxy.async.shared::cta`, since wgmma reads the rings through
      the async proxy;
    - `tgemm.mma_tile`: each warpgroup (4 consecutive warps, 16 rows each)
      multiplies its 64 rows of the block tile by the whole block tile N:
      `nvvm.wgmma.fence.aligned`, one `nvvm.wgmma.mma_async` m64nNk16 per
      k-step with A and B read through shared-memory matrix descriptors
      (K-major, 128-byte swizzle), `nvvm.wgmma.commit.group.sync.aligned`
      and `nvvm.wgmma.wait.group.sync.aligned 0`;
    - `tgemm.store_tile`: the slab-staged epilogue of the ptx lowering
      (per warp, a wgmma accumulator has mma.sync's m16n8 layout).

    f16 and bf16 operands with f32 accumulators, `layout(row, col)`; the
    config that the kernel's tile ops imply must pass the legality module's
    warpgroup rules (warps [4k, 1], 16 rows per warp, a block N of at most
    256, 128-byte tile rows), else a diagnostic at the `tgemm.mma_tile`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def TGemmLowerToPTX : Pass<"tgemm-lower-to-ptx", "ModuleOp"> {
  let summary = "Lower tile ops to inline PTX: cp.async, ldmatrix, mma.sync";
  let description = [{
    Rewrites the kernel-level tile ops of every `gpu.func` into `llvm.inline_asm`
    PTX, the way an expert's multistage kernel is written:

    - `tgemm.copy_tile ... async`: `cp.async.cg.shared.global` 16-byte copies;
      `tgemm.commit_copies` / `tgemm.wait_copies` become
      `cp.async.commit_group` / `cp.async.wait_group N`, so the tiling pass's
      S-stage ring overlaps the loads of k-tile k+S-1 with the math of k;
    - `tgemm.mma_tile`: `ldmatrix.sync.aligned.m8n8.x4` (`.trans` for
      16-bit operands stored the other way) into `mma.sync.aligned` fragments,
      the fragments of k-step s+1 loaded before the mma of k-step s;
    - rings are XOR-swizzled so that both the cp.async stores and the
      ldmatrix loads are free of bank conflicts;
    - `tgemm.store_tile`: each warp stages 16 rows of its accumulator at a
      time through shared memory (over the dead rings), then every lane
      writes 16-byte vectors of C, after alpha/beta and the conversion.

    Each feature can be switched off alone, for ablation, in the kernel's
    `tgemm.schedule`: `async_copy = false` (ld.global + st.shared through
    registers), `ldmatrix = false` (per-thread ld.shared fragment loads),
    `swizzle = pad|none`.

    The pass lowers the kernels whose `tgemm.target` names the ptx family
    (and kernels without a target); other kernels are left to their
    family's lowering.

    All PTX goes through one builder (`PtxBuilder`); instruction shapes come
    from the instruction-facts table.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::vector::VectorDialect"];
}

def TGemmTensorMapsByValue : Pass<"tgemm-tensor-maps-by-value", "ModuleOp"> {
  let summary = "Pass a kernel's TMA descriptors as __grid_constant__ parameters";
  let description = [{
    Runs after `convert-gpu-to-nvvm`. A warp-specialized TMA kernel takes
    its tensor maps as `!llvm.ptr` arguments, followed by one i32 that says
    whether the runtime could make every map (`tgemm.tensor_map_params`
    on the kernel counts the maps). This pass gives each map argument of
    the `llvm.func` `llvm.byval = !llvm.array<128 x i8>`, `llvm.align = 64`
    and `nvvm.grid_constant`: the 128-byte `CUtensorMap` travels in the
    launch's parameters (PTX `.param .align 64 .b8 [128]`), and the kernel
    takes its generic address (`cvta.param`), which is what
    `cp.async.bulk.tensor` reads (PTX ISA, "Tensor-map"; CUDA Programming
    Guide, "Using TMA to transfer multi-dimensional arrays": a
    `const __grid_constant__ CUtensorMap` parameter). A launch then needs
    no device memory for its descriptors, so it may be captured in a CUDA
    graph.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TGEMM_CONVERSION_PASSES_TD
