func.func @missing_config(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
