// RUN: tgemm-opt %s --split-input-file --tgemm-from-linalg --verify-diagnostics | FileCheck %s

// What tgemm-from-linalg cannot fuse into a matmul's epilogue stays a
// linalg.generic of its own, after the imported tgemm.matmul, with a remark
// that says why.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// An exponential alone is no step.
// CHECK-LABEL: func.func @exp
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @exp(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: its body computes `math.exp`, which is no epilogue step (bias, scale, residual, relu, gelu_tanh, gelu_erf, silu)}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// A subtracted vector is no bias.
// CHECK-LABEL: func.func @subtract
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @subtract(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %v: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: its body computes `arith.subf`}}
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %v : memref<?x?xf32>, memref<?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.subf %x, %y : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// A bias is an operand, not a constant.
// CHECK-LABEL: func.func @constant_bias
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @constant_bias(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: it adds a constant; a bias is an operand}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %k = arith.constant 1.5 : f32
    %e = arith.addf %x, %k : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// A constant factor after a step would scale the step's operand too.
// CHECK-LABEL: func.func @late_constant
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @late_constant(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %v: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: it multiplies by a constant after other steps; a scale there is an operand}}
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %v : memref<?x?xf32>, memref<?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %k = arith.constant 1.5 : f32
    %e = arith.addf %x, %y : f32
    %f = arith.mulf %e, %k : f32
    linalg.yield %f : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// Rounding between steps is not the epilogue's single rounding.
// CHECK-LABEL: func.func @rounded_between
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @rounded_between(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: it converts between float types between steps (`arith.extf`); the epilogue computes in f32 and rounds once, to C's type}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.truncf %x : f32 to f16
    %e = arith.extf %t : f16 to f32
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %e, %z : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// A matrix read transposed is neither a vector nor a residual.
// CHECK-LABEL: func.func @transposed_operand
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @transposed_operand(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %r: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: input #1 is indexed as no epilogue operand is (a per-row, per-column or scalar vector, or a residual like C)}}
  linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.addf %x, %y : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// A residual is added, not multiplied.
// CHECK-LABEL: func.func @times_matrix
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @times_matrix(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %r: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: it multiplies by a matrix (input #1); the epilogue multiplies by vectors and adds matrices}}
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.mulf %x, %y : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// A body that reads its output's old values (D += f(C)) is not C's epilogue.
// CHECK-LABEL: func.func @old_output
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @old_output(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %d: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: it reads its output's old values}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = arith.addf %x, %o : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// Writing D instead of a C the caller sees would leave C unwritten.
// CHECK-LABEL: func.func @argument_c
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @argument_c(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %d: memref<?x?xf16>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: C's old values are part of the product (beta is not 0): writing another buffer would drop them}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%d : memref<?x?xf16>) {
  ^bb0(%x: f32, %o: f16):
    %e = arith.truncf %x : f32 to f16
    linalg.yield %e : f16
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// Zero-filled, but the caller's C.
// CHECK-LABEL: func.func @argument_c_zeroed
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @argument_c_zeroed(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %d: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: C is not a buffer local to this function: writing the result elsewhere would leave C unwritten}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%d : memref<?x?xf16>) {
  ^bb0(%x: f32, %o: f16):
    %e = arith.truncf %x : f32 to f16
    linalg.yield %e : f16
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// A local C that is read again later must be written.
// CHECK-LABEL: func.func @read_later
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @read_later(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf16>, %e: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %c = memref.alloc(%m, %m) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: C is also used by `memref.copy`: writing the result elsewhere would leave C unwritten}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%d : memref<?x?xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  memref.copy %c, %e : memref<?x?xf32> to memref<?x?xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// A row sum of C is not element-wise.
// CHECK-LABEL: func.func @reduction
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @reduction(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %s: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: it is not element-wise over C (its loops are not C's, all parallel)}}
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%c : memref<?x?xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = arith.addf %x, %o : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// The fused op verifies its operands: a residual must be packed.
// CHECK-LABEL: func.func @strided_residual
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @strided_residual(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %r: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: the fused tgemm.matmul would not verify:}}
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<?x?xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.addf %x, %y : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// An op between them that touches memory keeps the generic apart (the
// copy might write what it reads).
// CHECK-LABEL: func.func @not_next
// CHECK: tgemm.matmul
// CHECK-NEXT: memref.copy
// CHECK-NEXT: linalg.generic
func.func @not_next(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                    %v: memref<?xf32>, %w: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  memref.copy %w, %v : memref<?xf32> to memref<?xf32>
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: `memref.copy` between them touches memory}}
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %v : memref<?x?xf32>, memref<?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.addf %x, %y : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// One generic fuses, the next does not: the first one's step stays.
// CHECK-LABEL: func.func @partly
// CHECK: tgemm.matmul {{.*}} epilogue(bias(col) %arg3 : memref<?xf32>)
// CHECK-NEXT: linalg.generic
func.func @partly(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                  %v: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %v : memref<?x?xf32>, memref<?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.addf %x, %y : f32
    linalg.yield %e : f32
  }
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: its body computes `math.tanh`}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.tanh %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// The rest of the messages: a body whose result is an input alone, or a
// value from outside it; two outputs; an output or C read transposed; a
// generic that writes A; a constant factor after a fused generic's step.
// CHECK-LABEL: func.func @not_the_product
// CHECK: tgemm.matmul
// CHECK-NOT: epilogue
// CHECK-NEXT: linalg.generic
func.func @not_the_product(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                           %v: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{not fused into the epilogue of the tgemm.matmul before it, left as it is: its result does not depend on the product}}
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %v : memref<?x?xf32>, memref<?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    linalg.yield %y : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @captured
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @captured(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                    %s: f32) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{left as it is: it reads a value other than the product and its inputs}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = arith.addf %x, %s : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @two_outputs
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @two_outputs(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                       %d: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{left as it is: it writes more than one output}}
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c, %d : memref<?x?xf32>, memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    linalg.yield %x, %x : f32, f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @transposed_write
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @transposed_write(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                            %c: memref<?x?xf32>, %d: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{left as it is: it does not write its output element by element like C}}
  linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @transposed_read
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @transposed_read(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                           %c: memref<?x?xf32>, %d: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{left as it is: it reads C other than element by element}}
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @writes_a
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @writes_a(%a: memref<?x?xf16>, %b: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %c = memref.alloc(%m, %m) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{left as it is: it writes (a view of) A or B}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%a : memref<?x?xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @late_factor
// CHECK: tgemm.matmul {{.*}} epilogue(bias(col)
// CHECK-NEXT: linalg.generic
func.func @late_factor(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                       %v: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %v : memref<?x?xf32>, memref<?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.addf %x, %y : f32
    linalg.yield %e : f32
  }
  // expected-remark @+1 {{left as it is: it multiplies by a constant after the steps already fused; a scale there is an operand}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %k = arith.constant 2.0 : f32
    %e = arith.mulf %x, %k : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Aliasing: a residual that is a view of C would read C's old values, not
// the product.
// CHECK-LABEL: func.func @residual_view_of_c
// CHECK: tgemm.matmul
// CHECK-NOT: epilogue
// CHECK: linalg.generic
func.func @residual_view_of_c(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                              %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<64x64xf32>)
  %cc = memref.cast %c : memref<64x64xf32> to memref<?x?xf32>
  // expected-remark @+1 {{left as it is: input #1 is a view of C: the fused kernel would read it while it writes}}
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %cc : memref<64x64xf32>, memref<?x?xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.addf %x, %y : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Writing a view of A while the GEMM still reads A.
// CHECK-LABEL: func.func @writes_view_of_a
// CHECK: tgemm.matmul
// CHECK: linalg.generic
func.func @writes_view_of_a(%a: memref<64x64xf16>, %b: memref<64x64xf16>) {
  %c = memref.alloc() : memref<64x64xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>)
                outs(%c : memref<64x64xf32>)
  %y = memref.cast %a : memref<64x64xf16> to memref<?x?xf16>
  // expected-remark @+1 {{left as it is: it writes (a view of) A or B}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%y : memref<?x?xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A body with a side effect is not an epilogue (the store would be lost).
// CHECK-LABEL: func.func @side_effect
// CHECK: tgemm.matmul
// CHECK-NEXT: linalg.generic
func.func @side_effect(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                       %log: memref<f32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{left as it is: its body has side effects (`memref.store`)}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    memref.store %x, %log[] : memref<f32>
    %zero = arith.constant 0.0 : f32
    %r = arith.maxnumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A 0-d scalar with a layout (a subview) is no packed vector.
// CHECK-LABEL: func.func @scalar_with_layout
// CHECK: tgemm.matmul
// CHECK-NOT: expand_shape
// CHECK: linalg.generic
func.func @scalar_with_layout(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                              %buf: memref<?xf32>, %i: index) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  %s = memref.subview %buf[%i] [1] [1] : memref<?xf32> to memref<f32, strided<[], offset: ?>>
  // expected-remark @+1 {{left as it is: input #1 is a scalar with a layout; the epilogue reads packed vectors}}
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> ()>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %s : memref<?x?xf32>, memref<f32, strided<[], offset: ?>>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.mulf %x, %y : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A rounding mode other than the epilogue's.
// CHECK-LABEL: func.func @rounding_mode
// CHECK: linalg.generic
func.func @rounding_mode(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %d: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %c = memref.alloc(%m, %m) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{left as it is: its final arith.truncf has a rounding mode; the epilogue rounds to nearest}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%d : memref<?x?xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x downward : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Constants are compared at the body's precision: 0.7 is not 1/sqrt 2 in
// f32, so this is no GELU (though C is bf16).
// CHECK-LABEL: func.func @not_quite_gelu
// CHECK: linalg.generic
func.func @not_quite_gelu(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  linalg.matmul ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>)
                outs(%c : memref<?x?xbf16>)
  // expected-remark @+1 {{left as it is: its body computes `arith.mulf`, which is no epilogue step}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %xf = arith.extf %x : bf16 to f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.7 : f32
    %z = arith.mulf %xf, %k : f32
    %e = math.erf %z : f32
    %u = arith.addf %e, %one : f32
    %h = arith.mulf %xf, %half : f32
    %g = arith.mulf %h, %u : f32
    %t = arith.truncf %g : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// An unordered compare keeps NaN, where relu maps it to 0.
// CHECK-LABEL: func.func @relu_unordered
// CHECK: linalg.generic
func.func @relu_unordered(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf32>)
  // expected-remark @+1 {{left as it is: its body computes `arith.select`, which is no epilogue step}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ugt, %x, %zero : f32
    %v = arith.select %p, %x, %zero : f32
    linalg.yield %v : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A residual that is a view of the output D (not D itself).
// CHECK-LABEL: func.func @residual_view_of_output
// CHECK: linalg.generic
func.func @residual_view_of_output(%a: memref<64x64xf16>, %b: memref<64x64xf16>,
                                   %d: memref<64x64xf32>) {
  %c = memref.alloc() : memref<64x64xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>)
                outs(%c : memref<64x64xf32>)
  %dd = memref.cast %d : memref<64x64xf32> to memref<?x?xf32>
  // expected-remark @+1 {{left as it is: input #1 is a view of its output: the fused kernel would read it while it writes}}
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %dd : memref<64x64xf32>, memref<?x?xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.addf %x, %y : f32
    linalg.yield %e : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Writing, in a second generic, the residual the first one's step reads.
// CHECK-LABEL: func.func @writes_fused_operand
// CHECK: tgemm.matmul {{.*}} epilogue(residual
// CHECK-NEXT: linalg.generic
func.func @writes_fused_operand(%a: memref<64x64xf16>, %b: memref<64x64xf16>,
                                %r: memref<64x64xf32>) {
  %c = memref.alloc() : memref<64x64xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>)
                outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %r : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %e = arith.addf %x, %y : f32
    linalg.yield %e : f32
  }
  // expected-remark @+1 {{left as it is: it writes (a view of) an operand of the steps fused before}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%r : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}
