func.func @gemm_f16_dynamic_epilogue(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                                     %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32) alpha(0.5) beta(2.0)
      config(<block = [128, 256, 32], warps = [2, 4], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
