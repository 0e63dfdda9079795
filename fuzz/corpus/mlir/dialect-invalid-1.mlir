func.func @warps_rank() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2, 1], stages = 3>} {
  return
}
