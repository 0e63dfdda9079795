// RUN: tgemm-opt %s --tgemm-lower-to-wmma | FileCheck %s
// RUN: tgemm-opt %s --tgemm-attach-target=family=wmma --tgemm-override-config=async-copy=false --tgemm-lower-to-wmma | FileCheck %s --check-prefix=SYNC

// A predicated copy of a tile known inside its operand is a cp.async whose
// source size is 16 bytes where the predicate holds and 0 (nothing read, a
// zero fill) where not: no branch. One that may cross an edge is branched
// around: inside, whole tiles take cp.async and the others the masked copy
// through registers. The second 16 of the stage's 32 elements of K are one
// k-step of m16n16k16: 2 x 2 wmma.mma for a 32x32 accumulator.
// CHECK-LABEL: gpu.func @kernel
// CHECK: %[[BYTES:.*]] = arith.select %arg3, %c16_i32, %c0_i32 : i32
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[BYTES]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: scf.if %arg3 {
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: llvm.load {{.*}} -> vector<4xi32>
// CHECK: llvm.store {{.*}} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK: nvvm.wmma.load
// CHECK-COUNT-4: nvvm.wmma.mma
// CHECK-NOT: nvvm.wmma.mma
// The epilogue waits for every copy still in flight.
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.wmma.store
// CHECK: gpu.return

// With async-copy=false every copy goes through registers and is branched
// around; groups and waits vanish.
// SYNC-LABEL: gpu.func @kernel
// SYNC-NOT: nvvm.cp.async
// SYNC: scf.if %arg3 {
// SYNC: llvm.load {{.*}} -> vector<4xi32>
// SYNC: llvm.store {{.*}} : vector<4xi32>, !llvm.ptr<3>
// SYNC: scf.if %arg3 {
// SYNC: nvvm.wmma.load
// SYNC-COUNT-4: nvvm.wmma.mma
// SYNC-NOT: nvvm.wmma.mma
// SYNC-NOT: nvvm.cp.async
// SYNC: gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @kernel(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %p: i1)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %sa = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %sb = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %acc = tgemm.zero_acc : !tgemm.acc<32x32xf32>
      tgemm.copy_tile %a[%c0, %c0], %sa[%c0] async in_bounds if %p
          : memref<?x?xf16>, !tgemm.smem<2x32x32xf16>
      tgemm.copy_tile %b[%c0, %c0], %sb[%c0] async if %p
          : memref<?x?xf16>, !tgemm.smem<2x32x32xf16>
      tgemm.commit_copies
      tgemm.wait_copies pending = 0
      gpu.barrier
      %d = tgemm.mma_tile %sa[%c0], %sb[%c0], %acc at [%c0, %c0] layout(row, col)
          k_slice [16, 16]
          : !tgemm.smem<2x32x32xf16>, !tgemm.smem<2x32x32xf16>, !tgemm.acc<32x32xf32>
      tgemm.store_tile %d, %c[%c0, %c0] : !tgemm.acc<32x32xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}
