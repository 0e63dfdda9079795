// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-tile --tgemm-lower-to-ptx
// RUN: not tgemm-opt %s --tgemm-override-config=swizzle=zigzag --tgemm-tile --tgemm-lower-to-ptx 2>&1 | FileCheck %s --check-prefix=SWIZZLE
// RUN: not tgemm-opt %s --tgemm-override-config=padding=4 --tgemm-tile --tgemm-lower-to-ptx 2>&1 | FileCheck %s --check-prefix=PADDING

// What the ptx lowering cannot compile is reported at the matmul.

// SWIZZLE: error: option 'swizzle': unknown swizzle 'zigzag'; expected xor, pad or none
// PADDING: error: 'tgemm.matmul' op with padding = 4: padding (4) must be a multiple of 16 bytes between 0 and 256

// ldmatrix and prmt move whole bytes: 4-bit operands must be stored A
// row-major and B column-major.
func.func @int4_transposed(%a: memref<64x128xi4>, %b: memref<128x64xi4>, %c: memref<64x64xi32>) {
  // expected-error @+1 {{the ptx lowering needs layout(row, col) for 'i4' operands: ldmatrix and prmt regroup whole bytes, not 4-bit elements, got layout(row, row)}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [32, 32, 64], warps = [1, 1], stages = 2>)
      : memref<64x128xi4>, memref<128x64xi4>, memref<64x64xi32>
  return
}

// -----

// 48-deep f16 tiles have 96-byte rows: the XOR swizzle cannot permute them.
func.func @xor_rows(%a: memref<64x96xf16>, %b: memref<64x96xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{swizzle=xor cannot lay out tile rows of 96 bytes (it needs 16, 32, 64 or a multiple of 128); use swizzle=pad or another block tile}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 32, 48], warps = [1, 1], stages = 2>)
      : memref<64x96xf16>, memref<64x96xf16>, memref<64x64xf32>
  return
}
