func.func @int8_f32_acc(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 64], warps = [2, 2], stages = 2>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xf32>
  return
}
