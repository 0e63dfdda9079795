func.func @raster_zero() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 3, raster = 0>} {
  return
}
