func.func @unknown_attr() attributes {c = #tgemm.tile<64>} {
  return
}
