func.func @one_stage(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [64, 64, 64], warps = [2, 2], stages = 1>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}
