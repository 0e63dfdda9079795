func.func @gemm_f16_f16(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                     %c: memref<4096x4096xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f16)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf16>
  return
}
