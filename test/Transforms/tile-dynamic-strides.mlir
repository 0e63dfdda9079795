// RUN: tgemm-opt %s --split-input-file --tgemm-tile | FileCheck %s

// A fully dynamic view (strided<[?, ?], offset: ?>, what one-shot-bufferize
// gives function arguments) is compiled for unit stride within a row: the
// host asserts it, then casts to the kernel's strided<[?, 1]> argument.
// Views whose innermost stride is static 1 get no assert.

// CHECK-LABEL: func.func @dynamic(
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[UNIT:.*]] = arith.cmpi eq, %[[STRIDES]]#1, %[[ONE]] : index
// CHECK: cf.assert %[[UNIT]], "tgemm.matmul: A must have unit stride within a row (its innermost stride); the kernel reads rows as contiguous elements"
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<?x?xf16, strided<[?, ?], offset: ?>> to memref<?x?xf16, strided<[?, 1], offset: ?>>
// CHECK-NOT: cf.assert
// CHECK: gpu.launch_func @dynamic_module::@dynamic_kernel
// CHECK-SAME: args(%[[A]] : memref<?x?xf16, strided<[?, 1], offset: ?>>, %arg1 : memref<?x?xf16, strided<[?, 1], offset: ?>>, %arg2 : memref<?x?xf32>)
// CHECK-SAME: name = "a", rank = 2 : i64, strided = true
func.func @dynamic(%a: memref<?x?xf16, strided<[?, ?], offset: ?>>,
                   %b: memref<?x?xf16, strided<[?, 1], offset: ?>>,
                   %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<?x?xf16, strided<[?, ?], offset: ?>>, memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf32>
  return
}

// -----

// Batched: the innermost of three strides.
// CHECK-LABEL: func.func @batched(
// CHECK: memref.extract_strided_metadata %arg2
// CHECK: arith.cmpi eq, %{{.*}}#2
// CHECK: cf.assert %{{.*}}, "tgemm.matmul: C must have unit stride within a row
// CHECK: memref.cast %arg2 : memref<4x?x?xf32, strided<[?, ?, ?], offset: ?>> to memref<4x?x?xf32, strided<[?, ?, 1], offset: ?>>
func.func @batched(%a: memref<4x?x?xf16>, %b: memref<4x?x?xf16>,
                   %c: memref<4x?x?xf32, strided<[?, ?, ?], offset: ?>>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<4x?x?xf16>, memref<4x?x?xf16>, memref<4x?x?xf32, strided<[?, ?, ?], offset: ?>>
  return
}
