func.func @gemm_s4_s32(%a: memref<4096x4096xi4>, %b: memref<4096x4096xi4>,
                     %c: memref<4096x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 128], warps = [2, 2], stages = 3>)
      : memref<4096x4096xi4>, memref<4096x4096xi4>, memref<4096x4096xi32>
  return
}
