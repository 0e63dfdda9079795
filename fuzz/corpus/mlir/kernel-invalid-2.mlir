func.func @ring_rank(%s: !tgemm.smem<128x32xf16>) {
  return
}
