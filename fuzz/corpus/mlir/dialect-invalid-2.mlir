func.func @block_zero() attributes {c = #tgemm.config<block = [128, 0, 32], warps = [2, 2], stages = 3>} {
  return
}
