// The MN-major layouts of mn-major-layouts.mlir whose types wmma has.
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
