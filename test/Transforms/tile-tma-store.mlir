// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | FileCheck %s

// tgemm-tile with tma_store: a third tensor map, C's, of boxes of 16 rows
// of 128 bytes (32 f32 columns), 128-byte swizzled, after A's and B's in
// the kernel's parameters and in the manifest. Where the runtime made
// every map (the last parameter is 1), the consumers store their tile
// through it (`via %map[%matrix]`); where it could not, the kernel copies
// with cp.async and stores as without it.
func.func @ws(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, tma_store = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// CHECK-LABEL: func.func @ws
// CHECK: %[[MA:.*]] = tgemm.tensor_map %arg0 box [128, 64] swizzle 128
// CHECK: %[[MB:.*]] = tgemm.tensor_map %arg1 box [256, 64] swizzle 128
// CHECK: %[[MC:.*]] = tgemm.tensor_map %arg2 box [16, 32] swizzle 128 : memref<?x?xf32> -> !llvm.ptr
// CHECK: gpu.launch_func @ws_module::@ws_kernel
// CHECK-SAME: args(%arg0 : memref<?x?xf16>, %arg1 : memref<?x?xf16>, %arg2 : memref<?x?xf32>, %[[MA]] : !llvm.ptr, %[[MB]] : !llvm.ptr, %[[MC]] : !llvm.ptr, %{{.*}} : i32)
// CHECK-SAME: tensor_maps = [{box = [128, 64], operand = "a", passing = "param", swizzle = 128 : i64}, {box = [256, 64], operand = "b", passing = "param", swizzle = 128 : i64}, {box = [16, 32], operand = "c", passing = "param", swizzle = 128 : i64}]
// CHECK: gpu.func @ws_kernel(%arg0: memref<?x?xf16>, %arg1: memref<?x?xf16>, %arg2: memref<?x?xf32>, %arg3: !llvm.ptr, %arg4: !llvm.ptr, %arg5: !llvm.ptr, %arg6: i32)
// CHECK-SAME: tgemm.schedule = #tgemm.schedule<warp_specialize = true, tma = true, tma_store = true>
// CHECK-SAME: tgemm.tensor_map_params = 3 : i64
// CHECK: %[[Z:.*]] = gpu.block_id z
// Whole tiles first, then the edges; in each, the same choice.
// CHECK: %[[MADE:.*]] = arith.cmpi ne, %arg6, %c0_i32
// CHECK: tgemm.wait_mma
// CHECK: scf.if %[[MADE]] {
// CHECK-NEXT: tgemm.store_tile %{{.*}}, %arg2[%{{.*}}, %{{.*}}] via %arg5[%[[Z]]] in_bounds threads [0, 256] : <16x256xf32>, memref<?x?xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: tgemm.store_tile %{{.*}}, %arg2[%{{.*}}, %{{.*}}] in_bounds threads [0, 256] : <16x256xf32>, memref<?x?xf32>
// CHECK: %[[MADE2:.*]] = arith.cmpi ne, %arg6, %c0_i32
// CHECK: tgemm.wait_mma
// CHECK: scf.if %[[MADE2]] {
// CHECK-NEXT: tgemm.store_tile %{{.*}}, %arg2[%{{.*}}, %{{.*}}] via %arg5[%[[Z]]] threads [0, 256] : <16x256xf32>, memref<?x?xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: tgemm.store_tile %{{.*}}, %arg2[%{{.*}}, %{{.*}}] threads [0, 256] : <16x256xf32>, memref<?x?xf32>
