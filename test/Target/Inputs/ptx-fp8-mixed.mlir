// Mixed fp8 on mma.sync: A and B of different fp8 formats, in both orders.
func.func @e4m3_e5m2(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}

func.func @e5m2_e4m3(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf8E5M2>, memref<?x?xf8E4M3FN>, memref<?x?xbf16>
  return
}
