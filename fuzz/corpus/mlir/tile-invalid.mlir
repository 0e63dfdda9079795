func.func @s4_odd_k(%a: memref<128x63xi4>, %b: memref<128x63xi4>, %c: memref<128x128xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 128], warps = [2, 2], stages = 2>)
      : memref<128x63xi4>, memref<128x63xi4>, memref<128x128xi32>
  return
}
