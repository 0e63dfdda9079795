// RUN: tgemm-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --one-shot-bufferize | FileCheck %s --check-prefix=LOCAL
// RUN: tgemm-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=IDENTITY

// tgemm.matmul on tensors bufferizes with one-shot-bufferize's defaults:
// the op becomes its memref form on the operands' buffers, C written in
// place.

// beta 0: the init is not read, so an empty tensor is a new buffer with no
// copy; arguments are fully dynamic views, which the memref form takes.
// CHECK-LABEL: func.func @into_empty(
// CHECK-SAME: %[[A:[^:]*]]: memref<256x128xf16, strided<[?, ?], offset: ?>>
// CHECK-SAME: %[[B:[^:]*]]: memref<512x128xf16, strided<[?, ?], offset: ?>>
// CHECK: %[[C:.*]] = memref.alloc() {{.*}} : memref<256x512xf32>
// CHECK-NOT: memref.copy
// CHECK: tgemm.matmul %[[A]], %[[B]], %[[C]] layout(row, col) acc(f32) beta(0.000000e+00)
// CHECK-SAME: : memref<256x128xf16, strided<[?, ?], offset: ?>>, memref<512x128xf16, strided<[?, ?], offset: ?>>, memref<256x512xf32>
// CHECK: return %[[C]]
// Without function boundaries, the arguments stay tensors and the op
// reads their buffers.
// LOCAL-LABEL: func.func @into_empty(
// LOCAL-SAME: tensor<256x128xf16>
// LOCAL: bufferization.to_buffer
// LOCAL: %[[C:.*]] = memref.alloc() {{.*}} : memref<256x512xf32>
// LOCAL: tgemm.matmul %{{.*}}, %{{.*}}, %[[C]]
// LOCAL: bufferization.to_tensor %[[C]]
func.func @into_empty(%a: tensor<256x128xf16>, %b: tensor<512x128xf16>) -> tensor<256x512xf32> {
  %empty = tensor.empty() : tensor<256x512xf32>
  %r = tgemm.matmul %a, %b, %empty layout(row, col) acc(f32) beta(0.0)
      : tensor<256x128xf16>, tensor<512x128xf16>, tensor<256x512xf32> -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}

// -----

// beta 1 on an argument: C's buffer is the argument's, updated in place.
// CHECK-LABEL: func.func @in_place(
// CHECK-SAME: %[[C:[^:]*]]: memref<?x?xi32, strided<[?, ?], offset: ?>>
// CHECK-NOT: memref.alloc
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %[[C]] layout(row, row) acc(i32) beta(1.000000e+00)
// CHECK: return %[[C]]
func.func @in_place(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>, %c: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %r = tgemm.matmul %a, %b, %c layout(row, row) acc(i32) beta(1.0)
      : tensor<?x?xi8>, tensor<?x?xi8>, tensor<?x?xi32> -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

// -----

// C is read after the product (beta 1): the product gets a copy of it, so
// the later read sees the old values.
// CHECK-LABEL: func.func @init_read_later(
// CHECK-SAME: %[[C:[^:]*]]: memref<64x64xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[COPY:.*]] = memref.alloc()
// CHECK: memref.copy %[[C]], %[[COPY]]
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %[[COPY]]
// CHECK: return %[[COPY]], %[[C]]
func.func @init_read_later(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>)
    -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %r = tgemm.matmul %a, %b, %c layout(row, col) acc(f32) beta(1.0)
      : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %r, %c : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Batches and epilogue operands: every operand gets its buffer; the
// attributes (epilogue, config) carry over. The epilogue reads its
// operands packed: views of them are copied into packed buffers.
// CHECK-LABEL: func.func @batched_epilogue(
// CHECK-SAME: %[[BIAS:[^:]*]]: memref<256xf32, strided<[?], offset: ?>>
// CHECK-SAME: %[[RES:[^:]*]]: memref<4x128x256xbf16, strided<[?, ?, ?], offset: ?>>
// CHECK: %[[PBIAS:.*]] = memref.alloc() {{.*}} : memref<256xf32>
// CHECK: memref.copy %[[BIAS]], %[[PBIAS]]
// CHECK: %[[PRES:.*]] = memref.alloc() {{.*}} : memref<4x128x256xbf16>
// CHECK: memref.copy %[[RES]], %[[PRES]]
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %{{.*}} layout(row, col) acc(i32)
// CHECK-SAME: epilogue(bias(col) %[[PBIAS]] : memref<256xf32>, residual %[[PRES]] : memref<4x128x256xbf16>)
// CHECK-SAME: config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
// CHECK-SAME: : memref<4x128x64xi8, strided<[?, ?, ?], offset: ?>>, memref<4x256x64xi8, strided<[?, ?, ?], offset: ?>>, memref<4x128x256xbf16>
func.func @batched_epilogue(%qa: tensor<4x128x64xi8>, %qb: tensor<4x256x64xi8>,
                            %bias: tensor<256xf32>, %res: tensor<4x128x256xbf16>)
    -> tensor<4x128x256xbf16> {
  %empty = tensor.empty() : tensor<4x128x256xbf16>
  %q = tgemm.matmul %qa, %qb, %empty layout(row, col) acc(i32)
      epilogue(bias(col) %bias : tensor<256xf32>, residual %res : tensor<4x128x256xbf16>)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : tensor<4x128x64xi8>, tensor<4x256x64xi8>, tensor<4x128x256xbf16> -> tensor<4x128x256xbf16>
  return %q : tensor<4x128x256xbf16>
}

// -----

// Packed epilogue operands (identity layouts at the function boundary)
// are read as they are; views of dynamic size are copied into packed
// buffers of their size.
// IDENTITY-LABEL: func.func @packed_epilogue(
// IDENTITY-SAME: %[[BIAS:[^:]*]]: memref<?xf32>
// IDENTITY-NOT: memref.copy
// IDENTITY: tgemm.matmul
// IDENTITY-SAME: epilogue(bias(col) %[[BIAS]] : memref<?xf32>)
// CHECK-LABEL: func.func @packed_epilogue(
// CHECK-SAME: %[[BIAS:[^:]*]]: memref<?xf32, strided<[?], offset: ?>>
// CHECK: %[[N:.*]] = memref.dim %[[BIAS]]
// CHECK: %[[PBIAS:.*]] = memref.alloc(%[[N]]) {{.*}} : memref<?xf32>
// CHECK: memref.copy %[[BIAS]], %[[PBIAS]]
// CHECK: tgemm.matmul
// CHECK-SAME: epilogue(bias(col) %[[PBIAS]] : memref<?xf32>)
func.func @packed_epilogue(%a: tensor<?x?xf16>, %b: tensor<?x?xf16>, %c: tensor<?x?xf16>,
                           %bias: tensor<?xf32>) -> tensor<?x?xf16> {
  %r = tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(bias(col) %bias : tensor<?xf32>)
      : tensor<?x?xf16>, tensor<?x?xf16>, tensor<?x?xf16> -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}
