// RUN: tgemm-opt %s --split-input-file --tgemm-tile | FileCheck %s

// Sizes that are not tile multiples: the grid rounds up, the k-loop runs
// over ceil(K / BK) tiles, and nothing is required of the sizes.

// 1000 x 300, K = 48, with 128 x 128 x 32 tiles: a 3 x 8 grid, 2 k-tiles.
// CHECK-LABEL: func.func @static_edges
// CHECK-DAG: %[[GX:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[GY:.*]] = arith.constant 8 : index
// CHECK: gpu.launch_func @static_edges_module::@static_edges_kernel blocks in (%[[GX]], %[[GY]], %{{.*}})
// CHECK-SAME: requires = []
// CHECK: gpu.func @static_edges_kernel
// CHECK: %[[K:.*]] = memref.dim %arg0, %c1
// CHECK: %[[KT:.*]] = arith.ceildivui %[[K]], %c32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KT]]
func.func @static_edges(%a: memref<1000x48xf16>, %b: memref<300x48xf16>, %c: memref<1000x300xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<1000x48xf16>, memref<300x48xf16>, memref<1000x300xf32>
  return
}

// -----

// Dynamic sizes: ceil divisions on the host; 4-bit operands require an even K.
// CHECK-LABEL: func.func @dynamic_s4
// CHECK: arith.ceildivui
// CHECK: arith.ceildivui
// CHECK: gpu.launch_func
// CHECK-SAME: requires = [{dim = "k", multiple_of = 2 : i64}]
func.func @dynamic_s4(%a: memref<?x?xi4>, %b: memref<?x?xi4>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 128], warps = [2, 2], stages = 2>)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}

// -----

// The main loop is written twice: with `in_bounds` copies and stores when
// every tile is whole and every row aligned (checked once per kernel), and
// without for any other size.
// CHECK-LABEL: gpu.func @split_kernel
// CHECK: %[[M:.*]] = memref.dim %arg2, %c0
// CHECK: arith.remui %[[M]], %c64
// CHECK: memref.extract_strided_metadata %arg0
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: arith.andi
// CHECK: scf.if %{{.*}} {
// CHECK: tgemm.copy_tile {{.*}} async in_bounds
// CHECK: tgemm.mma_tile
// CHECK: tgemm.store_tile {{.*}} in_bounds
// CHECK: } else {
// CHECK: tgemm.copy_tile {{.*}} async :
// CHECK: tgemm.mma_tile
// CHECK: tgemm.store_tile {{.*}} : <32x32xf32>
// CHECK: }
func.func @split(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
