func.func @f16(%a: memref<512x64xf16>, %b: memref<256x64xf16>, %c: memref<512x256xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<512x64xf16>, memref<256x64xf16>, memref<512x256xf32>
  return
}
