// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-lower-to-ptx | FileCheck %s

// Kernel-level ops written by hand: a predicated copy (`if`) and a slice of
// a stage's multiply (`k_slice`).

// A whole, aligned async copy under a predicate becomes predicated
// cp.async (no branch); any other copy under one is branched around. The
// second 16 of the stage's 32 elements of K are one k-step of m16n8k16:
// 2 x 4 mma.sync for a 32x32 accumulator, from the stage's second
// 32 bytes (chunks 2 and 3).
// CHECK-LABEL: gpu.func @kernel
// CHECK-NOT: scf.if
// CHECK: "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p cp.async.cg.shared.global [$0], [$1], 16; }"
// CHECK: scf.if %arg3 {
// CHECK: cp.async
// CHECK: "cp.async.commit_group;"
// CHECK: ldmatrix
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16
// CHECK-NOT: mma.sync
// CHECK: gpu.return
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

// -----

// A slice must be whole k-steps of the instruction.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @half_step(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %sa = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %sb = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %acc = tgemm.zero_acc : !tgemm.acc<32x32xf32>
      // expected-error @+1 {{k_slice [8, 8] is not a whole number of mma.sync k-steps (k = 16)}}
      %d = tgemm.mma_tile %sa[%c0], %sb[%c0], %acc at [%c0, %c0] layout(row, col)
          k_slice [8, 8]
          : !tgemm.smem<2x32x32xf16>, !tgemm.smem<2x32x32xf16>, !tgemm.acc<32x32xf32>
      tgemm.store_tile %d, %c[%c0, %c0] : !tgemm.acc<32x32xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}

// -----

// Fragments loaded ahead (here before a barrier) and multiplied from
// registers: the one k-step of the slice needs no ldmatrix of its own.
// CHECK-LABEL: gpu.func @frags
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: ldmatrix
// CHECK: gpu.barrier
// CHECK-NOT: ldmatrix
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16
// CHECK-NOT: mma.sync
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @frags(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %sa = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %sb = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %acc = tgemm.zero_acc : !tgemm.acc<32x32xf32>
      %f = tgemm.load_frags %sa[%c0], %sb[%c0] at [%c0, %c0] layout(row, col) k_slice [16, 16]
          : !tgemm.smem<2x32x32xf16>, !tgemm.smem<2x32x32xf16>, !tgemm.frags<32x32x16xf16>
      gpu.barrier
      %d = tgemm.mma_tile %sa[%c0], %sb[%c0], %acc at [%c0, %c0] layout(row, col)
          k_slice [16, 16] using(%f : !tgemm.frags<32x32x16xf16>)
          : !tgemm.smem<2x32x32xf16>, !tgemm.smem<2x32x32xf16>, !tgemm.acc<32x32xf32>
      tgemm.store_tile %d, %c[%c0, %c0] : !tgemm.acc<32x32xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}

// -----

// Fragments must be whole k-steps of the instruction.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @frags_half_step(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %sa = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %sb = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %acc = tgemm.zero_acc : !tgemm.acc<32x32xf32>
      // expected-error @+1 {{k_slice [0, 8] is not a whole number of mma.sync k-steps (k = 16)}}
      %f = tgemm.load_frags %sa[%c0], %sb[%c0] at [%c0, %c0] layout(row, col) k_slice [0, 8]
          : !tgemm.smem<2x32x32xf16>, !tgemm.smem<2x32x32xf16>, !tgemm.frags<32x32x8xf16>
      %d = tgemm.mma_tile %sa[%c0], %sb[%c0], %acc at [%c0, %c0] layout(row, col)
          : !tgemm.smem<2x32x32xf16>, !tgemm.smem<2x32x32xf16>, !tgemm.acc<32x32xf32>
      tgemm.store_tile %d, %c[%c0, %c0] : !tgemm.acc<32x32xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}
