func.func @f16_f32(%a: memref<256x64xf16>, %b: memref<128x64xf16>, %c: memref<256x128xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<256x64xf16>, memref<128x64xf16>, memref<256x128xf32>
  return
}
