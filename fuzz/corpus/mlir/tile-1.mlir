func.func @dynamic(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32) alpha(0.5) beta(2.0)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}
