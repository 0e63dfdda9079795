func.func @stages_many() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 9>} {
  return
}
