func.func @config_typo() attributes {c = #tgemm.config<blocks = [64, 64, 32], warps = [2, 2], stages = 2>} {
  return
}
