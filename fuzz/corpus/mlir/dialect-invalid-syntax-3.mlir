func.func @i64_acc(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i64)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}
