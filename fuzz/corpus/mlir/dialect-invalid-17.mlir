func.func @f16_acc_bf16_out(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f16)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xbf16>
  return
}
