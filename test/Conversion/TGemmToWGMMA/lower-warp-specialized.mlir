// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile --tgemm-lower-to-wgmma | FileCheck %s
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile --tgemm-lower-to-wgmma | FileCheck %s --check-prefix=EDGE
// The ptx lowering has no barriers, bulk copies or register budgets: a
// warp-specialized kernel handed to it is refused at the first such op.
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile \
// RUN:   | sed -e 's/family = wgmma/family = ptx/' -e 's/#tgemm.schedule<[^>]*>/#tgemm.schedule<>/' \
// RUN:   | not tgemm-opt --tgemm-lower-to-ptx 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: error: 'tgemm.alloc_barriers' op needs the wgmma lowering (mbarriers, TMA and setmaxnreg of sm_90a); the ptx lowering has none

// tgemm-lower-to-wgmma on a warp-specialized kernel: two consumer
// warpgroups of 64 x 64, a producer warpgroup, 2 stages. Shared memory:
// 2 x (128 + 64) rows x 128 bytes of rings, then 2 x 2 mbarriers of 8
// bytes: 49152 + 32.
func.func @ws(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 64, 64], warps = [8, 1], stages = 2>)
      schedule(<warp_specialize = true, tma = true, setmaxnreg = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// CHECK: %[[SMEM:.*]] = arith.constant 49184 : i32
// CHECK: gpu.launch_func {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK-SAME: lowering = "wgmma"
// CHECK: gpu.func @ws_kernel({{.*}}, %[[MAPA:.*]]: !llvm.ptr, %[[MAPB:.*]]: !llvm.ptr, %[[MADE:.*]]: i32)
// CHECK-SAME: tgemm.tensor_map_params = 2 : i64
// CHECK-NOT: tgemm.{{(alloc_barriers|init_barriers|wait_barrier|arrive_barrier|bulk_copy_tile|set_max_registers)}}
// Thread 0 initializes both barriers of each ring, fences, and the block
// meets.
// CHECK: scf.if
// CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// The bulk-copy producer: 40 registers, and per k-tile a wait on the
// stage's empty barrier, the full barrier's arrival with the 24576 bytes
// of the stage, and two 3-d tensor copies into the cluster-space stage.
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(24576 : i32) : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPA]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPB]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// Without the maps, the producer warpgroup's cp.async copies, their wait
// and proxy fence, then its arrival.
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: cp.async.cg.shared.global
// CHECK: "cp.async.wait_group 0;"
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3> -> i64
// The consumers: 232 registers, a wait on the full barrier, the
// warpgroup's wgmma with one group left in flight, the release of the
// previous stage; after the loop the wait for the last group, then the
// epilogue's barrier of the 256 consumer threads (named barrier 1).
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3> -> i64
// CHECK: }
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[CONSUMERS:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK: %[[ID:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[CONSUMERS]]

// The kernel for any size (after the whole-tile one, both with TMA
// producers): its cp.async producer copies a tile at an operand's edge with
// zero-filling cp.async in one loop over its 8 rounds of chunks, not 8
// copies of that code, whose invariants would be held across the k-loop.
// EDGE-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global
// EDGE: "cp.async.cg.shared.global [$0], [$1], 16;"
// EDGE: } else {
// EDGE-NOT: "cp.async.cg.shared.global [$0], [$1], 16, $2;"
// EDGE: scf.for
// EDGE: "cp.async.cg.shared.global [$0], [$1], 16, $2;", "r,l,r"
