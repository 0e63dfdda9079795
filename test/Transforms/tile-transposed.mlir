// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | FileCheck %s

// wgmma reads 8-bit and tf32 operands K-major only. An MN-major 8-bit one
// (here a row-major B, stored K x N) comes in by TMA as stored, box
// [128 k-rows, 128 bytes], into a staging ring of 2 slots (128 x 256 each,
// after the K-major rings of A and B); the producer warpgroup, every thread
// of it, transposes each slot into B's K-major ring (256 x 128) and then
// arrives on `full`, which expects its 128 arrivals and the leader's with
// A's 16384 bytes. The staging slots have a barrier ring each way: `full`
// (the leader's arrival with the 32768 bytes) and `empty` (128 arrivals).
// Nobody trades registers (setmaxnreg is left out). Without tensor maps
// the producer copies A with cp.async and B with a transposing copy.
// CHECK-LABEL: func.func @b_row_e4m3
// CHECK: tgemm.tensor_map %{{.*}} box [128, 128] swizzle 128
// CHECK: tgemm.tensor_map %{{.*}} box [128, 128] swizzle 128
// CHECK: gpu.launch_func {{.*}} threads in (%c384, {{.*}} dynamic_shared_memory_size %c213072_i32
// CHECK: gpu.func @b_row_e4m3_kernel
// CHECK: %[[SA:.*]] = tgemm.alloc_smem : <3x128x128xf8E4M3FN>
// CHECK: %[[SB:.*]] = tgemm.alloc_smem : <3x256x128xf8E4M3FN>
// CHECK: %[[STAGED:.*]] = tgemm.alloc_smem : <2x128x256xf8E4M3FN>
// CHECK: %[[FULL:.*]] = tgemm.alloc_barriers : <3>
// CHECK: %[[EMPTY:.*]] = tgemm.alloc_barriers : <3>
// CHECK: %[[SFULL:.*]] = tgemm.alloc_barriers : <2>
// CHECK: %[[SEMPTY:.*]] = tgemm.alloc_barriers : <2>
// CHECK: %[[ARRIVALS:.*]] = arith.select %{{.*}}, %c129, %c128
// CHECK: tgemm.init_barriers %[[FULL]] arrivals %[[ARRIVALS]] : <3>
// CHECK: tgemm.init_barriers %[[SFULL]] arrivals %c1{{.*}} : <2>
// CHECK: tgemm.init_barriers %[[SEMPTY]] arrivals %c128{{.*}} : <2>
// CHECK-NOT: tgemm.set_max_registers
// CHECK: tgemm.arrive_barrier %[[SFULL]][%{{.*}}] expect_bytes 32768 : <2>
// CHECK: tgemm.bulk_copy_tile %{{.*}}, %[[STAGED]][%{{.*}}], %[[SFULL]]
// CHECK: scf.for
// CHECK: tgemm.wait_barrier %[[SEMPTY]]
// CHECK: tgemm.bulk_copy_tile %{{.*}}, %[[STAGED]][%{{.*}}], %[[SFULL]]
// CHECK: tgemm.wait_barrier %[[EMPTY]]
// CHECK: tgemm.arrive_barrier %[[FULL]][%{{.*}}] expect_bytes 16384 : <3>
// CHECK: tgemm.bulk_copy_tile %{{.*}}, %[[SA]][%{{.*}}], %[[FULL]]
// CHECK: tgemm.wait_barrier %[[SFULL]]
// CHECK: tgemm.transpose_tile %[[STAGED]][%{{.*}}], %[[SB]][%{{.*}}] threads [256, 128] : <2x128x256xf8E4M3FN>, <3x256x128xf8E4M3FN>
// CHECK: tgemm.arrive_barrier %[[SEMPTY]]
// CHECK: tgemm.arrive_barrier %[[FULL]]
// CHECK: tgemm.copy_tile %{{.*}}, %[[SA]][%{{.*}}] async in_bounds threads [256, 128]
// CHECK: tgemm.copy_tile %{{.*}}, %[[SB]][%{{.*}}] transpose in_bounds threads [256, 128]
// The consumers multiply K-major rings.
// CHECK: tgemm.mma_tile %[[SA]][%{{.*}}], %[[SB]][%{{.*}}], %{{.*}} layout(row, col)
// CHECK-NOT: tgemm.set_max_registers
func.func @b_row_e4m3(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 128], warps = [8, 1], stages = 3>)
      schedule(<warp_specialize = true, tma = true, setmaxnreg = true>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

// A column-major s8 A (stored K x M) is staged the same way; B stays on TMA
// straight into its ring.
// CHECK-LABEL: func.func @a_col_s8
// CHECK: %[[SA:.*]] = tgemm.alloc_smem : <4x128x128xi8>
// CHECK: %[[SB:.*]] = tgemm.alloc_smem : <4x128x128xi8>
// CHECK: %[[STAGED:.*]] = tgemm.alloc_smem : <2x128x128xi8>
// CHECK: tgemm.arrive_barrier %{{.*}} expect_bytes 16384 : <4>
// CHECK: tgemm.bulk_copy_tile %{{.*}}, %[[SB]]
// CHECK: tgemm.transpose_tile %[[STAGED]][%{{.*}}], %[[SA]][%{{.*}}] threads [256, 128] : <2x128x128xi8>, <4x128x128xi8>
// CHECK: tgemm.mma_tile %[[SA]][%{{.*}}], %[[SB]][%{{.*}}], %{{.*}} layout(row, col)
func.func @a_col_s8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(i32)
      config(<block = [128, 128, 128], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// tf32 is transposed by copies from global memory through registers; the
// copy engine cannot transpose, so the kernel takes no tensor maps and its
// schedule says so.
// CHECK-LABEL: func.func @b_row_tf32
// CHECK-NOT: tgemm.tensor_map
// CHECK: gpu.func @b_row_tf32_kernel
// CHECK-SAME: tgemm.schedule = #tgemm.schedule<warp_specialize = true>
// CHECK: %[[SB:.*]] = tgemm.alloc_smem : <4x256x32xf32>
// CHECK-NOT: tgemm.transpose_tile
// CHECK: tgemm.copy_tile %{{.*}}, %[[SB]][%{{.*}}] transpose in_bounds threads [256, 128] : memref<?x?xf32>, <4x256x32xf32>
// CHECK: tgemm.mma_tile %{{.*}}, %[[SB]][%{{.*}}], %{{.*}} layout(row, col)
func.func @b_row_tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 32], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}
