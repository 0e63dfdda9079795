// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-tile

// Packed 4-bit rows must start on a byte, so K must be even.

func.func @s4_odd_k(%a: memref<128x63xi4>, %b: memref<128x63xi4>, %c: memref<128x128xi32>) {
  // expected-error @+1 {{K (63) must be even for 4-bit operands: each row of packed nibbles starts on a byte}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 128], warps = [2, 2], stages = 2>)
      : memref<128x63xi4>, memref<128x63xi4>, memref<128x128xi32>
  return
}

// -----

func.func @no_config(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{has no tile config: write config(<...>) or run --tgemm-select-config first (as --tgemm-pipeline does)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// The kernel is written from buffers: the tensor form is bufferized first.
func.func @tensor_form(%a: tensor<128x64xf16>, %b: tensor<128x64xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  // expected-error @+1 {{works on tensors; bufferize it first (--one-shot-bufferize="bufferize-function-boundaries", which --tgemm-pipeline runs unless bufferize=false)}}
  %r = tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32> -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
