func.func @gemm_tf32_f32(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>,
                     %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 16], warps = [2, 2], stages = 3>)
      : memref<4096x4096xf32>, memref<4096x4096xf32>, memref<4096x4096xf32>
  return
}
