// RUN: tgemm-opt %s --tgemm-pipeline="lowering=wmma chip=sm_90" | FileCheck %s
// RUN: not tgemm-opt %s --tgemm-pipeline="lowering=wmma chip=sm_75" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tgemm-opt %s --tgemm-pipeline="lowering=tensor-cores chip=sm_90" 2>&1 | FileCheck %s --check-prefix=LOWERING
// RUN: not tgemm-opt %S/Inputs/fp8.mlir --tgemm-pipeline="lowering=wmma chip=sm_90" 2>&1 | FileCheck %s --check-prefix=FP8
// RUN: not tgemm-opt %S/Inputs/big-pipeline.mlir --tgemm-pipeline="lowering=wmma chip=sm_86" 2>&1 | FileCheck %s --check-prefix=SMEM

// --tgemm-pipeline ends in a gpu.binary holding PTX for the chosen chip,
// next to the host function that launches it; everything a user can get
// wrong is reported before any kernel is written.

// CHECK: func.func @gemm
// CHECK: gpu.launch_func @gemm_module::@gemm_kernel
// CHECK-SAME: lowering = "wmma"
// CHECK: gpu.binary @gemm_module [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx84">
// CHECK-SAME: assembly = "
// CHECK-SAME: .target sm_90
// CHECK-SAME: wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// CHECK-NOT: gpu.module

// CHIP: error: option 'chip': unknown chip 'sm_75'; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a
// LOWERING: error: option 'lowering': unknown instruction family 'tensor-cores'; expected wmma, ptx or wgmma
// FP8: fp8.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'tgemm.matmul' op the wmma lowering has no wmma instruction for 'f8E5M2' x 'f8E5M2' -> 'f32'
// SMEM: big-pipeline.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'tgemm.matmul' op the 4-stage pipeline needs 151552 bytes of shared memory; sm_86 allows a block 101376 bytes
func.func @gemm(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf32>
  return
}
