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
