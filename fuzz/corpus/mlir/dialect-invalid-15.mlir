func.func @bf16_f16_acc(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf16>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f16)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf16>
  return
}
