// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile --tgemm-lower-to-wgmma | FileCheck %s

// The epilogue of a persistent warp-specialized kernel: its scratch lies
// after the rings (4 stages of 128 x 64 + 256 x 64 f16, 196608 bytes, and
// the barriers, aligned: 196736), where the producer is not refilling it
// for the next tile; its slabs are as wide as the 232448 bytes of sm_90a
// leave room for, 64 of the warp tile's 256 columns (16 rows of 64 f32
// plus 16 bytes a row, 4352 bytes a warp); and each of the 4 pieces is
// read back in a loop of rounds (16 rows x 16 vectors, 32 lanes a round),
// not unrolled, so that the other pieces' accumulators stay in registers
// beside one round's loads.
// CHECK-LABEL: gpu.func @persistent_kernel
// CHECK: %[[WARP:.*]] = arith.muli %{{.*}}, %c4352
// CHECK-NEXT: %c196736 = arith.constant 196736 : index
// CHECK-NEXT: arith.addi %[[WARP]], %c196736
// CHECK-COUNT-4: scf.for %{{.*}} = %{{.*}} to %c256{{.*}} step %c32
// CHECK: gpu.return
func.func @persistent(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8>)
      schedule(<warp_specialize = true, tma = true, persistent = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// One block per tile: the slab lies over the dead rings (offset 0), holds
// the whole warp tile (16 rows of 256 f32 plus 16 bytes, 16640 bytes a
// warp), and its one piece is read back unrolled.
// CHECK-LABEL: gpu.func @one_tile_kernel
// CHECK: %[[WARP:.*]] = arith.muli %{{.*}}, %c16640
// CHECK-NOT: 196736
// CHECK: nvvm.bar.warp.sync
// CHECK-NOT: scf.for
// CHECK: nvvm.bar.warp.sync
// CHECK: gpu.return
func.func @one_tile(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
