// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-override-config="transpose-kernel=true" | FileCheck %s
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | not tgemm-opt --tgemm-override-config="transpose-kernel=true" 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=wgmma chip=sm_90a transpose-kernel=true" | FileCheck %s --check-prefix=PIPELINE

// transpose_kernel is a field of the op's schedule, which tgemm-tile turns
// into the transposing kernel, its launch and the GEMM on the copy; on a
// kernel already written it cannot change.
// CHECK: tgemm.matmul
// CHECK-SAME: schedule(<warp_specialize = true, tma = true, transpose_kernel = true>)
// KERNEL: error: 'gpu.func' op with transpose-kernel = true: transpose_kernel is fixed when tgemm-tile writes the kernel's tile loop; give it before tgemm-tile
// The binary holds both kernels; the launch of the transposing one comes
// first, and the GEMM's manifest names it.
// PIPELINE: gpu.launch_func @f_module::@f_transpose_b blocks in (%c4, %c2, %c1) threads in (%c256, %c1, %c1)
// PIPELINE: gpu.launch_func @f_module::@f_kernel
// PIPELINE-SAME: transposes = [{block = [256, 1, 1], kernel = "f_transpose_b", operand = "b", tile = [128, 64]}]
// PIPELINE: gpu.binary @f_module
// PIPELINE-SAME: .entry f_transpose_b(
// PIPELINE-SAME: .entry f_kernel(
func.func @f(%a: memref<256x256xi8>, %b: memref<256x256xi8>, %c: memref<256x256xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 128, 128], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<256x256xi8>, memref<256x256xi8>, memref<256x256xi32>
  return
}
