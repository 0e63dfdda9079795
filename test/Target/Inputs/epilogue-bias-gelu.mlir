// A GEMM whose store adds a bias per column and applies GELU (tanh form).
func.func @bias_gelu(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>,
                     %bias: memref<?xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(bias(col) %bias : memref<?xf16>, gelu_tanh)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}
