func.func @mixed_types(%a: memref<?x?xf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xf16>, memref<?x?xbf16>, memref<?x?xf32>
  return
}
