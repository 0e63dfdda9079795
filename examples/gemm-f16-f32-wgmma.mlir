// The reference GEMM of gemm-f16-f32.mlir with the tile the wgmma family
// (sm_90a) takes: two warpgroups of 4 warps stacked along M, 16 rows per
// warp, each multiplying 64 x 128 with wgmma; block K 64 (128-byte rows for
// the swizzled descriptors), 4 stages. wmma and ptx compile it too, where
// its 128 KiB of rings fit (not on sm_86 and sm_89).
func.func @gemm_f16_f32_wgmma(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                              %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}
