func.func @block_rank() attributes {c = #tgemm.config<block = [128, 128], warps = [2, 2], stages = 3>} {
  return
}
