func.func @gemm_u8_s32(%a: memref<4096x4096xui8>, %b: memref<4096x4096xui8>,
                     %c: memref<4096x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<4096x4096xui8>, memref<4096x4096xui8>, memref<4096x4096xi32>
  return
}
