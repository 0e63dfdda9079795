func.func @block_huge() attributes {c = #tgemm.config<block = [128, 128, 9223372036854775807], warps = [2, 2], stages = 3>} {
  return
}
