// RUN: tgemm-opt %s --split-input-file --tgemm-from-linalg | FileCheck %s

// tgemm-from-linalg fuses the element-wise linalg.generic ops that follow a
// matmul and read its C into the tgemm.matmul's epilogue: every step and
// every form of it the importer reads.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// The common form after bufferization: an f32 product in a local buffer, a
// per-column bias, GELU (tanh) and the cast into the f16 output D. D takes
// C's place, and C, its fill and its dealloc go.
// CHECK-LABEL: func.func @bias_gelu_tanh
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.
// CHECK: tgemm.matmul %arg0, %arg1, %arg3 layout(row, row) acc(f32) beta(0.000000e+00)
// CHECK-SAME: epilogue(bias(col) %arg2 : memref<?xf16>, gelu_tanh)
// CHECK-SAME: : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
// CHECK-NOT: linalg.
// CHECK-NOT: memref.dealloc
func.func @bias_gelu_tanh(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                          %bias: memref<?xf16>, %d: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<?x?xf32>, memref<?xf16>)
      outs(%d : memref<?x?xf16>) {
  ^bb0(%x: f32, %y: f16, %o: f16):
    %yf = arith.extf %y : f16 to f32
    %v = arith.addf %x, %yf : f32
    %half = arith.constant 0.5 : f32
    %k = arith.constant 0.797884583 : f32
    %k3 = arith.constant 0.044715 : f32
    %one = arith.constant 1.0 : f32
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %t0 = arith.mulf %v3, %k3 : f32
    %t1 = arith.addf %v, %t0 : f32
    %t2 = arith.mulf %t1, %k : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %v, %half : f32
    %r = arith.mulf %t5, %t4 : f32
    %rt = arith.truncf %r : f32 to f16
    linalg.yield %rt : f16
  }
  memref.dealloc %c : memref<?x?xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// GELU (tanh) as torch writes it: x^3 as powf, the products grouped the
// other way; in place on C.
// CHECK-LABEL: func.func @gelu_tanh_powf
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, col) acc(f32) beta(1.000000e+00)
// CHECK-SAME: epilogue(gelu_tanh)
// CHECK-NOT: linalg.generic
func.func @gelu_tanh_powf(%a: memref<?x?xbf16>, %bt: memref<?x?xbf16>,
                          %c: memref<?x?xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : memref<?x?xbf16>, memref<?x?xbf16>)
      outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %three = arith.constant 3.0 : f32
    %k3 = arith.constant 0.044715 : f32
    %k = arith.constant 0.7978845608028654 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %p = math.powf %x, %three : f32
    %q = arith.mulf %k3, %p : f32
    %s = arith.addf %q, %x : f32
    %t = arith.mulf %k, %s : f32
    %th = math.tanh %t : f32
    %u = arith.addf %one, %th : f32
    %h = arith.mulf %half, %u : f32
    %r = arith.mulf %x, %h : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A per-row bias read through the output's own block argument (the generic
// has C as its init only), then ReLU as maximumf.
// CHECK-LABEL: func.func @row_bias_relu
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 {{.*}} epilogue(bias(row) %arg3 : memref<?xf32>, relu)
func.func @row_bias_relu(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                         %c: memref<?x?xf32>, %bias: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#row, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%y: f32, %o: f32):
    %v = arith.addf %y, %o : f32
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// ReLU as a compare and select, and as maxnumf with the zero first.
// CHECK-LABEL: func.func @relu_select
// CHECK: epilogue(relu, relu)
func.func @relu_select(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                       %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %zero : f32
    %v = arith.select %p, %x, %zero : f32
    %r = arith.maxnumf %zero, %v : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// GELU (erf): x * 0.5 * (1 + erf(x * 1/sqrt 2)) and with x / sqrt 2.
// CHECK-LABEL: func.func @gelu_erf
// CHECK: epilogue(gelu_erf, gelu_erf)
func.func @gelu_erf(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                    %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %r2 = arith.constant 0.707106769 : f32
    %s2 = arith.constant 1.41421354 : f32
    %z = arith.mulf %x, %r2 : f32
    %e = math.erf %z : f32
    %u = arith.addf %e, %one : f32
    %h = arith.mulf %x, %half : f32
    %g = arith.mulf %h, %u : f32
    %z2 = arith.divf %g, %s2 : f32
    %e2 = math.erf %z2 : f32
    %u2 = arith.addf %one, %e2 : f32
    %h2 = arith.mulf %u2, %g : f32
    %g2 = arith.mulf %half, %h2 : f32
    linalg.yield %g2 : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// SiLU as x / (1 + exp(-x)), then as x * (1 / (1 + exp(0 - x))); a
// residual added in between.
// CHECK-LABEL: func.func @silu_residual
// CHECK: epilogue(silu, residual %arg3 : memref<?x?xf16>, silu)
func.func @silu_residual(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                         %c: memref<?x?xf32>, %r: memref<?x?xf16>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<?x?xf32>, memref<?x?xf16>)
      outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f16, %o: f32):
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %x, %d : f32
    %yf = arith.extf %y : f16 to f32
    %v = arith.addf %yf, %s : f32
    %n2 = arith.subf %zero, %v : f32
    %e2 = math.exp %n2 : f32
    %d2 = arith.addf %e2, %one : f32
    %sig = arith.divf %one, %d2 : f32
    %w = arith.mulf %sig, %v : f32
    linalg.yield %w : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// int8 dequantization: the i32 product converted (sitofp), scaled per
// column, biased, and rounded into bf16 D.
// CHECK-LABEL: func.func @dequantize
// CHECK-NOT: memref.alloc
// CHECK: tgemm.matmul %arg0, %arg1, %arg4 layout(row, row) acc(i32) beta(0.000000e+00)
// CHECK-SAME: epilogue(scale(col) %arg2 : memref<?xf32>, bias(col) %arg3 : memref<?xbf16>)
// CHECK-SAME: : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xbf16>
func.func @dequantize(%a: memref<?x?xi8>, %b: memref<?x?xi8>,
                      %scale: memref<?xf32>, %bias: memref<?xbf16>,
                      %d: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xi8>
  %n = memref.dim %b, %c1 : memref<?x?xi8>
  %c = memref.alloc(%m, %n) : memref<?x?xi32>
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<?x?xi32>)
  linalg.matmul ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>)
                outs(%c : memref<?x?xi32>)
  linalg.generic {indexing_maps = [#id, #col, #col, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %scale, %bias : memref<?x?xi32>, memref<?xf32>, memref<?xbf16>)
      outs(%d : memref<?x?xbf16>) {
  ^bb0(%x: i32, %s: f32, %y: bf16, %o: bf16):
    %xf = arith.sitofp %x : i32 to f32
    %v = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : bf16 to f32
    %w = arith.addf %v, %yf : f32
    %r = arith.truncf %w : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %c : memref<?x?xi32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#none = affine_map<(d0, d1) -> ()>
#first = affine_map<(d0, d1) -> (0)>

// Scalars: a 0-d operand (viewed as a vector of one), element 0 of a
// vector; a constant factor before the steps folds into alpha and beta.
// CHECK-LABEL: func.func @scalars
// CHECK: %[[S:.*]] = memref.expand_shape %arg3 [] output_shape [1] : memref<f32> into memref<1xf32>
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 layout(row, row) acc(f32) alpha(1.250000e-01) beta(1.250000e-01)
// CHECK-SAME: epilogue(scale(scalar) %[[S]] : memref<1xf32>, bias(scalar) %arg4 : memref<?xf32>)
func.func @scalars(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                   %c: memref<?x?xf32>, %s: memref<f32>, %t: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#none, #first, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%s, %t : memref<f32>, memref<?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %q = arith.constant 0.125 : f32
    %v0 = arith.mulf %o, %q : f32
    %v = arith.mulf %x, %v0 : f32
    %w = arith.addf %v, %y : f32
    linalg.yield %w : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// One step per generic, one generic after another (the alloc of D between
// them touches no memory): bias, GELU (erf), then a generic that only
// rounds into D.
// CHECK-LABEL: func.func @chained
// CHECK-NOT: linalg.
// CHECK: %[[D:.*]] = memref.alloc
// CHECK-NOT: linalg.
// CHECK: tgemm.matmul %arg0, %arg1, %[[D]] layout(row, row) acc(f32) beta(0.000000e+00)
// CHECK-SAME: epilogue(bias(col) %arg2 : memref<?xf32>, gelu_erf)
// CHECK-SAME: memref<?x?xbf16>
// CHECK-NOT: linalg.
// CHECK: return %[[D]]
func.func @chained(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                   %bias: memref<?xf32>) -> memref<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xbf16>
  %n = memref.dim %b, %c1 : memref<?x?xbf16>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>)
                outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<?x?xf32>, memref<?xf32>)
      outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.addf %x, %y : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %r2 = arith.constant 0.707106769 : f32
    %z = arith.mulf %r2, %x : f32
    %e = math.erf %z : f32
    %u = arith.addf %e, %one : f32
    %h = arith.mulf %half, %x : f32
    %g = arith.mulf %u, %h : f32
    linalg.yield %g : f32
  }
  %d = memref.alloc(%m, %n) : memref<?x?xbf16>
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%d : memref<?x?xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %r = arith.truncf %x : f32 to bf16
    linalg.yield %r : bf16
  }
  memref.dealloc %c : memref<?x?xf32>
  return %d : memref<?x?xbf16>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#col3 = affine_map<(d0, d1, d2) -> (d2)>

// A batch: the vector is shared by every matrix (indexed by the column
// alone), the residual has one matrix per GEMM.
// CHECK-LABEL: func.func @batched
// CHECK: tgemm.matmul %arg0, %arg1, %arg2 {{.*}} epilogue(bias(col) %arg3 : memref<?xf32>, residual %arg4 : memref<?x?x?xf32>)
// CHECK-SAME: memref<?x?x?xf16>, memref<?x?x?xf16>, memref<?x?x?xf32>
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>,
                   %c: memref<?x?x?xf32>, %bias: memref<?xf32>,
                   %r: memref<?x?x?xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>)
                      outs(%c : memref<?x?x?xf32>)
  linalg.generic {indexing_maps = [#id3, #col3, #id3, #id3],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias, %r : memref<?x?x?xf32>, memref<?xf32>, memref<?x?x?xf32>)
      outs(%c : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %v = arith.addf %x, %y : f32
    %w = arith.addf %v, %z : f32
    linalg.yield %w : f32
  }
  return
}
