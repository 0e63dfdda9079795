// An s8 GEMM dequantized into bf16: a scale per column, a bias per row,
// SiLU.
func.func @dequantize(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xbf16>,
                      %s: memref<?xf32>, %bias: memref<?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      epilogue(scale(col) %s : memref<?xf32>, bias(row) %bias : memref<?xbf16>, silu)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xbf16>
  return
}
