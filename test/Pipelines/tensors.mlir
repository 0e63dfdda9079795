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

// The pipeline bufferizes tensor functions itself, with one-shot-bufferize's
// defaults: arguments become fully dynamic views (strided<[?, ?], offset:
// ?>). The kernel takes any row stride and offset; the innermost stride is
// checked by the host before the launch, and the manifest marks A and B
// strided.
// RUN: tgemm-opt %s --split-input-file --tgemm-pipeline="lowering=ptx chip=sm_90" | FileCheck %s --check-prefix=DEFAULT
// RUN: not tgemm-opt %s --split-input-file --tgemm-pipeline="lowering=ptx chip=sm_90 bufferize=false" 2>&1 | FileCheck %s --check-prefix=OFF

// DEFAULT-LABEL: func.func @gemm(
// DEFAULT-SAME: memref<256x128xf16, strided<[?, ?], offset: ?>>
// DEFAULT: cf.assert %{{.*}}, "tgemm.matmul: A must have unit stride within a row (its innermost stride); the kernel reads rows as contiguous elements"
// DEFAULT: memref.cast %{{.*}} : memref<256x128xf16, strided<[?, ?], offset: ?>> to memref<256x128xf16, strided<[?, 1], offset: ?>>
// DEFAULT: cf.assert %{{.*}}, "tgemm.matmul: B must have unit stride
// DEFAULT-NOT: cf.assert
// DEFAULT: gpu.launch_func @gemm_module::@gemm_kernel
// DEFAULT-SAME: {kind = "memref", name = "a", rank = 2 : i64, strided = true, type = "f16"}
// DEFAULT-SAME: {kind = "memref", name = "b", rank = 2 : i64, strided = true, type = "f16"}
// DEFAULT-SAME: {kind = "memref", name = "c", rank = 2 : i64, strided = false, type = "f32"}
// DEFAULT-SAME: beta = 0.000000e+00
// Without the bufferization the import gives tgemm.matmul's tensor form,
// which the kernel cannot be written from.
// OFF: error: 'tgemm.matmul' op works on tensors; bufferize it first (--one-shot-bufferize="bufferize-function-boundaries", which --tgemm-pipeline runs unless bufferize=false)

// -----

// Destination passing: C is an argument, written in place, read (beta 1).
// DEFAULT-LABEL: func.func @gemm_into(
// DEFAULT-SAME: %[[A:[^:]*]]: memref<?x?xi8, strided<[?, ?], offset: ?>>
// DEFAULT-SAME: %[[C:[^:]*]]: memref<?x?xi32, strided<[?, ?], offset: ?>>
// DEFAULT-SAME: -> memref<?x?xi32, strided<[?, ?], offset: ?>>
// DEFAULT-COUNT-3: cf.assert
// DEFAULT: gpu.launch_func @gemm_into_module::@gemm_into_kernel
// DEFAULT-SAME: b = {layout = "row", type = "s8"}
// DEFAULT-SAME: beta = 1.000000e+00
// DEFAULT: return %[[C]]
func.func @gemm_into(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>, %c: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>)
                     outs(%c : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

// -----

// tgemm.matmul written on tensors: the pipeline's bufferization gives its
// memref form (the op's bufferization interface), an empty init a new
// buffer, the epilogue's bias a packed copy of the argument's view.
// DEFAULT-LABEL: func.func @tgemm_on_tensors(
// DEFAULT-SAME: %[[BIAS:[^:]*]]: memref<?xf32, strided<[?], offset: ?>>
// DEFAULT: memref.copy %[[BIAS]]
// DEFAULT: gpu.launch_func @tgemm_on_tensors_module::@tgemm_on_tensors_kernel
// DEFAULT-SAME: b = {layout = "col", type = "bf16"}
// DEFAULT-SAME: beta = 0.000000e+00
// DEFAULT-SAME: epilogue = [{arg = "epilogue0", broadcast = "col", op = "bias"}]
func.func @tgemm_on_tensors(%a: tensor<?x?xbf16>, %b: tensor<?x?xbf16>, %bias: tensor<?xf32>,
                            %m: index, %n: index) -> tensor<?x?xbf16> {
  %empty = tensor.empty(%m, %n) : tensor<?x?xbf16>
  %r = tgemm.matmul %a, %b, %empty layout(row, col) acc(f32)
      epilogue(bias(col) %bias : tensor<?xf32>)
      : tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %r : tensor<?x?xbf16>
}
