// RUN: tgemm-opt %s --split-input-file --tgemm-tile | FileCheck %s

// Split K: S blocks per tile of C on grid z, each over its part of K; the
// host passes the runtime's workspace after the memrefs, and the manifest
// says split_k and grid z's times.

// CHECK-LABEL: func.func @split
// CHECK: %[[W:.*]] = tgemm.workspace for %arg2 parts 4 : memref<512x512xf32> -> memref<?xi8>
// CHECK: %[[Z:.*]] = arith.muli %c1{{.*}}, %c4
// CHECK: gpu.launch_func @split_module::@split_kernel blocks in (%c4{{.*}}, %c4{{.*}}, %[[Z]])
// CHECK-SAME: args(%arg0 : memref<512x16384xf16>, %arg1 : memref<512x16384xf16>, %arg2 : memref<512x512xf32>, %[[W]] : memref<?xi8>)
// CHECK-SAME: config = {block = [128, 128, 32], raster = 1 : i64, split_k = 4 : i64, stages = 3 : i64, warps = [2, 2]}
// CHECK-SAME: {dim = "m", tile = 128 : i64}, {times = 4 : i64, value = 1 : i64}]
// CHECK: gpu.func @split_kernel(%{{.*}}: memref<512x16384xf16>, %{{.*}}: memref<512x16384xf16>, %{{.*}}: memref<512x512xf32>, %[[WS:.*]]: memref<?xi8>)
// Block z is matrix z / 4, part z mod 4.
// CHECK: %[[BZ:.*]] = gpu.block_id  z
// CHECK: %[[PART:.*]] = arith.remui %[[BZ]], %c4
// Part s takes granules [s G / 4, (s + 1) G / 4) of the 256-element
// granules of K, in k-tiles of 32 (8 per granule), the last clamped.
// CHECK: %[[KT:.*]] = arith.ceildivui %{{.*}}, %c32
// CHECK: %[[G:.*]] = arith.ceildivui %{{.*}}, %c256
// CHECK: arith.muli %[[PART]], %[[G]]
// CHECK: arith.minui %{{.*}}, %[[KT]]
// After the k-loop (so nothing of it is live across the loop), the
// workspace: the semaphores, then (256-byte aligned) the parts, with C's
// static sizes.
// CHECK: scf.for
// CHECK: %[[SEM:.*]] = memref.view %[[WS]][%c0{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xi32>
// CHECK: %[[ALL:.*]] = memref.view %[[WS]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?x512x512xf32>
// CHECK: %[[PARTS:.*]] = memref.subview %[[ALL]][%{{.*}}, 0, 0] [4, 512, 512] [1, 1, 1] : memref<?x512x512xf32> to memref<4x512x512xf32, strided<[262144, 512, 1], offset: ?>>
// CHECK: %[[MINE:.*]] = memref.subview %[[PARTS]][%[[PART]], 0, 0]
// Each warp stores its unscaled accumulator to its part, then the tile's
// last block sums the parts into C with the epilogue; the same in the
// loop for any size.
// CHECK: tgemm.store_tile %{{.*}}, %[[MINE]][%{{.*}}, %{{.*}}] in_bounds : <64x64xf32>
// CHECK-NEXT: tgemm.reduce_splits %[[PARTS]], %[[SEM]][%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}] tile [128, 128] beta(1.000000e+00) in_bounds
// CHECK: scf.for
// CHECK: tgemm.store_tile %{{.*}} : <64x64xf32>
// CHECK-NEXT: tgemm.reduce_splits %{{.*}} tile [128, 128] beta(1.000000e+00) :
func.func @split(%a: memref<512x16384xf16>, %b: memref<512x16384xf16>,
                 %c: memref<512x512xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) beta(1.0)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3, split_k = 4>)
      : memref<512x16384xf16>, memref<512x16384xf16>, memref<512x512xf32>
  return
}

// -----

// A batch split in 3: grid z is batch x 3, and the parts of matrix z / 3
// are its 3 consecutive layers of the workspace.

// CHECK-LABEL: func.func @batched
// CHECK: %[[Z:.*]] = arith.muli %{{.*}}, %c3
// CHECK: gpu.launch_func @batched_module::@batched_kernel blocks in (%{{.*}}, %{{.*}}, %[[Z]])
// CHECK-SAME: {dim = "batch", tile = 1 : i64, times = 3 : i64}
// CHECK: gpu.func @batched_kernel
// CHECK: %[[BZ:.*]] = gpu.block_id  z
// CHECK: %[[M:.*]] = arith.divui %[[BZ]], %c3
// CHECK: memref.subview %arg0[%[[M]], 0, 0]
// CHECK: arith.muli %[[M]], %c3
// CHECK: tgemm.reduce_splits %{{.*}} : memref<3x?x?xf32, strided<[?, ?, 1], offset: ?>>, memref<?xi32>, memref<?x?xf16, strided<[?, 1], offset: ?>>
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>,
                   %c: memref<?x?x?xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3, split_k = 3>)
      : memref<?x?x?xf16>, memref<?x?x?xf16>, memref<?x?x?xf16>
  return
}
