// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile --tgemm-lower-to-wgmma | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-pipeline="lowering=wgmma chip=sm_90a" | tgemm-translate --emit=ptx --module band_module | FileCheck %s --check-prefix=PTX
// Hand-edited IR whose multicast copies and remote arrivals have no
// cluster to go to is refused, with the op's location.
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile \
// RUN:   | sed -e 's/nvvm.cluster_dim = array<i32: 2, 1, 1>, //' \
// RUN:   | not tgemm-opt --split-input-file --tgemm-lower-to-wgmma 2>&1 | FileCheck %s --check-prefix=NOCLUSTER
// NOCLUSTER: error: 'tgemm.bulk_copy_tile' op multicasts to 2 blocks, but its kernel runs in clusters of 1 (nvvm.cluster_dim)

// A cluster of 2 in NVVM: the blocks meet with barrier.cluster.arrive and
// .wait (not .aligned); B's bulk copy covers the block's band of B's rows
// (%cluster_ctarank x 128 rows, 16384 bytes into the stage) and is
// multicast to both blocks (mask 0b11); a consumer's release of another
// block's stage maps the barrier into the cluster's window (mapa) and
// arrives there, at CTA scope.
// CHECK-LABEL: gpu.func @band_kernel
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg3, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[R:.*]] = arith.index_castui %[[RANK]] : i32 to index
// CHECK: %[[ROWS:.*]] = arith.muli %[[R]], %c128
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[ROWS]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[R]], %c16384
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(3 : i16) : i16
// CHECK: %[[Y:.*]] = arith.index_castui %[[ROW]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg4, %{{.*}}, box[%{{.*}}, %[[Y]], %{{.*}}] multicast_mask = %[[MASK]] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE]] : !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// PTX-LABEL: .entry band_kernel
// PTX: .explicitcluster
// PTX: .reqnctapercluster 2, 1, 1
// PTX: barrier.cluster.arrive;
// PTX: barrier.cluster.wait;
// PTX: mov.u32 {{.*}}, %cluster_ctarank;
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX: mapa.shared::cluster
// PTX: mbarrier.arrive.shared::cluster.b64 _,
func.func @band(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// A row-major B (K x N) is a ring of 4 panels of 64 columns: each block
// copies 2 of them, from panel 2 x rank on (the map's box stays one panel).
// CHECK-LABEL: gpu.func @panels_kernel
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[R:.*]] = arith.index_castui %[[RANK]] : i32 to index
// CHECK: %[[FIRST:.*]] = arith.muli %[[R]], %c2
// CHECK: arith.muli %[[FIRST]], %c64
// CHECK: arith.muli %[[FIRST]], %c8192
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask
// CHECK: %[[P1:.*]] = arith.addi %[[FIRST]], %c1
// CHECK: arith.muli %[[P1]], %c64
// CHECK: arith.muli %[[P1]], %c8192
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask
// CHECK: nvvm.cluster.wait
func.func @panels(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// One block per tile, but the epilogue's slabs cannot lie over the rings
// where they would reach the barriers (8 warps x 16 rows x (128 x 4 + 16)
// bytes = 67584 over 2 stages of 32768 bytes, the barriers at 65536): the
// cluster's other block may still arrive on them. They lie after the
// barriers (65664), 64 columns wide (8 x 16 x (64 x 4 + 16) = 34816, so
// that two blocks still fit a multiprocessor): 100480 bytes in all.
// CHECK-LABEL: gpu.func @shallow_kernel
// CHECK: %[[WARP:.*]] = arith.muli %{{.*}}, %c4352
// CHECK-NEXT: %c65664 = arith.constant 65664 : index
// CHECK-NEXT: arith.addi %[[WARP]], %c65664
func.func @shallow(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 2>)
      schedule(<warp_specialize = true, tma = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
