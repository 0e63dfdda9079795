// Deep K, few tiles: 512 x 512 is 16 tiles of 128 x 128, which leave most
// SMs idle; split K into 3 parts, each block computes one part of one tile
// and the tile's last block sums the parts (a workspace the runtime
// provides). The config also suits the wgmma family (8 warps stacked along
// M, 128-byte rows).
func.func @gemm_f16_f32_split_k(%a: memref<512x16384xf16>, %b: memref<512x16384xf16>,
                                %c: memref<512x512xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4, split_k = 3>)
      : memref<512x16384xf16>, memref<512x16384xf16>, memref<512x512xf32>
  return
}
