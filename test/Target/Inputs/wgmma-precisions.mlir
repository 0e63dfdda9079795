// One GEMM per precision the wgmma family computes beyond f16/bf16 -> f32,
// each with the family's default config (two warpgroups of 64 x 128, block
// K of 128 bytes) and schedule (a producer warpgroup copying with TMA), on
// dynamic sizes.
func.func @wgmma_f16_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f16)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

func.func @wgmma_tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}

func.func @wgmma_s8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

func.func @wgmma_u8(%a: memref<?x?xui8>, %b: memref<?x?xui8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<?x?xui8>, memref<?x?xui8>, memref<?x?xi32>
  return
}

func.func @wgmma_e4m3(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xbf16>
  return
}

func.func @wgmma_e5m2(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}

func.func @wgmma_e4m3_e5m2(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}
