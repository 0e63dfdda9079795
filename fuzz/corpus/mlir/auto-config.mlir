// A GEMM without a tile config: tgemm-select-config chooses one.
func.func @auto(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
