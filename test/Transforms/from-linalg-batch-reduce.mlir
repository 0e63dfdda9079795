// RUN: tgemm-opt %s --split-input-file --tgemm-from-linalg --verify-diagnostics | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-pipeline="chip=sm_90a allow-no-kernel=true" 2>/dev/null | FileCheck %s --check-prefix=PIPELINE

// linalg.batch_reduce_matmul sums a batch of products into one C:
// C += sum over b of A[b] B[b]. It is imported as a loop over the batch of
// GEMMs on matrix b of A and B, each accumulating into C (beta 1), in
// order: one kernel, launched once per matrix.
// CHECK-LABEL: func.func @named
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[N:.*]] = memref.dim %arg0, %{{.*}} : memref<4x256x128xf16>
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK:   %[[A:.*]] = memref.subview %arg0[%[[I]], 0, 0] [1, 256, 128] [1, 1, 1] : memref<4x256x128xf16> to memref<256x128xf16, strided<[128, 1], offset: ?>>
// CHECK:   %[[B:.*]] = memref.subview %arg1[%[[I]], 0, 0] [1, 128, 512] [1, 1, 1] : memref<4x128x512xf16> to memref<128x512xf16, strided<[512, 1], offset: ?>>
// CHECK:   tgemm.matmul %[[A]], %[[B]], %arg2 layout(row, row) acc(f32) beta(1.000000e+00)
// CHECK: }
// CHECK-NOT: linalg.batch_reduce_matmul
// The pipeline compiles the loop's GEMM once; its launch is in the loop.
// PIPELINE-LABEL: func.func @named
// PIPELINE: ^[[LOOP:bb[0-9]+]](%{{.*}}: index):
// PIPELINE: cf.cond_br
// PIPELINE: gpu.launch_func @named_module::@named_kernel
// PIPELINE-SAME: beta = 1.000000e+00
// PIPELINE: cf.br ^[[LOOP]]
func.func @named(%a: memref<4x256x128xf16>, %b: memref<4x128x512xf16>, %c: memref<256x512xf32>) {
  linalg.batch_reduce_matmul ins(%a, %b : memref<4x256x128xf16>, memref<4x128x512xf16>)
      outs(%c : memref<256x512xf32>)
  return
}

// -----

// A zero fill of C stays before the loop (every launch reads C).
// CHECK-LABEL: func.func @zero_filled
// CHECK: linalg.fill
// CHECK: scf.for
// CHECK: tgemm.matmul {{.*}} acc(i32) beta(1.000000e+00)
func.func @zero_filled(%a: memref<?x?x?xi8>, %b: memref<?x?x?xi8>, %c: memref<?x?xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<?x?xi32>)
  linalg.batch_reduce_matmul ins(%a, %b : memref<?x?x?xi8>, memref<?x?x?xi8>)
      outs(%c : memref<?x?xi32>)
  return
}

// -----

// On tensors C is the loop's iteration argument: each product's result is
// the next one's C.
// CHECK-LABEL: func.func @tensors
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %arg2) -> (tensor<?x?xf32>) {
// CHECK:   %[[B:.*]] = tensor.extract_slice %arg1
// CHECK:   %[[P:.*]] = tgemm.matmul %{{.*}}, %[[B]], %[[ACC]] layout(row, row) acc(f32) beta(1.000000e+00) {{.*}} -> tensor<?x?xf32>
// CHECK:   scf.yield %[[P]]
// CHECK: return %[[R]]
func.func @tensors(%a: tensor<?x?x?xbf16>, %b: tensor<?x?x?xbf16>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.batch_reduce_matmul ins(%a, %b : tensor<?x?x?xbf16>, tensor<?x?x?xbf16>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// The generic form: two reduction dimensions, one of them the outermost of
// A and B and absent from C; B indexed (b, n, k) is column-major.
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#bt = affine_map<(b, m, n, k) -> (b, n, k)>
#c = affine_map<(b, m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @generic_nt
// CHECK: scf.for
// CHECK: tgemm.matmul {{.*}} layout(row, col) acc(f32) beta(1.000000e+00)
// CHECK-NOT: linalg.generic
func.func @generic_nt(%a: memref<8x64x32xf16>, %b: memref<8x128x32xf16>, %c: memref<64x128xf32>) {
  linalg.generic {indexing_maps = [#a, #bt, #c],
                  iterator_types = ["reduction", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x64x32xf16>, memref<8x128x32xf16>) outs(%c : memref<64x128xf32>) {
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

// What the instructions cannot take stays, with the verifier's reason.
// CHECK-LABEL: func.func @f64
// CHECK-NOT: arith.constant
// CHECK: linalg.batch_reduce_matmul
// CHECK-NOT: scf.for
func.func @f64(%a: memref<2x16x16xf64>, %b: memref<2x16x16xf64>, %c: memref<16x16xf64>) {
  // expected-remark @+1 {{left as is, not a tgemm.matmul:}}
  linalg.batch_reduce_matmul ins(%a, %b : memref<2x16x16xf64>, memref<2x16x16xf64>)
      outs(%c : memref<16x16xf64>)
  return
}

// -----

// linalg.batch_reduce_matmul with indexing maps: B indexed (b, n, k) is
// column-major; the loop slices A and B as for the default maps.
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#bt = affine_map<(b, m, n, k) -> (b, n, k)>
#c = affine_map<(b, m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @named_maps
// CHECK: %[[N:.*]] = memref.dim %arg0, %{{.*}} : memref<8x64x32xf16>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK:   %[[A:.*]] = memref.subview %arg0[%[[I]], 0, 0] [1, 64, 32] [1, 1, 1] : memref<8x64x32xf16> to memref<64x32xf16, strided<[32, 1], offset: ?>>
// CHECK:   %[[B:.*]] = memref.subview %arg1[%[[I]], 0, 0] [1, 128, 32] [1, 1, 1] : memref<8x128x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>>
// CHECK:   tgemm.matmul %[[A]], %[[B]], %arg2 layout(row, col) acc(f32) beta(1.000000e+00)
// CHECK: }
// CHECK-NOT: linalg.batch_reduce_matmul
func.func @named_maps(%a: memref<8x64x32xf16>, %b: memref<8x128x32xf16>, %c: memref<64x128xf32>) {
  linalg.batch_reduce_matmul indexing_maps = [#a, #bt, #c]
      ins(%a, %b : memref<8x64x32xf16>, memref<8x128x32xf16>) outs(%c : memref<64x128xf32>)
  return
}

// -----

// A batch-reduce linalg.contract: the reduction dimension b is the
// outermost of A and B and absent from C.
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#bb = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @contract
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[A:.*]] = memref.subview %arg0[%[[I]], 0, 0] [1, 64, 32] [1, 1, 1]
// CHECK:   %[[B:.*]] = memref.subview %arg1[%[[I]], 0, 0] [1, 32, 128] [1, 1, 1]
// CHECK:   tgemm.matmul %[[A]], %[[B]], %arg2 layout(row, row) acc(f32) beta(1.000000e+00)
// CHECK: }
// CHECK-NOT: linalg.contract
func.func @contract(%a: memref<8x64x32xf16>, %b: memref<8x32x128xf16>, %c: memref<64x128xf32>) {
  linalg.contract indexing_maps = [#a, #bb, #c]
      ins(%a, %b : memref<8x64x32xf16>, memref<8x32x128xf16>) outs(%c : memref<64x128xf32>)
  return
}

// -----

// The same on tensors, A indexed (b, k, m): column-major matrices, C the
// loop's iteration argument.
#at = affine_map<(b, m, n, k) -> (b, k, m)>
#bb = affine_map<(b, m, n, k) -> (b, k, n)>
#c = affine_map<(b, m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @contract_tensors
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %arg2) -> (tensor<64x128xf32>) {
// CHECK:   %[[A:.*]] = tensor.extract_slice %arg0{{.*}} : tensor<8x32x64xbf16> to tensor<32x64xbf16>
// CHECK:   %[[B:.*]] = tensor.extract_slice %arg1{{.*}} : tensor<8x32x128xbf16> to tensor<32x128xbf16>
// CHECK:   %[[P:.*]] = tgemm.matmul %[[A]], %[[B]], %[[ACC]] layout(col, row) acc(f32) beta(1.000000e+00) {{.*}} -> tensor<64x128xf32>
// CHECK:   scf.yield %[[P]]
// CHECK: return %[[R]]
func.func @contract_tensors(%a: tensor<8x32x64xbf16>, %b: tensor<8x32x128xbf16>,
                            %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.contract indexing_maps = [#at, #bb, #c]
      ins(%a, %b : tensor<8x32x64xbf16>, tensor<8x32x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
