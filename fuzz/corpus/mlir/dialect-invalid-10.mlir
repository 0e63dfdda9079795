func.func @strided(%a: memref<128x64xf16, strided<[128, 1]>>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<128x64xf16, strided<[128, 1]>>, memref<64x128xf16>, memref<128x128xf32>
  return
}
