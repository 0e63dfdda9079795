// Signed 4-bit inputs (two per byte), exact i32 accumulation and output.
// A is row-major M x K, B is column-major (stored N x K), C is row-major.
func.func @gemm_s4_s32(%a: memref<4096x4096xi4>, %b: memref<4096x4096xi4>,
                     %c: memref<4096x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<4096x4096xi4>, memref<4096x4096xi4>, memref<4096x4096xi32>
  return
}
