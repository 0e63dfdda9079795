// RUN: tgemm-opt %s --split-input-file --tgemm-tile | FileCheck %s

// tgemm-tile: one gpu.module kernel per matmul, written with the
// target-neutral tile ops, and a launch that records grid, block, dynamic
// shared memory and the manifest.

// A 3-stage f16 kernel, A row-major and B column-major: rings hold tiles as
// the operands store them; the prologue puts 2 k-tiles in flight; each
// iteration waits for the oldest (pending = 1), refills the stage freed by
// the barrier (predicated off past the last k-tile: no branch in the
// body), and multiplies. The stage read and the stage refilled travel as
// loop-carried indices, 0 and 2 at first, each wrapping at 3.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @f16
// CHECK-DAG: %[[GX:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[GY:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[T:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[SMEM:.*]] = arith.constant 49152 : i32
// CHECK: gpu.launch_func @f16_module::@f16_kernel blocks in (%[[GX]], %[[GY]], %[[ONE]]) threads in (%[[T]], %[[ONE]], %[[ONE]]) dynamic_shared_memory_size %[[SMEM]]
// CHECK-SAME: tgemm.manifest = {
// CHECK-SAME: a = {layout = "row", type = "f16"}
// CHECK-SAME: b = {layout = "col", type = "f16"}
// CHECK-SAME: grid = [{dim = "n", tile = 128 : i64}, {dim = "m", tile = 128 : i64}, {value = 1 : i64}]
// CHECK-SAME: name = "f16_kernel"
// CHECK-SAME: problem = {k = 64 : i64, m = 512 : i64, n = 256 : i64}
// CHECK-NOT: tgemm.matmul
// CHECK: gpu.module @f16_module
// CHECK: gpu.func @f16_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: %[[SA:.*]] = tgemm.alloc_smem : <3x128x32xf16>
// CHECK: %[[SB:.*]] = tgemm.alloc_smem : <3x128x32xf16>
// CHECK: %[[ACC0:.*]] = tgemm.zero_acc : <64x64xf32>
// CHECK: scf.if
// CHECK: tgemm.copy_tile %{{.*}}[%{{.*}}, %{{.*}}], %[[SA]][%{{.*}}] async
// CHECK: tgemm.copy_tile %{{.*}}[%{{.*}}, %{{.*}}], %[[SB]][%{{.*}}] async
// CHECK: tgemm.commit_copies
// CHECK: scf.if
// CHECK: tgemm.commit_copies
// CHECK: %[[ACC:.*]]:3 = scf.for %[[KT:.*]] = %{{.*}} to %[[KTILES:.*]] step %{{.*}} iter_args(%[[ITER:.*]] = %[[ACC0]], %[[S:.*]] = %c0{{.*}}, %[[R:.*]] = %c2{{.*}}) -> (!tgemm.acc<64x64xf32>, index, index)
// CHECK-NEXT: tgemm.wait_copies pending = 1
// CHECK-NEXT: gpu.barrier
// CHECK: %[[NEXT:.*]] = arith.addi %[[KT]], %c2
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[NEXT]], %[[KTILES]]
// CHECK-NOT: scf.if
// CHECK: tgemm.copy_tile {{.*}}, %[[SA]][%[[R]]] async in_bounds if %[[IN]]
// CHECK: tgemm.copy_tile {{.*}}, %[[SB]][%[[R]]] async in_bounds if %[[IN]]
// CHECK-NEXT: tgemm.commit_copies
// CHECK-NEXT: %[[MMA:.*]] = tgemm.mma_tile %[[SA]][%[[S]]], %[[SB]][%[[S]]], %[[ITER]] at[{{.*}}] layout(row, col) : <3x128x32xf16>, <3x128x32xf16>, <64x64xf32>
// CHECK: %[[S1:.*]] = arith.addi %[[S]], %c1
// CHECK: %[[SW:.*]] = arith.cmpi eq, %[[S1]], %c3
// CHECK: %[[SN:.*]] = arith.select %[[SW]], %c0{{.*}}, %[[S1]]
// CHECK: %[[R1:.*]] = arith.addi %[[R]], %c1
// CHECK: %[[RW:.*]] = arith.cmpi eq, %[[R1]], %c3
// CHECK: %[[RN:.*]] = arith.select %[[RW]], %c0{{.*}}, %[[R1]]
// CHECK-NEXT: scf.yield %[[MMA]], %[[SN]], %[[RN]]
// CHECK: tgemm.store_tile %[[ACC]]#0, %{{.*}}[%{{.*}}, %{{.*}}] : <64x64xf32>, memref<512x256xf32>
// CHECK: gpu.return
func.func @f16(%a: memref<512x64xf16>, %b: memref<256x64xf16>, %c: memref<512x256xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<512x64xf16>, memref<256x64xf16>, memref<512x256xf32>
  return
}

// -----

// Dynamic sizes: the grid is computed from C's sizes; A col-major is stored
// K x M, so its ring holds 32 x 64 tiles and K is its dimension 0. The
// epilogue's alpha and beta reach store_tile.
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG: %[[N:.*]] = memref.dim %{{.*}}, %c1
// CHECK-DAG: %[[GX:.*]] = arith.ceildivui %[[N]], %c64
// CHECK-DAG: %[[M:.*]] = memref.dim %{{.*}}, %c0
// CHECK-DAG: %[[GY:.*]] = arith.ceildivui %[[M]], %c64
// CHECK: gpu.launch_func @dynamic_module::@dynamic_kernel blocks in (%[[GX]], %[[GY]], %{{.*}})
// CHECK-SAME: problem = {k, m, n}
// CHECK-SAME: requires = []
// CHECK: gpu.func @dynamic_kernel
// CHECK: tgemm.alloc_smem : <2x32x64xbf16>
// CHECK: tgemm.alloc_smem : <2x32x64xbf16>
// CHECK: memref.dim %arg0, %c0
// CHECK: tgemm.wait_copies pending = 0
// CHECK: layout(col, row)
// CHECK: tgemm.store_tile {{.*}} alpha(5.000000e-01) beta(2.000000e+00) : <32x32xf32>, memref<?x?xbf16>
func.func @dynamic(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32) alpha(0.5) beta(2.0)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// One stage: no copy is in flight across iterations, so copies are
// synchronous and barriers fence the single buffer on both sides.
// CHECK-LABEL: gpu.func @one_stage_kernel
// CHECK: scf.for
// CHECK-NEXT: gpu.barrier
// CHECK: tgemm.copy_tile %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] : memref<?x?xi8>, <1x64x64xi8>
// CHECK-NEXT: tgemm.copy_tile %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] : memref<?x?xi8>, <1x64x64xi8>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: tgemm.mma_tile
// CHECK-NOT: tgemm.wait_copies
// CHECK-NOT: tgemm.commit_copies
func.func @one_stage(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [64, 64, 64], warps = [2, 2], stages = 1>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// Two matmuls in one function get two kernels, named apart.
// CHECK-LABEL: func.func @two
// CHECK: gpu.launch_func @two_module::@two_kernel
// CHECK: gpu.launch_func @two_1_module::@two_1_kernel
// CHECK: gpu.module @two_module
// CHECK: gpu.module @two_1_module
func.func @two(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}

// -----

// raster = 4: block (x, y) is renumbered row-major and walks the tiles down
// groups of 4 tile-rows; the launch grid is unchanged.
// CHECK-LABEL: gpu.func @raster_kernel
// CHECK: %[[BX:.*]] = gpu.block_id  x
// CHECK: %[[BY:.*]] = gpu.block_id  y
// CHECK: %[[GX:.*]] = gpu.grid_dim  x
// CHECK: %[[GY:.*]] = gpu.grid_dim  y
// CHECK: %[[ROWS:.*]] = arith.muli %[[BY]], %[[GX]]
// CHECK: %[[PID:.*]] = arith.addi %[[ROWS]], %[[BX]]
// CHECK: arith.minui
// CHECK: tgemm.copy_tile
func.func @raster(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2, raster = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
