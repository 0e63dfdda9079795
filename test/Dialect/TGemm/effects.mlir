// RUN: tgemm-opt %s --canonicalize | FileCheck %s

// On tensors tgemm.matmul is a value: with its result unused it is dead.
// On memrefs it writes C (and reads A, B, and C where beta is not 0): it
// stays.

// CHECK-LABEL: func.func @unused_tensor_form(
// CHECK-NOT: tgemm.matmul
// CHECK: return
func.func @unused_tensor_form(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) {
  %r = tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return
}

// CHECK-LABEL: func.func @memref_form(
// CHECK: tgemm.matmul
// CHECK: tgemm.matmul
// CHECK-SAME: beta(1.000000e+00)
func.func @memref_form(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) beta(1.0)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}
