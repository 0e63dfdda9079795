func.func @fp8(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>,
               %a2: memref<?x?xf8E5M2>, %b2: memref<?x?xf8E5M2>, %c2: memref<?x?xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 16, 32], warps = [1, 2], stages = 3>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  tgemm.matmul %a2, %b2, %c2 layout(row, col) acc(f32)
      config(<block = [64, 64, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>, memref<?x?xf16>
  return
}
