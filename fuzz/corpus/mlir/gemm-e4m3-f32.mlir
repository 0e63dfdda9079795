func.func @gemm_e4m3_f32(%a: memref<4096x4096xf8E4M3FN>, %b: memref<4096x4096xf8E4M3FN>,
                     %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 4], stages = 3>)
      : memref<4096x4096xf8E4M3FN>, memref<4096x4096xf8E4M3FN>, memref<4096x4096xf32>
  return
}
