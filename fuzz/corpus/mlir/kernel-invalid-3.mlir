func.func @acc_type(%a: !tgemm.acc<64x64xbf16>) {
  return
}
