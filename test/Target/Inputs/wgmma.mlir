// f16 -> f32 with the wgmma family's default config (128x128x64, two
// warpgroups, 4 stages; written out, since a selected config comes with
// its own schedule) and every warp copying with cp.async, and bf16 ->
// f32 with one warpgroup per 64 rows of a 128x256 tile, 3 stages, and the
// family's default schedule (a producer warpgroup, TMA); both on dynamic
// sizes.
func.func @wgmma_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = false, tma = false>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

func.func @wgmma_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) alpha(0.5) beta(2.0)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 3>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}
