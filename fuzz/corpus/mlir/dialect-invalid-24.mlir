func.func @shared_memory(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [256, 256, 128], warps = [4, 4], stages = 8>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
