// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-override-config="warp-specialize=false tma=false" --tgemm-tile | FileCheck %s --check-prefix=PTX

// tgemm-tile with persistent: the host still launches one block per tile
// (the manifest's grid lists them, with persistent = true, and the runtime
// launches only the resident blocks); every block loops over C's tiles
// from tile y X + x by X Y (the grid's extents), in the config's raster
// order. The warp-specialized kernel's producer and consumers each loop
// over the tiles, the ring's stage and lap parity carried from one tile to
// the next (and the k-tiles done so far), and the consumers release the
// last k-tile's stage once its multiply is done, so that the producer
// fills the next tile's stages while they store. The epilogue's slabs lie
// after the rings, 64 columns wide: 196608 bytes of rings + 64 of barriers,
// then 8 warps x 16 rows x (64 x 4 + 16) bytes = 34816: 231552.
func.func @ws(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8>)
      schedule(<warp_specialize = true, tma = true, persistent = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// CHECK-LABEL: func.func @ws
// CHECK-DAG: %[[SMEM:.*]] = arith.constant 231552 : i32
// CHECK: gpu.launch_func @ws_module::@ws_kernel {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK-SAME: grid = [{dim = "n", tile = 256 : i64}, {dim = "m", tile = 128 : i64}, {value = 1 : i64}]
// CHECK-SAME: persistent = true
// CHECK: gpu.func @ws_kernel
// CHECK-SAME: tgemm.schedule = #tgemm.schedule<warp_specialize = true, tma = true, persistent = true>
// The producer (one thread, with TMA): tiles from C's sizes.
// CHECK: tgemm.init_barriers
// CHECK: %[[M:.*]] = memref.dim %arg2, %c0
// CHECK: %[[TM:.*]] = arith.ceildivui %[[M]], %c128
// CHECK: %[[N:.*]] = memref.dim %arg2, %c1
// CHECK: %[[TN:.*]] = arith.ceildivui %[[N]], %c256
// CHECK: %[[GX:.*]] = gpu.grid_dim x
// CHECK: %[[GY:.*]] = gpu.grid_dim y
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[ROW:.*]] = arith.muli %[[BY]], %[[GX]]
// CHECK: %[[FIRST:.*]] = arith.addi %[[ROW]], %[[BX]]
// CHECK: %[[STEP:.*]] = arith.muli %[[GX]], %[[GY]]
// CHECK: %[[TILES:.*]] = arith.muli %[[TM]], %[[TN]]
// CHECK: %[[P:.*]]:3 = scf.for %{{.*}} = %[[FIRST]] to %[[TILES]] step %[[STEP]] iter_args(%[[STAGE:.*]] = %{{.*}}, %[[PARITY:.*]] = %{{.*}}, %[[DONE:.*]] = %{{.*}}) -> (index, index, index) {
// Grouped rasterization of 8 tile-rows.
// CHECK:   arith.minui
// CHECK:   %[[K:.*]]:2 = scf.for {{.*}} iter_args(%[[S:.*]] = %[[STAGE]], %{{.*}} = %[[PARITY]]) -> (index, index) {
// CHECK:     tgemm.wait_barrier %{{.*}}[%[[S]]]
// CHECK:     tgemm.arrive_barrier %{{.*}}[%[[S]]] expect_bytes 49152
// CHECK:     tgemm.bulk_copy_tile
// CHECK:     tgemm.bulk_copy_tile
// CHECK:   }
// CHECK:   %[[NEXT:.*]] = arith.addi %[[DONE]], %{{.*}} : index
// CHECK:   scf.yield %[[K]]#0, %[[K]]#1, %[[NEXT]] : index, index, index
// The consumers: a tile loop around the k-loop and the epilogue.
// CHECK: scf.for {{.*}} iter_args(%[[CSTAGE:.*]] = %{{.*}}, %[[CPARITY:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (index, index, index) {
// CHECK:   %[[ZERO:.*]] = tgemm.zero_acc
// CHECK:   %[[LOOP:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[CSTAGE]], %{{.*}} = %[[CPARITY]])
// CHECK:     tgemm.mma_tile
// CHECK:   %[[ACC:.*]] = tgemm.wait_mma %[[LOOP]]#0
// CHECK:   scf.if
// CHECK:     %[[LAST:.*]] = arith.select
// CHECK:     tgemm.arrive_barrier %{{.*}}[%[[LAST]]] : <4>
// CHECK:   tgemm.store_tile %[[ACC]], %arg2{{.*}} in_bounds threads [0, 256]
// CHECK:   scf.yield %[[LOOP]]#1, %[[LOOP]]#2

// PTX-LABEL: func.func @ws
// Without warp specialization every thread loops over the tiles; each
// tile's copies wait at a barrier for every warp to be done with the
// previous tile's epilogue, which staged C over the rings.
// PTX: gpu.func @ws_kernel
// PTX-SAME: tgemm.schedule = #tgemm.schedule<persistent = true>
// PTX: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// PTX-NEXT: arith.constant 8
// PTX: gpu.barrier
// PTX: tgemm.copy_tile
// PTX: scf.for
// PTX: tgemm.store_tile
// PTX: }

// -----

// Split K: each part's blocks loop over the tiles of their matrix; the
// parts' semaphores are numbered by C's tiles (from its sizes, not the
// grid's).
func.func @split(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4, split_k = 3>)
      schedule(<warp_specialize = true, tma = true, persistent = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// CHECK-LABEL: func.func @split
// CHECK: gpu.launch_func
// CHECK-SAME: persistent = true
// CHECK: gpu.func @split_kernel
// CHECK: tgemm.wait_mma
// CHECK-NOT: gpu.grid_dim {{x|y}}
// CHECK: arith.ceildivui
// CHECK-NOT: gpu.grid_dim {{x|y}}
// CHECK: arith.ceildivui
// CHECK-NOT: gpu.grid_dim {{x|y}}
// CHECK: tgemm.store_tile
// CHECK: tgemm.reduce_splits
