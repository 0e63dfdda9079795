func.func @m_mismatch(%a: memref<128x64xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<128x64xf16>, memref<128x128xf16>, memref<128x128xf32>
  return
}
