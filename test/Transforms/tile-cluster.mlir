// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | FileCheck %s

// tgemm-tile with cluster = 2: the blocks of a cluster (2 along grid x,
// .reqnctapercluster from nvvm.cluster_dim) take the two tiles one above
// the other of a band of 2 tile-rows, so they share B's tile. Grid x is 2
// blocks per tile column, grid y the bands; the manifest says so (grid x
// times 2, grid y tiles of 256 rows, cluster 2) and B's tensor map box is
// half the tile: each block copies its 128 rows of B's 256 and multicasts
// them to both. The whole-tile path needs M to fill whole bands. After
// initializing their barriers the blocks meet (sync_cluster), and again
// before they exit. Lanes 0 and 1 of each consumer warp release a stage on
// block 0's and block 1's empty barrier: 8 warps x 2 = 16 arrivals.
func.func @ws(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8>)
      schedule(<warp_specialize = true, tma = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// CHECK-LABEL: func.func @ws
// CHECK: tgemm.tensor_map %arg0 box [128, 64] swizzle 128
// CHECK: tgemm.tensor_map %arg1 box [128, 64] swizzle 128
// CHECK: %[[N:.*]] = memref.dim %arg2, %c1
// CHECK: %[[TN:.*]] = arith.ceildivui %[[N]], %c256
// CHECK: %[[GX:.*]] = arith.muli %[[TN]], %c2
// CHECK: %[[M:.*]] = memref.dim %arg2, %c0
// CHECK: %[[GY:.*]] = arith.ceildivui %[[M]], %c256
// CHECK: gpu.launch_func @ws_module::@ws_kernel blocks in (%[[GX]], %[[GY]], %{{.*}})
// CHECK-SAME: cluster = 2 : i64
// CHECK-SAME: grid = [{dim = "n", tile = 256 : i64, times = 2 : i64}, {dim = "m", tile = 256 : i64}, {value = 1 : i64}]
// CHECK-SAME: tensor_maps = [{box = [128, 64], operand = "a", passing = "param", swizzle = 128 : i64}, {box = [128, 64], operand = "b", passing = "param", swizzle = 128 : i64}]
// CHECK: gpu.func @ws_kernel
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-SAME: tgemm.schedule = #tgemm.schedule<warp_specialize = true, tma = true, cluster = 2>
// Block (x, y) is block y X + x; its cluster's band tile (y X + x) / 2 of
// (X / 2) columns, its rank (y X + x) mod 2; grouped by 8 / 2 bands.
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[X:.*]] = gpu.grid_dim x
// CHECK: %[[BANDS:.*]] = gpu.grid_dim y
// CHECK: %[[ROWOFF:.*]] = arith.muli %[[BY]], %[[X]]
// CHECK: %[[LINEAR:.*]] = arith.addi %[[ROWOFF]], %[[BX]]
// CHECK: %[[COLS:.*]] = arith.divui %[[X]], %c2
// CHECK: %[[PAIR:.*]] = arith.divui %[[LINEAR]], %c2
// CHECK: %[[PERGROUP:.*]] = arith.muli %[[COLS]], %c4
// CHECK: arith.minui
// CHECK: %[[BAND:.*]] = arith.addi
// CHECK: %[[RANK:.*]] = arith.remui %[[LINEAR]], %c2
// CHECK: %[[TWICE:.*]] = arith.muli %[[BAND]], %c2
// CHECK: %[[TILEROW:.*]] = arith.addi %[[TWICE]], %[[RANK]]
// Whole tiles: M a multiple of 2 x 128.
// CHECK: %[[MK:.*]] = memref.dim %arg2, %c0
// CHECK: arith.remui %[[MK]], %c256
// CHECK: tgemm.init_barriers %[[FULL:.*]] arrivals
// CHECK: tgemm.init_barriers %[[EMPTY:.*]] arrivals %c16
// CHECK-NEXT: tgemm.sync_cluster
// The producer: A's tile for itself, its part of B's for both.
// CHECK: tgemm.wait_barrier %[[EMPTY]]
// CHECK: tgemm.arrive_barrier %[[FULL]][%{{.*}}] expect_bytes 49152
// CHECK: tgemm.bulk_copy_tile %arg3[{{.*}}], %{{.*}}[%{{.*}}], %[[FULL]] : !llvm.ptr, <4x128x64xf16>, <4>
// CHECK: tgemm.bulk_copy_tile %arg4[{{.*}}], %{{.*}}[%{{.*}}], %[[FULL]] multicast 2 : !llvm.ptr, <4x256x64xf16>, <4>
// The consumers: lane r < 2 releases on block r.
// CHECK: tgemm.mma_tile
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32
// CHECK: %[[SIGNAL:.*]] = arith.cmpi ult, %[[LANE]], %c2
// CHECK: scf.if %[[SIGNAL]] {
// CHECK:   tgemm.arrive_barrier %[[EMPTY]][%{{.*}}] cta %[[LANE]] : <4>
// CHECK: tgemm.store_tile
// CHECK: tgemm.sync_cluster
// CHECK: } else {

// -----

// Persistent with cluster = 2: each cluster loops over band tiles (C's
// tile-rows in bands of 2, by its columns), from block index / 2 by the
// grid's blocks / 2; both blocks of a cluster make the same trips.
func.func @persistent(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8>)
      schedule(<warp_specialize = true, tma = true, persistent = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// CHECK-LABEL: func.func @persistent
// CHECK: gpu.launch_func
// CHECK-SAME: cluster = 2 : i64
// CHECK-SAME: persistent = true
// CHECK: gpu.func @persistent_kernel
// CHECK: tgemm.sync_cluster
// CHECK: %[[M:.*]] = memref.dim %arg2, %c0
// CHECK: %[[TM:.*]] = arith.ceildivui %[[M]], %c128
// CHECK: %[[N:.*]] = memref.dim %arg2, %c1
// CHECK: %[[TN:.*]] = arith.ceildivui %[[N]], %c256
// CHECK: %[[GX:.*]] = gpu.grid_dim x
// CHECK: %[[GY:.*]] = gpu.grid_dim y
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[ROW:.*]] = arith.muli %[[BY]], %[[GX]]
// CHECK: %[[BLOCK:.*]] = arith.addi %[[ROW]], %[[BX]]
// CHECK: %[[BLOCKS:.*]] = arith.muli %[[GX]], %[[GY]]
// CHECK: %[[RANK:.*]] = arith.remui %[[BLOCK]], %c2
// CHECK: %[[FIRST:.*]] = arith.divui %[[BLOCK]], %c2
// CHECK: %[[STEP:.*]] = arith.divui %[[BLOCKS]], %c2
// CHECK: %[[BANDS:.*]] = arith.ceildivui %[[TM]], %c2
// CHECK: %[[COUNT:.*]] = arith.muli %[[BANDS]], %[[TN]]
// CHECK: scf.for %[[T:.*]] = %[[FIRST]] to %[[COUNT]] step %[[STEP]]
// CHECK:   %[[T2:.*]] = arith.muli %[[T]], %c2
// CHECK:   arith.addi %[[T2]], %[[RANK]]

// -----

// The epilogue's slabs would reach the barriers over 2 stages: they go
// after them (lower-cluster.mlir), so the block needs 100480 bytes, not
// the 67584 of one block per cluster.
// CHECK-LABEL: func.func @shallow
// CHECK: dynamic_shared_memory = 100480
func.func @shallow(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 2>)
      schedule(<warp_specialize = true, tma = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
