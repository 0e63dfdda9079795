// RUN: tgemm-opt %s --split-input-file --tgemm-tile | FileCheck %s

// A batch of matrix products: one grid layer (z) per matrix; each block
// takes its matrices as strided views and runs the usual tile loop.

// CHECK-LABEL: func.func @batch
// CHECK-DAG: %[[B:.*]] = memref.dim %arg2, %c0
// CHECK-DAG: %[[GZ:.*]] = arith.ceildivui %[[B]], %c1
// CHECK: gpu.launch_func @batch_module::@batch_kernel blocks in (%{{.*}}, %{{.*}}, %[[GZ]])
// CHECK-SAME: args = [{kind = "memref", name = "a", rank = 3 : i64, strided = false, type = "f16"}
// CHECK-SAME: grid = [{dim = "n", tile = 128 : i64}, {dim = "m", tile = 128 : i64}, {dim = "batch", tile = 1 : i64}]
// CHECK-SAME: problem = {batch, k = 512 : i64, m, n}
// CHECK: gpu.func @batch_kernel
// CHECK: %[[Z:.*]] = gpu.block_id  z
// CHECK: memref.subview %arg0[%[[Z]], 0, 0] [1, %{{.*}}, 512] [1, 1, 1] : memref<?x?x512xf16> to memref<?x512xf16, strided<[512, 1], offset: ?>>
// CHECK: memref.subview %arg1[%[[Z]], 0, 0]
// CHECK: memref.subview %arg2[%[[Z]], 0, 0]
// CHECK: tgemm.copy_tile
func.func @batch(%a: memref<?x?x512xf16>, %b: memref<?x?x512xf16>,
                 %c: memref<?x?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<?x?x512xf16>, memref<?x?x512xf16>, memref<?x?x?xf32>
  return
}

// -----

// Views into larger buffers are marked strided in the manifest: the runtime
// may pass any leading dimension and offset.
// CHECK-LABEL: func.func @views
// CHECK: args = [{kind = "memref", name = "a", rank = 2 : i64, strided = true, type = "s8"}, {kind = "memref", name = "b", rank = 2 : i64, strided = false, type = "s8"}, {kind = "memref", name = "c", rank = 2 : i64, strided = true, type = "s32"}]
// CHECK-SAME: grid = [{dim = "n", tile = 128 : i64}, {dim = "m", tile = 128 : i64}, {value = 1 : i64}]
func.func @views(%a: memref<?x?xi8, strided<[?, 1], offset: ?>>, %b: memref<?x?xi8>,
                 %c: memref<?x?xi32, strided<[?, 1], offset: ?>>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xi8, strided<[?, 1], offset: ?>>, memref<?x?xi8>, memref<?x?xi32, strided<[?, 1], offset: ?>>
  return
}

// -----

// A static row stride in the source still reaches the kernel through the
// descriptor: the kernel takes the fully dynamic view (memref.cast), so a
// launch may pass any leading dimension, as the manifest says.
// CHECK-LABEL: func.func @static_view
// CHECK: %[[CAST:.*]] = memref.cast %arg0 : memref<64x64xf16, strided<[4160, 1], offset: 8>> to memref<64x64xf16, strided<[?, 1], offset: ?>>
// CHECK: gpu.launch_func @static_view_module::@static_view_kernel {{.*}} args(%[[CAST]] : memref<64x64xf16, strided<[?, 1], offset: ?>>, %arg1 : memref<64x64xf16>, %arg2 : memref<64x64xf32>)
// CHECK-SAME: name = "a", rank = 2 : i64, strided = true
// CHECK: gpu.func @static_view_kernel(%{{.*}}: memref<64x64xf16, strided<[?, 1], offset: ?>>, %{{.*}}: memref<64x64xf16>, %{{.*}}: memref<64x64xf32>)
func.func @static_view(%a: memref<64x64xf16, strided<[4160, 1], offset: 8>>,
                       %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<64x64xf16, strided<[4160, 1], offset: 8>>, memref<64x64xf16>, memref<64x64xf32>
  return
}
