func.func @warps_negative() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [-2, 2], stages = 3>} {
  return
}
