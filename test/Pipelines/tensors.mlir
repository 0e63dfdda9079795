// RUN: tgemm-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --tgemm-pipeline="lowering=ptx chip=sm_90" | FileCheck %s

// Tensor code: upstream bufferization first (identity layouts at function
// boundaries keep rows unit-stride), then the pipeline imports the
// memref-level linalg.matmul.

// CHECK: func.func @gemm(%{{.*}}: memref<256x128xf16>, %{{.*}}: memref<128x512xf16>) -> memref<256x512xf32>
// CHECK: gpu.launch_func @gemm_module::@gemm_kernel
// CHECK-SAME: beta = 0.000000e+00
// CHECK: gpu.binary @gemm_module
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @gemm(%a: tensor<256x128xf16>, %b: tensor<128x512xf16>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x512xf32>) -> tensor<256x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x512xf16>)
                     outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
