// Configs the ptx family takes and the wgmma family does not: tiled for
// ptx and handed to tgemm-lower-to-wgmma, each is refused at its
// tgemm.mma_tile by the legality module's warpgroup rules (test/Conversion/TGemmToWGMMA/lower-to-wgmma.mlir).

func.func @square_warp_tiles(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @two_warps(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 64, 64], warps = [2, 1], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @narrow_rows(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [4, 1], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
