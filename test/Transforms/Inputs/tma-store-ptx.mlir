// A TMA store on a family without bulk tensor stores (check-target-tma-store.mlir).
func.func @ptx(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      schedule(<tma_store = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
