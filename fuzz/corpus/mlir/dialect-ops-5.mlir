func.func @int8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>,
                %ua: memref<?x?xui8>, %ub: memref<?x?xui8>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32) alpha(2.0) beta(-1.0)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  tgemm.matmul %ua, %ub, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xui8>, memref<?x?xui8>, memref<?x?xi32>
  return
}
