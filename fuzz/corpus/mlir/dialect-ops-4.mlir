func.func @tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 64, 8], warps = [4, 2], stages = 5>)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}
