// RUN: tgemm-opt %s --tgemm-pipeline="lowering=ptx chip=sm_90" | tgemm-translate --emit=ptx | FileCheck %s
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=wmma chip=sm_90" | tgemm-translate --emit=ptx | FileCheck %s --check-prefix=WMMA
// RUN: tgemm-opt %s --tgemm-tile | FileCheck %s --check-prefix=TILE

// Operands that are views into larger buffers (any row stride, any offset):
// the kernel takes them as memref descriptors and reads the stride and the
// offset there; the whole-tile check also requires them to keep rows
// 16-byte aligned.

// TILE: gpu.func @views_kernel(%arg0: memref<?x?xf16, strided<[?, 1], offset: ?>>, %arg1: memref<?x?xf16, strided<[?, 1], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, 1], offset: ?>>)
// TILE: memref.extract_strided_metadata %arg0
// TILE: scf.if
// TILE: tgemm.copy_tile {{.*}} in_bounds
// CHECK: .entry views_kernel
// CHECK: cp.async.cg.shared.global
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// WMMA: .entry views_kernel
// WMMA: wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32
func.func @views(%a: memref<?x?xf16, strided<[?, 1], offset: ?>>,
                 %b: memref<?x?xf16, strided<[?, 1], offset: ?>>,
                 %c: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<?x?xf16, strided<[?, 1], offset: ?>>,
        memref<?x?xf16, strided<[?, 1], offset: ?>>,
        memref<?x?xf32, strided<[?, 1], offset: ?>>
  return
}
