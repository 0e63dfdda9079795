func.func @big(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 4>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
  return
}
