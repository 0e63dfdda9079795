func.func @row_bytes(%a: memref<?x?xi4>, %b: memref<?x?xi4>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [32, 16, 64], warps = [2, 2], stages = 2>)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}
