// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-tile

// Static sizes that are not whole tiles are rejected before any kernel is
// written (partial tiles are not supported).

func.func @m_partial(%a: memref<1000x64xf16>, %b: memref<64x128xf16>, %c: memref<1000x128xf32>) {
  // expected-error @+1 {{M (1000) must be a multiple of block tile M (128): partial tiles are not supported}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 2>)
      : memref<1000x64xf16>, memref<64x128xf16>, memref<1000x128xf32>
  return
}

// -----

func.func @k_partial(%a: memref<128x48xf16>, %b: memref<48x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{K (48) must be a multiple of block tile K (32): partial tiles are not supported}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 2>)
      : memref<128x48xf16>, memref<48x128xf16>, memref<128x128xf32>
  return
}
