// RUN: tgemm-opt %s --split-input-file --tgemm-from-linalg | FileCheck %s

// tgemm-from-linalg: upstream linalg matmuls on memrefs become tgemm.matmul
// without a config; layouts come from the indexing maps.

// linalg.matmul accumulates into C; a zero fill right before it becomes
// beta(0) and goes away. B indexed (k, n) is row-major.
// CHECK-LABEL: func.func @zero_filled
// CHECK-NOT: linalg.fill
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, row) acc(f32) beta(0.000000e+00) :
// CHECK-SAME: memref<256x128xf16>, memref<128x512xf16>, memref<256x512xf32>
// CHECK-NOT: linalg.matmul
func.func @zero_filled(%a: memref<256x128xf16>, %b: memref<128x512xf16>,
                       %c: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x512xf32>)
  linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x512xf16>)
                outs(%c : memref<256x512xf32>)
  return
}

// -----

// Without the fill, C is read: beta(1). f16 C accumulates in f16.
// CHECK-LABEL: func.func @accumulating
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, row) acc(f16) beta(1.000000e+00) :
func.func @accumulating(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                        %c: memref<?x?xf16>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf16>)
  return
}

// -----

// A fill of another value, or of another buffer, stays.
// CHECK-LABEL: func.func @other_fill
// CHECK: linalg.fill
// CHECK: tgemm.matmul {{.*}} beta(1.000000e+00)
func.func @other_fill(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                      %c: memref<?x?xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  return
}

// -----

// Transposed operands through indexing_maps: A (k, m) is col, B (n, k) is
// col. A bf16 C accumulates in f32.
// CHECK-LABEL: func.func @transposed
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(col, col) acc(f32) beta(1.000000e+00) :
// CHECK-SAME: memref<64x32xbf16>, memref<16x64xbf16>, memref<32x16xbf16>
func.func @transposed(%a: memref<64x32xbf16>, %b: memref<16x64xbf16>,
                      %c: memref<32x16xbf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<64x32xbf16>, memref<16x64xbf16>)
      outs(%c : memref<32x16xbf16>)
  return
}

// -----

// Batches keep their rank; views into larger buffers stay views.
// CHECK-LABEL: func.func @batched
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, col) acc(i32) beta(1.000000e+00) :
// CHECK-SAME: memref<4x?x?xi8>, memref<4x?x?xi8, strided<[?, ?, 1], offset: ?>>, memref<4x?x?xi32>
func.func @batched(%a: memref<4x?x?xi8>,
                   %b: memref<4x?x?xi8, strided<[?, ?, 1], offset: ?>>,
                   %c: memref<4x?x?xi32>) {
  linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : memref<4x?x?xi8>, memref<4x?x?xi8, strided<[?, ?, 1], offset: ?>>)
      outs(%c : memref<4x?x?xi32>)
  return
}

// -----

// fp8 inputs into f32.
// CHECK-LABEL: func.func @fp8
// CHECK: tgemm.matmul {{.*}} layout(row, col) acc(f32) beta(0.000000e+00) : memref<?x?xf8E4M3FN>
func.func @fp8(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>,
               %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>)
      outs(%c : memref<?x?xf32>)
  return
}

// -----

// On tensors the product is tgemm.matmul's tensor form (destination
// style), which one-shot-bufferize turns into the memref form. A zero fill
// of the init makes beta 0 and the fill's own init C, so the fill goes
// away.
// CHECK-LABEL: func.func @tensors_zero_filled
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<256x512xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[R:.*]] = tgemm.matmul %arg0, %arg1, %[[EMPTY]] layout(row, row) acc(f32) beta(0.000000e+00)
// CHECK-SAME: : tensor<256x128xf16>, tensor<128x512xf16>, tensor<256x512xf32> -> tensor<256x512xf32>
// CHECK: return %[[R]]
func.func @tensors_zero_filled(%a: tensor<256x128xf16>, %b: tensor<128x512xf16>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x512xf32>) -> tensor<256x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x512xf16>)
                     outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}

// -----

// An init that is not a zero fill is accumulated into (beta 1); a fill
// that something else reads stays. Batches and transposed maps too.
// CHECK-LABEL: func.func @tensors_accumulate
// CHECK: %[[R:.*]] = tgemm.matmul %arg0, %arg1, %arg2 layout(row, col) acc(i32) beta(1.000000e+00)
// CHECK-SAME: : tensor<4x64x32xi8>, tensor<4x48x32xi8>, tensor<4x64x48xi32> -> tensor<4x64x48xi32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<64x48xf32>
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: %[[S:.*]] = tgemm.matmul %arg3, %arg4, %[[EMPTY]] layout(col, row) acc(f32) beta(0.000000e+00)
// CHECK-SAME: : tensor<32x64xf16>, tensor<32x48xf16>, tensor<64x48xf32> -> tensor<64x48xf32>
// CHECK: return %[[R]], %[[S]], %[[FILL]]
func.func @tensors_accumulate(%a: tensor<4x64x32xi8>, %b: tensor<4x48x32xi8>, %c: tensor<4x64x48xi32>,
                              %at: tensor<32x64xf16>, %bt: tensor<32x48xf16>)
    -> (tensor<4x64x48xi32>, tensor<64x48xf32>, tensor<64x48xf32>) {
  %r = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<4x64x32xi8>, tensor<4x48x32xi8>)
      outs(%c : tensor<4x64x48xi32>) -> tensor<4x64x48xi32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x48xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x48xf32>) -> tensor<64x48xf32>
  %s = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%at, %bt : tensor<32x64xf16>, tensor<32x48xf16>)
      outs(%fill : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r, %s, %fill : tensor<4x64x48xi32>, tensor<64x48xf32>, tensor<64x48xf32>
}
