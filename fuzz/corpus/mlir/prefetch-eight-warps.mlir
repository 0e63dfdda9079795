func.func @eight_warps(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [2, 4], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
