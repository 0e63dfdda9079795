func.func @bf16_epilogue(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32) alpha(0.5) beta(0.25)
      config(<block = [128, 256, 32], warps = [2, 4], stages = 4>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}
