// Every MN-major layout of the 8-bit and tf32 types, dynamic sizes, each
// on the default config of its precision.
func.func @s8_row_row(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}
func.func @s8_col_col(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(i32)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}
func.func @s8_col_row(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(i32)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}
func.func @u8_row_row(%a: memref<?x?xui8>, %b: memref<?x?xui8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      : memref<?x?xui8>, memref<?x?xui8>, memref<?x?xi32>
  return
}
func.func @u8_col_col(%a: memref<?x?xui8>, %b: memref<?x?xui8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(i32)
      : memref<?x?xui8>, memref<?x?xui8>, memref<?x?xi32>
  return
}
func.func @u8_col_row(%a: memref<?x?xui8>, %b: memref<?x?xui8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(i32)
      : memref<?x?xui8>, memref<?x?xui8>, memref<?x?xi32>
  return
}
func.func @e4m3_row_row(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xbf16>
  return
}
func.func @e4m3_col_col(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xbf16>
  return
}
func.func @e4m3_col_row(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xbf16>
  return
}
func.func @e5m2_row_row(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}
func.func @e5m2_col_col(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(f32)
      : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}
func.func @e5m2_col_row(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}
func.func @e4m3_e5m2_row_row(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}
func.func @e4m3_e5m2_col_col(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}
func.func @e4m3_e5m2_col_row(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}
func.func @tf32_row_row(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}
func.func @tf32_col_col(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(f32)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}
func.func @tf32_col_row(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}
