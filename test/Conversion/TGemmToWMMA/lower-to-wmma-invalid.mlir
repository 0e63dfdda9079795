// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-tile --tgemm-lower-to-wmma
// RUN: not tgemm-opt %s --split-input-file --tgemm-attach-target=family=wmma --tgemm-override-config=padding=8 --tgemm-tile --tgemm-lower-to-wmma 2>&1 | FileCheck %s --check-prefix=PADDING

// What WMMA cannot compile is reported at the matmul.

func.func @fp8(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E4M3FN>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{WMMA has no instruction for 'f8E4M3FN' x 'f8E4M3FN' -> 'f32'; fp8 needs the ptx lowering (mma.sync, sm_89+)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 64], warps = [2, 2], stages = 2>)
      : memref<64x64xf8E4M3FN>, memref<64x64xf8E4M3FN>, memref<64x64xf32>
  return
}

// -----

// The 4-bit WMMA instruction reads A row-major and B column-major only.
func.func @s4_layout(%a: memref<128x64xi4>, %b: memref<64x128xi4>, %c: memref<64x64xi32>) {
  // expected-error @+1 {{the wmma s4 instruction takes only layout(row, col), got layout(col, col)}}
  tgemm.matmul %a, %b, %c layout(col, col) acc(i32)
      config(<block = [64, 64, 128], warps = [2, 2], stages = 2>)
      : memref<128x64xi4>, memref<64x128xi4>, memref<64x64xi32>
  return
}

// PADDING: error: 'tgemm.matmul' op with padding = 8: padding (8) must be a multiple of 16 bytes between 0 and 256
