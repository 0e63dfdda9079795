// RUN: tgemm-opt %s --split-input-file --tgemm-from-linalg --verify-diagnostics | FileCheck %s
// RUN: not tgemm-opt %s --split-input-file --tgemm-from-linalg="strict=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// Contractions that are not the named matmuls: a linalg.generic written as
// a matrix product, linalg.contract and linalg.matmul with indexing maps.
// The importer infers their m, n, k (and batch) dimensions from the maps
// (upstream's inferContractionDims) and reads the layouts as it does for
// the named ops.

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func.func @generic_nt
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, col) acc(f32) beta(1.000000e+00)
// CHECK-NOT: linalg.generic
func.func @generic_nt(%a: memref<128x64xf16>, %b: memref<256x64xf16>, %c: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [#mk, #nk, #mn],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x64xf16>, memref<256x64xf16>) outs(%c : memref<128x256xf32>) {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The loop dimensions in another order: (k, m, n).
#a = affine_map<(k, m, n) -> (m, k)>
#b = affine_map<(k, m, n) -> (k, n)>
#c = affine_map<(k, m, n) -> (m, n)>
// CHECK-LABEL: func.func @generic_permuted
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, row) acc(i32) beta(1.000000e+00)
func.func @generic_permuted(%a: memref<64x32xi8>, %b: memref<32x64xi8>, %c: memref<64x64xi32>) {
  linalg.generic {indexing_maps = [#a, #b, #c],
                  iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%a, %b : memref<64x32xi8>, memref<32x64xi8>) outs(%c : memref<64x64xi32>) {
  ^bb0(%x: i8, %y: i8, %z: i32):
    %xi = arith.extsi %x : i8 to i32
    %yi = arith.extsi %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %z, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// A batched generic: the batch dimension leads every map.
#ba = affine_map<(b, m, n, k) -> (b, m, k)>
#bb = affine_map<(b, m, n, k) -> (b, n, k)>
#bc = affine_map<(b, m, n, k) -> (b, m, n)>
// CHECK-LABEL: func.func @generic_batch
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, col) acc(f32) beta(1.000000e+00) : memref<4x64x32xbf16>
func.func @generic_batch(%a: memref<4x64x32xbf16>, %b: memref<4x64x32xbf16>, %c: memref<4x64x64xf32>) {
  linalg.generic {indexing_maps = [#ba, #bb, #bc],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x64x32xbf16>, memref<4x64x32xbf16>) outs(%c : memref<4x64x64xf32>) {
  ^bb0(%x: bf16, %y: bf16, %z: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// linalg.contract, B stored N x K; a zero fill before it folds into beta 0.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @contract
// CHECK-NOT: linalg.fill
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, col) acc(f32) beta(0.000000e+00)
// CHECK-NOT: linalg.contract
func.func @contract(%a: memref<64x32xf16>, %b: memref<64x32xf16>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.contract indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : memref<64x32xf16>, memref<64x32xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// linalg.matmul with indexing maps: A stored K x M.
#km = affine_map<(m, n, k) -> (k, m)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @matmul_maps
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(col, row) acc(f32)
func.func @matmul_maps(%a: memref<32x64xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul indexing_maps = [#km, #kn, #mn]
      ins(%a, %b : memref<32x64xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// What stays: two reduction dimensions, and an unsigned extension.
#a2 = affine_map<(m, n, k1, k2) -> (m, k1, k2)>
#b2 = affine_map<(m, n, k1, k2) -> (n, k1, k2)>
#c2 = affine_map<(m, n, k1, k2) -> (m, n)>
// CHECK-LABEL: func.func @two_k
// CHECK: linalg.generic
// STRICT: error: cannot be computed by tgemm.matmul: it is a contraction over more than one m, n or k dimension
func.func @two_k(%a: memref<64x8x8xf16>, %b: memref<64x8x8xf16>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{left as is, not a tgemm.matmul: it is a contraction over more than one m, n or k dimension (or more than one batch dimension); tgemm.matmul multiplies matrices}}
  linalg.generic {indexing_maps = [#a2, #b2, #c2],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<64x8x8xf16>, memref<64x8x8xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Unsigned bytes as upstream writes them: signless i8 buffers, extended as
// unsigned (linalg.matmul's cast attribute, arith.extui in a generic). The
// product reads both as unsigned: tgemm.matmul's `unsigned`.
// CHECK-LABEL: func.func @matmul_cast_unsigned
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, row) acc(i32) unsigned beta(0.000000e+00)
// CHECK-SAME: memref<64x32xi8>, memref<32x64xi8>, memref<64x64xi32>
func.func @matmul_cast_unsigned(%a: memref<64x32xi8>, %b: memref<32x64xi8>, %c: memref<64x64xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<64x64xi32>)
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : memref<64x32xi8>, memref<32x64xi8>) outs(%c : memref<64x64xi32>)
  return
}

// -----

// CHECK-LABEL: func.func @generic_extui
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, col) acc(i32) unsigned beta(1.000000e+00)
func.func @generic_extui(%a: memref<64x32xi8>, %b: memref<64x32xi8>, %c: memref<64x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xi8>, memref<64x32xi8>) outs(%c : memref<64x64xi32>) {
  ^bb0(%x: i8, %y: i8, %z: i32):
    %xi = arith.extui %x : i8 to i32
    %yi = arith.extui %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %z, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// On tensors the keyword carries through bufferization.
// CHECK-LABEL: func.func @tensor_cast_unsigned
// CHECK: tgemm.matmul %arg0, %arg1, %{{.*}} layout(row, row) acc(i32) unsigned beta(0.000000e+00)
// CHECK-SAME: -> tensor<64x64xi32>
func.func @tensor_cast_unsigned(%a: tensor<64x32xi8>, %b: tensor<32x64xi8>) -> tensor<64x64xi32> {
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<64x64xi32>
  %c = linalg.fill ins(%zero : i32) outs(%empty : tensor<64x64xi32>) -> tensor<64x64xi32>
  %r = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : tensor<64x32xi8>, tensor<32x64xi8>) outs(%c : tensor<64x64xi32>) -> tensor<64x64xi32>
  return %r : tensor<64x64xi32>
}

// -----

// linalg.batch_matmul takes the same cast attribute: the batched product
// reads both i8 operands as unsigned.
// CHECK-LABEL: func.func @batch_matmul_cast_unsigned
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, row) acc(i32) unsigned beta(1.000000e+00)
// CHECK-SAME: memref<4x64x32xi8>, memref<4x32x64xi8>, memref<4x64x64xi32>
// CHECK-NOT: linalg.batch_matmul
func.func @batch_matmul_cast_unsigned(%a: memref<4x64x32xi8>, %b: memref<4x32x64xi8>, %c: memref<4x64x64xi32>) {
  linalg.batch_matmul {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : memref<4x64x32xi8>, memref<4x32x64xi8>) outs(%c : memref<4x64x64xi32>)
  return
}

// -----

// cast_signed, written out, is the default: no `unsigned`.
// CHECK-LABEL: func.func @batch_matmul_cast_signed
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, row) acc(i32) beta(1.000000e+00)
// CHECK-SAME: memref<4x64x32xi8>, memref<4x32x64xi8>, memref<4x64x64xi32>
func.func @batch_matmul_cast_signed(%a: memref<4x64x32xi8>, %b: memref<4x32x64xi8>, %c: memref<4x64x64xi32>) {
  linalg.batch_matmul {cast = #linalg.type_fn<cast_signed>}
      ins(%a, %b : memref<4x64x32xi8>, memref<4x32x64xi8>) outs(%c : memref<4x64x64xi32>)
  return
}

// -----

// linalg.contract with cast_unsigned, B stored N x K; a zero fill folds
// into beta 0 as for the signed form.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @contract_cast_unsigned
// CHECK-NOT: linalg.fill
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, col) acc(i32) unsigned beta(0.000000e+00)
// CHECK-SAME: memref<64x32xi8>, memref<64x32xi8>, memref<64x64xi32>
// CHECK-NOT: linalg.contract
func.func @contract_cast_unsigned(%a: memref<64x32xi8>, %b: memref<64x32xi8>, %c: memref<64x64xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<64x64xi32>)
  linalg.contract indexing_maps = [#mk, #nk, #mn] {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : memref<64x32xi8>, memref<64x32xi8>) outs(%c : memref<64x64xi32>)
  return
}

// -----

// A batched linalg.contract with cast_unsigned, on tensors.
#bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#bkn = affine_map<(b, m, n, k) -> (b, k, n)>
#bmn = affine_map<(b, m, n, k) -> (b, m, n)>
// CHECK-LABEL: func.func @batch_contract_cast_unsigned
// CHECK: %[[R:.*]] = tgemm.matmul %arg0, %arg1, %arg2 layout(row, row) acc(i32) unsigned beta(1.000000e+00)
// CHECK-SAME: tensor<2x64x32xi8>, tensor<2x32x64xi8>, tensor<2x64x64xi32> -> tensor<2x64x64xi32>
// CHECK: return %[[R]]
func.func @batch_contract_cast_unsigned(%a: tensor<2x64x32xi8>, %b: tensor<2x32x64xi8>,
                                        %c: tensor<2x64x64xi32>) -> tensor<2x64x64xi32> {
  %r = linalg.contract indexing_maps = [#bmk, #bkn, #bmn] {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : tensor<2x64x32xi8>, tensor<2x32x64xi8>) outs(%c : tensor<2x64x64xi32>) -> tensor<2x64x64xi32>
  return %r : tensor<2x64x64xi32>
}
