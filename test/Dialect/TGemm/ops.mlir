// RUN: tgemm-opt %s --split-input-file | tgemm-opt --split-input-file | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --mlir-print-op-generic | tgemm-opt --split-input-file | FileCheck %s

// Round trip of tgemm.matmul for every precision in the instruction-facts
// table, in the custom form and through the generic form.

// f16 x f16 -> f32, A row-major, B column-major, static sizes.
// CHECK-LABEL: func @f16_f32
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %{{.*}} layout(row, col) acc(f32)
// CHECK-SAME: config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
// CHECK-SAME: : memref<256x64xf16>, memref<128x64xf16>, memref<256x128xf32>
func.func @f16_f32(%a: memref<256x64xf16>, %b: memref<128x64xf16>, %c: memref<256x128xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<256x64xf16>, memref<128x64xf16>, memref<256x128xf32>
  return
}

// -----

// f16 accumulation, both operands column-major (A stored K x M, B N x K).
// CHECK-LABEL: func @f16_f16_col_col
// CHECK: layout(col, col) acc(f16)
// CHECK-SAME: : memref<64x256xf16>, memref<128x64xf16>, memref<256x128xf16>
func.func @f16_f16_col_col(%a: memref<64x256xf16>, %b: memref<128x64xf16>, %c: memref<256x128xf16>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(f16)
      config(<block = [64, 64, 16], warps = [2, 2], stages = 2>)
      : memref<64x256xf16>, memref<128x64xf16>, memref<256x128xf16>
  return
}

// -----

// f16 accumulation written out as f32.
// CHECK-LABEL: func @f16_acc_f32_out
// CHECK: acc(f16) {{.*}} memref<?x?xf32>
func.func @f16_acc_f32_out(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f16)
      config(<block = [64, 64, 16], warps = [2, 2], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// bf16 -> f32 accumulation -> bf16 output, dynamic sizes, epilogue.
// CHECK-LABEL: func @bf16_epilogue
// CHECK: layout(row, row) acc(f32) alpha(5.000000e-01) beta(2.500000e-01)
// CHECK-SAME: : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
func.func @bf16_epilogue(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32) alpha(0.5) beta(0.25)
      config(<block = [128, 256, 32], warps = [2, 4], stages = 4>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// f32 operands are computed as TF32; the common tile K is 8.
// CHECK-LABEL: func @tf32
// CHECK: acc(f32) {{.*}}block = [128, 64, 8]
func.func @tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 64, 8], warps = [4, 2], stages = 5>)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}

// -----

// Signed and unsigned 8-bit, exact i32 accumulation, integer alpha/beta.
// CHECK-LABEL: func @int8
// CHECK: acc(i32) alpha(2.000000e+00) beta(-1.000000e+00) {{.*}} : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
// CHECK: acc(i32) {{.*}} : memref<?x?xui8>, memref<?x?xui8>, memref<?x?xi32>
// CHECK: acc(i32) unsigned alpha(3.000000e+00){{.*}}: memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
func.func @int8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>,
                %ua: memref<?x?xui8>, %ub: memref<?x?xui8>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32) alpha(2.0) beta(-1.0)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  tgemm.matmul %ua, %ub, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xui8>, memref<?x?xui8>, memref<?x?xi32>
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32) unsigned alpha(3.0)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// 4-bit: the common tile of wmma m8n8k32 and mma.sync m16n8k64 is 16x8x64.
// CHECK-LABEL: func @int4
// CHECK: acc(i32) config(<block = [32, 16, 64], warps = [2, 2], stages = 2>)
func.func @int4(%a: memref<?x?xi4>, %b: memref<?x?xi4>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [32, 16, 64], warps = [2, 2], stages = 2>)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}

// -----

// fp8 (mma.sync only): N may be a multiple of 8, the mma.sync N.
// CHECK-LABEL: func @fp8
// CHECK: : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
// CHECK: : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>, memref<?x?xf16>
func.func @fp8(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>,
               %a2: memref<?x?xf8E5M2>, %b2: memref<?x?xf8E5M2>, %c2: memref<?x?xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 16, 32], warps = [1, 2], stages = 3>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  tgemm.matmul %a2, %b2, %c2 layout(row, col) acc(f32)
      config(<block = [64, 64, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>, memref<?x?xf16>
  return
}

// -----

// Fully dynamic views (one-shot-bufferize's function arguments): the
// innermost stride is checked by the host before the launch.
// CHECK-LABEL: func.func @fully_dynamic_views
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %{{.*}} layout(row, row) acc(f32)
// CHECK-SAME: : memref<?x?xf16, strided<[?, ?], offset: ?>>, memref<?x?xf16, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>
func.func @fully_dynamic_views(%a: memref<?x?xf16, strided<[?, ?], offset: ?>>,
                               %b: memref<?x?xf16, strided<[?, ?], offset: ?>>,
                               %c: memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<?x?xf16, strided<[?, ?], offset: ?>>, memref<?x?xf16, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>
  return
}

// -----

// On tensors: destination style, C is the init and the result has its type
// (batches and epilogue operands too).
// CHECK-LABEL: func.func @tensors
// CHECK: %[[R:.*]] = tgemm.matmul %{{.*}}, %{{.*}}, %{{.*}} layout(row, row) acc(f32) beta(0.000000e+00)
// CHECK-SAME: : tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %[[R2:[^ ]*]] layout(row, col) acc(i32)
// CHECK-SAME: epilogue(bias(col) %{{.*}} : tensor<256xf32>, residual %{{.*}} : tensor<4x128x256xbf16>)
// CHECK-SAME: : tensor<4x128x64xi8>, tensor<4x256x64xi8>, tensor<4x128x256xbf16> -> tensor<4x128x256xbf16>
func.func @tensors(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>, %c: tensor<?x?xf32>,
                   %qa: tensor<4x128x64xi8>, %qb: tensor<4x256x64xi8>,
                   %qc: tensor<4x128x256xbf16>, %bias: tensor<256xf32>,
                   %res: tensor<4x128x256xbf16>)
    -> (tensor<?x?xf32>, tensor<4x128x256xbf16>) {
  %r = tgemm.matmul %a, %b, %c layout(row, row) acc(f32) beta(0.0)
      : tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf32> -> tensor<?x?xf32>
  %q = tgemm.matmul %qa, %qb, %qc layout(row, col) acc(i32)
      epilogue(bias(col) %bias : tensor<256xf32>, residual %res : tensor<4x128x256xbf16>)
      : tensor<4x128x64xi8>, tensor<4x256x64xi8>, tensor<4x128x256xbf16> -> tensor<4x128x256xbf16>
  return %r, %q : tensor<?x?xf32>, tensor<4x128x256xbf16>
}
