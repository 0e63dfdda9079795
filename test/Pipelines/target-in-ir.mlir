// RUN: tgemm-opt %s --tgemm-pipeline | FileCheck %s
// RUN: not tgemm-opt %s --tgemm-pipeline="lowering=ptx" 2>&1 | FileCheck %s --check-prefix=CONFLICT

// A module that carries its own #tgemm.target compiles for it: the pipeline
// needs no chip or lowering, and every pass reads the attribute (the NVVM
// target of the kernel module too). Asking for another one is an error.

// CHECK: gpu.launch_func @gemm_module::@gemm_kernel
// CHECK-SAME: lowering = "wmma"
// CHECK: gpu.binary @gemm_module [#gpu.object<#nvvm.target<O = 3, chip = "sm_86", features = "+ptx84">
// CHECK-SAME: .target sm_86
// CHECK-SAME: wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
// CONFLICT: error: the module's target #tgemm.target<chip = "sm_86", family = wmma> differs from the requested family 'ptx'; remove one of them
module attributes {tgemm.target = #tgemm.target<chip = "sm_86", family = wmma>} {
  func.func @gemm(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
        : memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf32>
    return
  }
}
