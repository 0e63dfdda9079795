func.func @f16_f16_col_col(%a: memref<64x256xf16>, %b: memref<128x64xf16>, %c: memref<256x128xf16>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(f16)
      config(<block = [64, 64, 16], warps = [2, 2], stages = 2>)
      : memref<64x256xf16>, memref<128x64xf16>, memref<256x128xf16>
  return
}
