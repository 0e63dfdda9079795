func.func @attrs() attributes {
    tgemm.config = #tgemm.config<block = [256, 128, 64], warps = [4, 2], stages = 6>,
    tgemm.config_default = #tgemm.config<block = [64, 64, 32], warps = [2, 2], stages = 2, raster = 1>,
    tgemm.config_raster = #tgemm.config<block = [128, 256, 32], warps = [2, 4], stages = 4, raster = 8>,
    tgemm.layouts = [#tgemm<layout row>, #tgemm<layout col>]} {
  return
}

func.func @generic(%a: memref<32x64xf16>, %b: memref<32x128xf16>, %c: memref<64x128xf32>) {
  "tgemm.matmul"(%a, %b, %c) <{acc = f32, beta = 1.0 : f64,
      config = #tgemm.config<block = [64, 64, 32], warps = [2, 2], stages = 2>,
      layout_a = #tgemm<layout col>, layout_b = #tgemm<layout row>}>
      : (memref<32x64xf16>, memref<32x128xf16>, memref<64x128xf32>) -> ()
  return
}
