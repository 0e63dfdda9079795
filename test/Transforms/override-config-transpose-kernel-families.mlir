// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-override-config="transpose-kernel=true" | FileCheck %s --check-prefix=PTX
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90 family=wmma" --tgemm-override-config="transpose-kernel=true" | FileCheck %s --check-prefix=WMMA
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=ptx chip=sm_90 transpose-kernel=true" | FileCheck %s --check-prefix=PTX-PIPELINE
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=wmma chip=sm_90 transpose-kernel=true" | FileCheck %s --check-prefix=WMMA-PIPELINE

// Every family has the transposing kernel: the mma.sync and wmma families
// then read the K-major copy of an MN-major 8-bit operand like any (row,
// col) one, with neither prmt nor load_matrix_sync of the other layout.
// PTX: tgemm.matmul
// PTX-SAME: layout(row, row)
// PTX-SAME: transpose_kernel = true
// WMMA: tgemm.matmul
// WMMA-SAME: layout(row, row)
// WMMA-SAME: transpose_kernel = true
// PTX-PIPELINE: gpu.launch_func @g_module::@g_transpose_b blocks in (%c4, %c2, %c1) threads in (%c256, %c1, %c1)
// PTX-PIPELINE: gpu.launch_func @g_module::@g_kernel
// PTX-PIPELINE-SAME: transposes = [{block = [256, 1, 1], kernel = "g_transpose_b", operand = "b", tile = [128, 64]}]
// PTX-PIPELINE: gpu.binary @g_module
// PTX-PIPELINE-SAME: .entry g_transpose_b(
// PTX-PIPELINE-SAME: .entry g_kernel(
// PTX-PIPELINE-SAME: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// PTX-PIPELINE-NOT: prmt.b32
// WMMA-PIPELINE: gpu.launch_func @g_module::@g_transpose_b
// WMMA-PIPELINE: gpu.launch_func @g_module::@g_kernel
// WMMA-PIPELINE-SAME: transposes = [{block = [256, 1, 1], kernel = "g_transpose_b", operand = "b", tile = [128, 64]}]
// WMMA-PIPELINE: gpu.binary @g_module
// WMMA-PIPELINE-SAME: .entry g_kernel(
// WMMA-PIPELINE-SAME: wmma.load.b.sync.aligned.col.
// WMMA-PIPELINE-NOT: wmma.load.b.sync.aligned.row.
func.func @g(%a: memref<256x256xi8>, %b: memref<256x256xi8>, %c: memref<256x256xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<256x256xi8>, memref<256x256xi8>, memref<256x256xi32>
  return
}
