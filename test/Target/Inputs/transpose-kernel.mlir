// MN-major operands that wgmma reads K-major only, for transpose_kernel:
// an s8 B stored K x N (static), an e4m3 A stored K x M with an e5m2 B
// stored K x N (both copied), and a tf32 B stored K x N.
func.func @s8_row_row(%a: memref<4096x1024xi8>, %b: memref<1024x2048xi8>,
                      %c: memref<4096x2048xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      : memref<4096x1024xi8>, memref<1024x2048xi8>, memref<4096x2048xi32>
  return
}

func.func @e4m3_e5m2_col_row(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E5M2>,
                             %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}

func.func @tf32_row_row(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                        %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}
