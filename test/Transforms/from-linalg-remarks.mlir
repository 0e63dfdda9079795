// RUN: tgemm-opt %s --split-input-file --tgemm-from-linalg --verify-diagnostics | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-from-linalg="tf32=true" | FileCheck %s --check-prefix=TF32

// What tgemm-from-linalg cannot take, it leaves alone with a remark.

// CHECK-LABEL: func.func @f32
// CHECK: linalg.matmul
// TF32-LABEL: func.func @f32
// TF32: tgemm.matmul {{.*}} acc(f32) beta(1.000000e+00) : memref<64x64xf32>
func.func @f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{f32 operands would be computed as TF32 (10-bit mantissa); import them with tf32=true}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  return
}

// -----

// The verifier's reason, for element types no instruction multiplies.
func.func @f64(%a: memref<64x64xf64>, %b: memref<64x64xf64>, %c: memref<64x64xf64>) {
  // expected-remark @+1 {{left as is, not a tgemm.matmul: 'tgemm.matmul' op operand #0 must be 2D/3D memref or tensor of f16, bf16, f32 (computed as tf32), i8, ui8, i4, f8E4M3FN or f8E5M2 values, but got}}
  linalg.matmul ins(%a, %b : memref<64x64xf64>, memref<64x64xf64>)
                outs(%c : memref<64x64xf64>)
  return
}

// -----

func.func @mixed(%a: memref<64x64xf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{no tensor-core instruction multiplies A of 'f16' by B of 'bf16'}}
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xbf16>)
                outs(%c : memref<64x64xf32>)
  return
}

// -----

// Signedness is per product, not per operand: mma.sync and wgmma take two
// signed or two unsigned 8-bit operands here.
func.func @mixed_signedness(%a: memref<64x64xi8>, %b: memref<64x64xi8>, %c: memref<64x64xi32>) {
  // expected-remark @+1 {{it extends one input as signed and the other as unsigned}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xi8>, memref<64x64xi8>) outs(%c : memref<64x64xi32>) {
  ^bb0(%x: i8, %y: i8, %z: i32):
    %xi = arith.extsi %x : i8 to i32
    %yi = arith.extui %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %z, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// Unsigned 4-bit operands: no instruction of the table has them.
func.func @unsigned_i4(%a: memref<64x64xi4>, %b: memref<64x64xi4>, %c: memref<64x64xi32>) {
  // expected-remark @+1 {{it extends its inputs as unsigned, which tgemm reads only from signless i8 operands (unsigned bytes)}}
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : memref<64x64xi4>, memref<64x64xi4>)
      outs(%c : memref<64x64xi32>)
  return
}

// -----

func.func @broadcast(%a: memref<64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{its indexing maps are not a (batched) matrix product}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<64xf16>, memref<64x64xf16>)
      outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @column_stride(%a: memref<64x64xf16, strided<[1, 64]>>, %b: memref<64x64xf16>,
                         %c: memref<64x64xf32>) {
  // expected-remark @+1 {{A must have unit stride within a row}}
  linalg.matmul ins(%a, %b : memref<64x64xf16, strided<[1, 64]>>, memref<64x64xf16>)
                outs(%c : memref<64x64xf32>)
  return
}

// -----

// 16-bit integers: no tensor-core instruction of the table multiplies them,
// so tgemm.matmul's operand constraint refuses them and its message is the
// remark (on memrefs and on tensors alike); the linalg op stays.
// CHECK-LABEL: func.func @i16
// CHECK-NOT: tgemm.matmul
// CHECK: linalg.matmul ins(%arg0, %arg1 : memref<64x64xi16>, memref<64x64xi16>)
// CHECK-NOT: tgemm.matmul
func.func @i16(%a: memref<64x64xi16>, %b: memref<64x64xi16>, %c: memref<64x64xi32>) {
  // expected-remark @+1 {{left as is, not a tgemm.matmul: 'tgemm.matmul' op operand #0 must be 2D/3D memref or tensor of f16, bf16, f32 (computed as tf32), i8, ui8, i4, f8E4M3FN or f8E5M2 values, but got 'memref<64x64xi16>'}}
  linalg.matmul ins(%a, %b : memref<64x64xi16>, memref<64x64xi16>)
                outs(%c : memref<64x64xi32>)
  return
}

// -----

// CHECK-LABEL: func.func @i16_tensors
// CHECK-NOT: tgemm.matmul
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<64x64xi16>, tensor<64x64xi16>)
// CHECK-NOT: tgemm.matmul
func.func @i16_tensors(%a: tensor<64x64xi16>, %b: tensor<64x64xi16>, %c: tensor<64x64xi32>) -> tensor<64x64xi32> {
  // expected-remark @+1 {{left as is, not a tgemm.matmul: 'tgemm.matmul' op operand #0 must be 2D/3D memref or tensor of f16, bf16, f32 (computed as tf32), i8, ui8, i4, f8E4M3FN or f8E5M2 values, but got 'tensor<64x64xi16>'}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xi16>, tensor<64x64xi16>)
                     outs(%c : tensor<64x64xi32>) -> tensor<64x64xi32>
  return %r : tensor<64x64xi32>
}
