func.func @too_many_threads() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [8, 8], stages = 3>} {
  return
}
