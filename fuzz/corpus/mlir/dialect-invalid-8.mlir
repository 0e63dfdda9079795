func.func @warp_grid_divides() attributes {c = #tgemm.config<block = [128, 96, 32], warps = [2, 5], stages = 3>} {
  return
}
