func.func @stages_zero() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 0>} {
  return
}
