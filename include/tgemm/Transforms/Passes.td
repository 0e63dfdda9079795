//===- Passes.td - tgemm transformation passes -------------*- tablegen -*-===//

#ifndef TGEMM_TRANSFORMS_PASSES_TD
#define TGEMM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TGemmCheckTarget : Pass<"tgemm-check-target"> {
  let summary = "Check every tgemm.matmul against one chip and lowering";
  let description = [{
    The `tgemm.matmul` verifier only knows what holds on every chip. Once a
    chip and a lowering are chosen, this pass checks what depends on them and
    reports each violation with the op's location:

    - the lowering's instruction family has an instruction for the precision
      (e.g. WMMA has no fp8);
    - the chip has that instruction (fp8 `mma.sync` needs sm_89 or newer);
    - the config's shared-memory stage ring fits the chip's per-block limit.

    ```
    tgemm-opt --tgemm-check-target="chip=sm_86 lowering=ptx" gemm.mlir
    ```

    `lowering=any` accepts an op if either family can compile it.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_80, sm_86, sm_89, sm_90)">,
    Option<"lowering", "lowering", "std::string", /*default=*/"\"any\"",
           "Instruction family: wmma, ptx, or any">,
  ];
}

def TGemmTile : Pass<"tgemm-tile", "ModuleOp"> {
  let summary = "Turn each tgemm.matmul into a GPU kernel of tile operations";
  let description = [{
    Replaces every `tgemm.matmul` with a `gpu.launch_func` of a new kernel in
    its own `gpu.module`, and marks the module `gpu.container_module`. The
    launch records the grid (ceil(N / BN) x ceil(M / BM) blocks), the block (32 x warps
    threads) and the dynamic shared memory, and carries the launch manifest
    (`tgemm.manifest`, see docs/manifest.md).

    The kernel is written with the target-neutral tile ops: each block owns a
    BM x BN tile of C, each warp a (BM / WM) x (BN / WN) accumulator; a k-loop
    cycles through the config's shared-memory stages, keeping S - 1 tiles of
    A and B in flight (`tgemm.copy_tile ... async`, `tgemm.commit_copies`,
    `tgemm.wait_copies`, `gpu.barrier`) while the warps multiply the oldest
    one (`tgemm.mma_tile`); `tgemm.store_tile` applies the epilogue.

    Any M, N, K >= 1 work: edge blocks own partial tiles, the last k-tile is
    partial, and the tile ops' semantics (zeros read outside an operand,
    nothing written outside C) make the lowerings guard them. 4-bit operands
    need an even K (a static odd K is an error; for dynamic sizes the
    manifest's `requires` says so).
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TGemmOverrideConfig : Pass<"tgemm-override-config"> {
  let summary = "Replace parts of every tgemm.matmul's tile config";
  let description = [{
    Sets the given fields of every `tgemm.matmul`'s `#tgemm.config` and
    verifies the op again, so a study can sweep one parameter (e.g. the
    stage count) over unchanged source IR; a value the op cannot take is
    reported with the verifier's message.

    ```
    tgemm-opt --tgemm-override-config="stages=2" gemm.mlir
    ```
  }];
  let options = [
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "Pipeline stages (0 keeps each op's own)">,
  ];
}

#endif // TGEMM_TRANSFORMS_PASSES_TD
