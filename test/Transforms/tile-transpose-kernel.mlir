// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | FileCheck %s

// With transpose_kernel, an MN-major operand wgmma reads K-major only (an
// s8 B stored K x N) is transposed before the GEMM by a kernel of its own:
// the host takes B's copy in the workspace (N x K), launches the
// transposing kernel over B's 128 x 64 tiles (x over N, y over K) with 256
// threads, then the GEMM, which reads the copy K-major with TMA straight
// into its ring (no staging ring, no transpose_tile, 4 stages). The GEMM
// takes the workspace though K is not split (parts 1), and its manifest
// describes the caller's B (row) and the copy (transposes).
// CHECK-LABEL: func.func @b_row_s8
// CHECK: %[[B:.*]] = memref.cast %arg1 : memref<1024x2048xi8> to memref<1024x2048xi8, strided<[?, 1], offset: ?>>
// CHECK: %[[COPY:.*]] = tgemm.transposed_copy %[[B]] : memref<1024x2048xi8, strided<[?, 1], offset: ?>> -> memref<2048x1024xi8, strided<[?, 1], offset: ?>>
// CHECK: gpu.launch_func @b_row_s8_module::@b_row_s8_transpose_b blocks in (%c32, %c8, %c1) threads in (%c256, %c1, %c1) args(%[[B]] : {{.*}}, %[[COPY]] : memref<2048x1024xi8, strided<[?, 1], offset: ?>>)
// CHECK: %[[WS:.*]] = tgemm.workspace for %arg2 parts 1
// CHECK: tgemm.tensor_map %arg0 box [128, 128] swizzle 128
// CHECK: tgemm.tensor_map %[[COPY]] box [256, 128] swizzle 128
// CHECK: gpu.launch_func @b_row_s8_module::@b_row_s8_kernel {{.*}} args(%arg0 : memref<4096x1024xi8>, %[[COPY]] : memref<2048x1024xi8, strided<[?, 1], offset: ?>>, %arg2 : memref<4096x2048xi32>, %[[WS]] : memref<?xi8>
// CHECK-SAME: b = {layout = "row", type = "s8"}
// CHECK-SAME: transposes = [{block = [256, 1, 1], kernel = "b_row_s8_transpose_b", operand = "b", tile = [128, 64]}]
// The transposing kernel. A whole tile whose rows start aligned (one test
// for the whole block) moves in vectors: each thread loads its two 16-byte
// vectors of B's rows, then writes their 32 bytes into shared memory (128
// rows of 65 words) as words; after the barrier it gathers 4 bytes of a
// copy row 8 times and stores each as one vector. Any other tile moves
// element by element, 32 per thread each way.
// CHECK: gpu.func @b_row_s8_transpose_b(%[[IN:.*]]: memref<1024x2048xi8, strided<[?, 1], offset: ?>>, %[[OUT:.*]]: memref<2048x1024xi8, strided<[?, 1], offset: ?>>) workgroup(%[[TILE:.*]] : memref<128x65xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 64 : i32}
// CHECK: memref.extract_strided_metadata %[[IN]]
// CHECK: memref.extract_strided_metadata %[[OUT]]
// CHECK: scf.if %[[WHOLE:[0-9]+]] {
// CHECK-COUNT-2: vector.load %[[IN]][{{.*}}] {alignment = 16 : i64} : memref<1024x2048xi8, strided<[?, 1], offset: ?>>, vector<16xi8>
// CHECK-NOT: vector.load
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: memref.store %{{.*}}, %[[TILE]]
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c32
// CHECK: memref.load %[[IN]]
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: memref.store %{{.*}}, %[[TILE]]
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if %[[WHOLE]] {
// CHECK: memref.load %[[TILE]]
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK-COUNT-8: vector.store %{{.*}}, %[[OUT]][{{.*}}] {alignment = 4 : i64} : memref<2048x1024xi8, strided<[?, 1], offset: ?>>, vector<4xi8>
// CHECK-NOT: vector.store
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c32
// CHECK: memref.load %[[TILE]]
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK: gpu.func @b_row_s8_kernel
// CHECK-NOT: tgemm.transpose_tile
// CHECK: tgemm.alloc_smem : <4x128x128xi8>
// CHECK: tgemm.alloc_smem : <4x256x128xi8>
// CHECK-NOT: tgemm.alloc_smem
// CHECK-NOT: tgemm.transpose_tile
// CHECK: tgemm.mma_tile {{.*}} layout(row, col)
func.func @b_row_s8(%a: memref<4096x1024xi8>, %b: memref<1024x2048xi8>, %c: memref<4096x2048xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 256, 128], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, setmaxnreg = true, transpose_kernel = true>)
      : memref<4096x1024xi8>, memref<1024x2048xi8>, memref<4096x2048xi32>
  return
}

// -----

// Both operands MN-major (A stored K x M, B stored K x N): a copy and a
// transposing kernel each, A's first; the GEMM reads both copies.
// CHECK-LABEL: func.func @both_e4m3
// CHECK: %[[CA:.*]] = tgemm.transposed_copy %{{.*}} -> memref<?x?xf8E4M3FN, strided<[?, 1], offset: ?>>
// CHECK: gpu.launch_func @both_e4m3_module::@both_e4m3_transpose_a
// CHECK: %[[CB:.*]] = tgemm.transposed_copy %{{.*}} -> memref<?x?xf8E4M3FN, strided<[?, 1], offset: ?>>
// CHECK: gpu.launch_func @both_e4m3_module::@both_e4m3_transpose_b
// CHECK: gpu.launch_func @both_e4m3_module::@both_e4m3_kernel {{.*}} args(%[[CA]] : {{.*}}, %[[CB]] :
// CHECK-SAME: a = {layout = "col", type = "e4m3"}
// CHECK-SAME: b = {layout = "row", type = "e4m3"}
// CHECK-SAME: transposes = [{block = [256, 1, 1], kernel = "both_e4m3_transpose_a", operand = "a", tile = [128, 64]}, {block = [256, 1, 1], kernel = "both_e4m3_transpose_b", operand = "b", tile = [128, 64]}]
// CHECK: gpu.func @both_e4m3_transpose_a(%{{.*}}: memref<?x?xf8E4M3FN, {{.*}}>, %{{.*}}: memref<?x?xf8E4M3FN, {{.*}}>)
// fp8 elements move as bytes.
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : memref<?x?xf8E4M3FN, strided<[?, 1], offset: ?>> to memref<?x?xi8, strided<[?, 1], offset: ?>>
// CHECK: gpu.func @both_e4m3_transpose_b
// CHECK: gpu.func @both_e4m3_kernel
// CHECK: tgemm.mma_tile {{.*}} layout(row, col)
func.func @both_e4m3(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      config(<block = [128, 256, 128], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, setmaxnreg = true, transpose_kernel = true>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

// A batch of tf32 GEMMs with a strided row-major B: the transposing kernel
// takes one matrix per block z (grid z is the batch) and 128 x 32 tiles
// of words (128 rows of 33 in shared memory): 4 vectors of 4 words per
// thread each way for a whole tile, 16 words for any other; the GEMM reads
// the copy with TMA, not through registers as without transpose_kernel.
// CHECK-LABEL: func.func @tf32_batched
// CHECK: %[[COPY:.*]] = tgemm.transposed_copy %arg1 : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>> -> memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: %[[BATCH:.*]] = memref.dim %arg1, %c0
// CHECK: gpu.launch_func @tf32_batched_module::@tf32_batched_transpose_b blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%c256
// CHECK: tgemm.tensor_map %[[COPY]] box [256, 32] swizzle 128
// CHECK: gpu.func @tf32_batched_transpose_b({{.*}}) workgroup(%{{.*}} : memref<128x33xi32, #gpu.address_space<workgroup>>)
// CHECK: gpu.block_id z
// CHECK: memref.subview
// CHECK: scf.if
// CHECK-COUNT-4: vector.load {{.*}} {alignment = 16 : i64} : memref<?x?xi32, strided<[?, 1], offset: ?>>, vector<4xi32>
// CHECK-NOT: arith.extui
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c16
// CHECK-NOT: arith.extui
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-COUNT-4: vector.store {{.*}} {alignment = 16 : i64} : memref<?x?xi32, strided<[?, 1], offset: ?>>, vector<4xi32>
// CHECK-NOT: vector.store
// CHECK: } else {
// CHECK: gpu.func @tf32_batched_kernel
// CHECK-NOT: tgemm.copy_tile {{.*}} transpose
// CHECK: tgemm.bulk_copy_tile
func.func @tf32_batched(%a: memref<?x?x?xf32>,
                        %b: memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>,
                        %c: memref<?x?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 32], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, setmaxnreg = true, transpose_kernel = true>)
      : memref<?x?x?xf32>, memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>,
        memref<?x?x?xf32>
  return
}
