// RUN: tgemm-opt %s | FileCheck %s
// RUN: tgemm-opt %s | tgemm-opt | FileCheck %s
// RUN: tgemm-opt %s --mlir-print-op-generic | tgemm-opt | FileCheck %s

// Every epilogue step prints as it parses, with its operand and type where
// it reads one, on tgemm.matmul and the kernel-level stores.

// CHECK-LABEL: func.func @every_step
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %{{.*}} layout(row, col) acc(f32) alpha(2.000000e+00)
// CHECK-SAME: epilogue(scale(col) %{{.*}} : memref<256xf32>, bias(row) %{{.*}} : memref<128xbf16>,
// CHECK-SAME: bias(scalar) %{{.*}} : memref<1xf32>, residual %{{.*}} : memref<128x256xf16>,
// CHECK-SAME: relu, gelu_tanh, gelu_erf, silu)
// CHECK-SAME: : memref<128x64xf16>, memref<256x64xf16>, memref<128x256xf16>
func.func @every_step(%a: memref<128x64xf16>, %b: memref<256x64xf16>,
                      %c: memref<128x256xf16>, %s: memref<256xf32>,
                      %rb: memref<128xbf16>, %one: memref<1xf32>,
                      %r: memref<128x256xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) alpha(2.0)
      epilogue(scale(col) %s : memref<256xf32>, bias(row) %rb : memref<128xbf16>,
               bias(scalar) %one : memref<1xf32>, residual %r : memref<128x256xf16>,
               relu, gelu_tanh, gelu_erf, silu)
      : memref<128x64xf16>, memref<256x64xf16>, memref<128x256xf16>
  return
}

// An i32 accumulator dequantized into a bf16 C.
// CHECK-LABEL: func.func @dequantize
// CHECK: acc(i32) alpha(5.000000e-01) epilogue(scale(col) %{{.*}} : memref<?xf32>, bias(col) %{{.*}} : memref<?xbf16>)
func.func @dequantize(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xbf16>,
                      %s: memref<?xf32>, %bias: memref<?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32) alpha(0.5)
      epilogue(scale(col) %s : memref<?xf32>, bias(col) %bias : memref<?xbf16>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xbf16>
  return
}

// A batch: the vectors are shared, the residual has C's rank.
// CHECK-LABEL: func.func @batched
// CHECK: epilogue(bias(col) %{{.*}} : memref<?xf32>, residual %{{.*}} : memref<?x?x?xf32>)
func.func @batched(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>,
                   %bias: memref<?xf32>, %r: memref<?x?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      epilogue(bias(col) %bias : memref<?xf32>, residual %r : memref<?x?x?xf32>)
      : memref<?x?x?xf16>, memref<?x?x?xf16>, memref<?x?x?xf32>
  return
}

// CHECK-LABEL: func.func @store
// CHECK: tgemm.store_tile %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] epilogue(bias(col) %{{.*}} : memref<?xf32>, silu) in_bounds
// CHECK: tgemm.reduce_splits {{.*}} tile [64, 64] epilogue(residual %{{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>)
func.func @store(%acc: !tgemm.acc<32x32xf32>, %c: memref<?x?xf32>, %i: index,
                 %bias: memref<?xf32>, %parts: memref<2x?x?xf32>,
                 %sem: memref<?xi32>, %r: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  tgemm.store_tile %acc, %c[%i, %i] epilogue(bias(col) %bias : memref<?xf32>, silu)
      in_bounds : !tgemm.acc<32x32xf32>, memref<?x?xf32>
  tgemm.reduce_splits %parts, %sem[%i], %c[%i, %i] tile [64, 64]
      epilogue(residual %r : memref<?x?xf32, strided<[?, 1], offset: ?>>)
      : memref<2x?x?xf32>, memref<?xi32>, memref<?x?xf32>
  return
}

// CHECK-LABEL: func.func @attrs
// CHECK: steps = [#tgemm.epilogue_step<bias(col)>, #tgemm.epilogue_step<scale(scalar)>, #tgemm.epilogue_step<gelu_erf>]
func.func @attrs() attributes {steps = [#tgemm.epilogue_step<bias(col)>,
                                         #tgemm.epilogue_step<scale(scalar)>,
                                         #tgemm.epilogue_step<gelu_erf>]} {
  return
}
