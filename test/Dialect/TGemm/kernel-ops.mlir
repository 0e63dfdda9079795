// RUN: tgemm-opt %s | tgemm-opt | FileCheck %s
// RUN: tgemm-opt %s --mlir-print-op-generic | tgemm-opt | FileCheck %s

// Round trip of the kernel-level tile ops and types, in the custom form and
// through the generic form.

// CHECK-LABEL: func @tile_ops
// CHECK: %[[SA:.*]] = tgemm.alloc_smem : <3x128x32xf16>
// CHECK: %[[SB:.*]] = tgemm.alloc_smem : <3x32x128xf16>
// CHECK: %[[ACC:.*]] = tgemm.zero_acc : <64x64xf32>
// CHECK: tgemm.copy_tile %{{.*}}[%{{.*}}, %{{.*}}], %[[SA]][%{{.*}}] async : memref<?x?xf16>, <3x128x32xf16>
// CHECK: tgemm.copy_tile %{{.*}}[%{{.*}}, %{{.*}}], %[[SB]][%{{.*}}] : memref<?x?xf16>, <3x32x128xf16>
// CHECK: tgemm.copy_tile %{{.*}}[%{{.*}}, %{{.*}}], %[[SA]][%{{.*}}] async in_bounds if %{{.*}} : memref<?x?xf16>, <3x128x32xf16>
// CHECK: tgemm.commit_copies
// CHECK: tgemm.wait_copies pending = 2
// CHECK: %[[D0:.*]] = tgemm.mma_tile %[[SA]][%{{.*}}], %[[SB]][%{{.*}}], %[[ACC]] at[%{{.*}}, %{{.*}}] layout(row, row) : <3x128x32xf16>, <3x32x128xf16>, <64x64xf32>
// CHECK: %[[F:.*]] = tgemm.load_frags %[[SA]][%{{.*}}], %[[SB]][%{{.*}}] at[%{{.*}}, %{{.*}}] layout(row, row) k_slice [16, 16] : <3x128x32xf16>, <3x32x128xf16>, <64x64x16xf16>
// CHECK: %[[D:.*]] = tgemm.mma_tile %[[SA]][%{{.*}}], %[[SB]][%{{.*}}], %[[D0]] at[%{{.*}}, %{{.*}}] layout(row, row) k_slice [16, 16] using(%[[F]] : !tgemm.frags<64x64x16xf16>) : <3x128x32xf16>, <3x32x128xf16>, <64x64xf32>
// CHECK: tgemm.store_tile %[[D]], %{{.*}}[%{{.*}}, %{{.*}}] alpha(2.000000e+00) beta(1.000000e+00) : <64x64xf32>, memref<?x?xbf16>
func.func @tile_ops(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xbf16>, %i: index, %p: i1) {
  %sa = tgemm.alloc_smem : !tgemm.smem<3x128x32xf16>
  %sb = tgemm.alloc_smem : !tgemm.smem<3x32x128xf16>
  %acc = tgemm.zero_acc : !tgemm.acc<64x64xf32>
  tgemm.copy_tile %a[%i, %i], %sa[%i] async : memref<?x?xf16>, !tgemm.smem<3x128x32xf16>
  tgemm.copy_tile %b[%i, %i], %sb[%i] : memref<?x?xf16>, !tgemm.smem<3x32x128xf16>
  tgemm.copy_tile %a[%i, %i], %sa[%i] async in_bounds if %p : memref<?x?xf16>, !tgemm.smem<3x128x32xf16>
  tgemm.commit_copies
  tgemm.wait_copies pending = 2
  %d0 = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, row)
      : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x32x128xf16>, !tgemm.acc<64x64xf32>
  %f = tgemm.load_frags %sa[%i], %sb[%i] at [%i, %i] layout(row, row) k_slice [16, 16]
      : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x32x128xf16>, !tgemm.frags<64x64x16xf16>
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %d0 at [%i, %i] layout(row, row) k_slice [16, 16]
      using(%f : !tgemm.frags<64x64x16xf16>)
      : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x32x128xf16>, !tgemm.acc<64x64xf32>
  tgemm.store_tile %d, %c[%i, %i] alpha(2.0) beta(1.0) : !tgemm.acc<64x64xf32>, memref<?x?xbf16>
  return
}

// 4-bit rings and i32 accumulators.
// CHECK-LABEL: func @int4_types
// CHECK-SAME: !tgemm.smem<2x64x128xi4>
// CHECK-SAME: !tgemm.acc<32x16xi32>
func.func @int4_types(%s: !tgemm.smem<2x64x128xi4>, %acc: !tgemm.acc<32x16xi32>) {
  return
}

// A multiply left in flight, and the wait before the accumulator is read.
// CHECK-LABEL: func.func @in_flight
// CHECK: %[[D:.*]] = tgemm.mma_tile %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} at[%{{.*}}, %{{.*}}] layout(row, col) in_flight 1 : <4x128x64xf16>, <4x256x64xf16>, <16x256xf32>
// CHECK: %[[W:.*]] = tgemm.wait_mma %[[D]] : <16x256xf32>
// CHECK: tgemm.store_tile %[[W]]
func.func @in_flight(%c: memref<?x?xf32>, %i: index) {
  %sa = tgemm.alloc_smem : !tgemm.smem<4x128x64xf16>
  %sb = tgemm.alloc_smem : !tgemm.smem<4x256x64xf16>
  %acc = tgemm.zero_acc : !tgemm.acc<16x256xf32>
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col) in_flight 1
      : !tgemm.smem<4x128x64xf16>, !tgemm.smem<4x256x64xf16>, !tgemm.acc<16x256xf32>
  %w = tgemm.wait_mma %d : !tgemm.acc<16x256xf32>
  tgemm.store_tile %w, %c[%i, %i] : !tgemm.acc<16x256xf32>, memref<?x?xf32>
  return
}

// A store through C's tensor map (the TMA-store epilogue): the map and
// the matrix of the batch it stores into.
// CHECK-LABEL: func.func @via_map
// CHECK: tgemm.store_tile %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] via %{{.*}}[%{{.*}}] threads [0, 256] : <16x256xf32>, memref<?x?xf32>
// CHECK: tgemm.store_tile %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] beta(1.000000e+00) via %{{.*}}[%{{.*}}] in_bounds : <16x64xf32>, memref<?x?xbf16>
func.func @via_map(%acc: !tgemm.acc<16x256xf32>, %c: memref<?x?xf32>,
                   %acc16: !tgemm.acc<16x64xf32>, %c16: memref<?x?xbf16>,
                   %map: !llvm.ptr, %i: index) {
  tgemm.store_tile %acc, %c[%i, %i] via %map[%i] threads [0, 256] : !tgemm.acc<16x256xf32>, memref<?x?xf32>
  tgemm.store_tile %acc16, %c16[%i, %i] beta(1.0) via %map[%i] in_bounds : !tgemm.acc<16x64xf32>, memref<?x?xbf16>
  return
}

// Split K: the host's workspace and the kernel's sum of a tile's parts.
// CHECK-LABEL: func @split_k
// CHECK: %[[W:.*]] = tgemm.workspace for %{{.*}} parts 4 : memref<?x?xf16> -> memref<?xi8>
// CHECK: tgemm.reduce_splits %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}] tile [128, 64] alpha(2.000000e+00) beta(1.000000e+00) in_bounds threads [0, 256] : memref<4x?x?xf32>, memref<?xi32>, memref<?x?xf16>
func.func @split_k(%p: memref<4x?x?xf32>, %s: memref<?xi32>, %c: memref<?x?xf16>, %i: index) -> memref<?xi8> {
  %w = tgemm.workspace for %c parts 4 : memref<?x?xf16> -> memref<?xi8>
  tgemm.reduce_splits %p, %s[%i], %c[%i, %i] tile [128, 64] alpha(2.0) beta(1.0) in_bounds threads [0, 256]
      : memref<4x?x?xf32>, memref<?xi32>, memref<?x?xf16>
  return %w : memref<?xi8>
}

// transpose_kernel: the host's K-major copy of an operand stored MN-major
// (a batch of them too), in the workspace.
// CHECK-LABEL: func @transposed_copy
// CHECK: tgemm.transposed_copy %{{.*}} : memref<1024x4096xi8> -> memref<4096x1024xi8, strided<[?, 1], offset: ?>>
// CHECK: tgemm.transposed_copy %{{.*}} : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>> -> memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
func.func @transposed_copy(%b: memref<1024x4096xi8>, %t: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>) {
  %0 = tgemm.transposed_copy %b : memref<1024x4096xi8> -> memref<4096x1024xi8, strided<[?, 1], offset: ?>>
  %1 = tgemm.transposed_copy %t : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>> -> memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
  return
}

// MN-major operands a family reads K-major only: a copy that transposes
// from global memory, and a transpose from a staging ring.
// CHECK-LABEL: func @transposed_copies
// CHECK: tgemm.copy_tile %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] transpose in_bounds threads [256, 128] : memref<?x?xi8>, <4x256x128xi8>
// CHECK: tgemm.copy_tile %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] transpose : memref<?x?xf32>, <4x256x32xf32>
// CHECK: tgemm.transpose_tile %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] threads [256, 128] : <2x128x256xi8>, <4x256x128xi8>
func.func @transposed_copies(%b: memref<?x?xi8>, %f: memref<?x?xf32>, %i: index) {
  %sb = tgemm.alloc_smem : !tgemm.smem<4x256x128xi8>
  %sf = tgemm.alloc_smem : !tgemm.smem<4x256x32xf32>
  %staged = tgemm.alloc_smem : !tgemm.smem<2x128x256xi8>
  tgemm.copy_tile %b[%i, %i], %sb[%i] transpose in_bounds threads [256, 128]
      : memref<?x?xi8>, !tgemm.smem<4x256x128xi8>
  tgemm.copy_tile %f[%i, %i], %sf[%i] transpose
      : memref<?x?xf32>, !tgemm.smem<4x256x32xf32>
  tgemm.transpose_tile %staged[%i], %sb[%i] threads [256, 128]
      : !tgemm.smem<2x128x256xi8>, !tgemm.smem<4x256x128xi8>
  return
}

// The barrier and bulk-copy ops of a clustered warp-specialized kernel: a
// multicast copy, an arrival on another block's barrier, the cluster's
// meeting.
// CHECK-LABEL: func @cluster_ops
// CHECK: tgemm.init_barriers %[[FULL:.*]] arrivals %{{.*}} : <4>
// CHECK: tgemm.sync_cluster
// CHECK: tgemm.arrive_barrier %[[FULL]][%{{.*}}] expect_bytes 49152 : <4>
// CHECK: tgemm.bulk_copy_tile %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], %[[FULL]] : !llvm.ptr, <4x128x64xf16>, <4>
// CHECK: tgemm.bulk_copy_tile %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], %[[FULL]] multicast 2 : !llvm.ptr, <4x256x64xf16>, <4>
// CHECK: tgemm.wait_barrier %[[FULL]][%{{.*}}] parity %{{.*}} : <4>
// CHECK: tgemm.arrive_barrier %[[EMPTY:.*]][%{{.*}}] cta %{{.*}} : <4>
// CHECK: tgemm.sync_cluster
func.func @cluster_ops(%ma: !llvm.ptr, %mb: !llvm.ptr, %i: index, %n: index) {
  %sa = tgemm.alloc_smem : !tgemm.smem<4x128x64xf16>
  %sb = tgemm.alloc_smem : !tgemm.smem<4x256x64xf16>
  %full = tgemm.alloc_barriers : !tgemm.barriers<4>
  %empty = tgemm.alloc_barriers : !tgemm.barriers<4>
  tgemm.init_barriers %full arrivals %n : !tgemm.barriers<4>
  tgemm.sync_cluster
  tgemm.arrive_barrier %full[%i] expect_bytes 49152 : !tgemm.barriers<4>
  tgemm.bulk_copy_tile %ma[%i, %i, %i], %sa[%i], %full
      : !llvm.ptr, !tgemm.smem<4x128x64xf16>, !tgemm.barriers<4>
  tgemm.bulk_copy_tile %mb[%i, %i, %i], %sb[%i], %full multicast 2
      : !llvm.ptr, !tgemm.smem<4x256x64xf16>, !tgemm.barriers<4>
  tgemm.wait_barrier %full[%i] parity %i : !tgemm.barriers<4>
  tgemm.arrive_barrier %empty[%i] cta %i : !tgemm.barriers<4>
  tgemm.sync_cluster
  return
}

// align_kernel: the host's copy of an operand as stored, rows 16 bytes
// apart, in the workspace.
// CHECK-LABEL: func @aligned_copy
// CHECK: tgemm.aligned_copy %{{.*}} : memref<4095x999xf16> -> memref<4095x999xf16, strided<[?, 1], offset: ?>>
func.func @aligned_copy(%a: memref<4095x999xf16>) {
  %0 = tgemm.aligned_copy %a : memref<4095x999xf16> -> memref<4095x999xf16, strided<[?, 1], offset: ?>>
  return
}
