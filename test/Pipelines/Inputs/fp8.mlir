func.func @fp8(%a: memref<128x128xf8E5M2>, %b: memref<128x128xf8E5M2>, %c: memref<128x128xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<128x128xf8E5M2>, memref<128x128xf8E5M2>, memref<128x128xf32>
  return
}
