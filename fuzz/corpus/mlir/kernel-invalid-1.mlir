func.func @ring_type(%s: !tgemm.smem<2x128x32xf64>) {
  return
}
