func.func @gemm_bf16_f32(%a: memref<4096x4096xbf16>, %b: memref<4096x4096xbf16>,
                     %c: memref<4096x4096xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<4096x4096xbf16>, memref<4096x4096xbf16>, memref<4096x4096xbf16>
  return
}
