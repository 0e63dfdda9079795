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
    for sm_90a. `tgemm-tile` has already written the family's schedule as
    tile ops; this pass lowers them:

    - `tgemm.mma_tile`: each warpgroup (4 consecutive warps, 16 rows each)
      multiplies its 64 rows of the block tile by the whole block tile N:
      `nvvm.wgmma.fence.aligned`, one `nvvm.wgmma.mma_async` m64nNk{8,16,32}
      per k-step with A and B read through shared-memory matrix descriptors
      (128-byte swizzle), `nvvm.wgmma.commit.group.sync.aligned`, then
      `nvvm.wgmma.wait.group.sync.aligned N` down to the op's `in_flight`
      newest groups (0 without; the warp-specialized consumers keep one in
      flight and `tgemm.wait_mma` waits for the rest before the epilogue).
      f16 (into f32 or f16), bf16, tf32, s8, u8, e4m3, e5m2 and mixed
      e4m3 x e5m2, with s32 accumulators for the integers. A K-major
      operand is read as stored; an MN-major 16-bit one through wgmma's
      transpose bits from 64-element panels of its ring. wgmma has no
      transpose for 8-bit and tf32 operands: `tgemm-tile` gives those a
      transposing kernel before the GEMM, or the producer transposes them
      into a K-major ring (`tgemm.transpose_tile` from a staging ring,
      `tgemm.copy_tile ... transpose` from global memory);
    - the warp-specialized schedule's ops: `tgemm.init_barriers`,
      `tgemm.wait_barrier`, `tgemm.arrive_barrier` (mbarrier init,
      try_wait.parity, arrive or arrive.expect_tx; on another block of the
      cluster, mapa and a remote arrive), `tgemm.bulk_copy_tile` (the
      producer's TMA copy, `cp.async.bulk.tensor.3d` completing on the
      stage's barrier, one per panel, `.multicast::cluster` of the block's
      part of the tile in a cluster), `tgemm.sync_cluster` (barrier.cluster
      arrive and wait) and `tgemm.set_max_registers` (setmaxnreg.inc/dec
      from the launch's register budget);
    - `tgemm.copy_tile ... async` (the producer's fallback without tensor
      maps, or every warp without warp specialization): the ptx lowering's
      cp.async copies into 128-byte XOR-swizzled rings aligned to 1024
      bytes; `tgemm.wait_copies` adds `fence.proxy.async.shared::cta`,
      since wgmma reads the rings through the async proxy;
    - `tgemm.store_tile`: the slab-staged epilogue of the ptx lowering (per
      warp, a wgmma accumulator has mma.sync's m16n8 layout), or with
      `via %map` (the TMA store) swizzled boxes in shared memory that lane
      0 of each warp stores with `cp.async.bulk.tensor` and waits for with
      `cp.async.bulk.wait_group.read`.

    Persistent grids and clusters need nothing more of this pass: their
    tile loops are scf loops and their handoffs the barrier ops above,
    both written by `tgemm-tile`. The config that the kernel's tile ops
    imply must pass the legality module's warpgroup and schedule rules
    (warps [4k, 1], 16 rows per warp, a block N that one wgmma covers,
    128-byte tile rows), else a diagnostic at the `tgemm.mma_tile`.
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
