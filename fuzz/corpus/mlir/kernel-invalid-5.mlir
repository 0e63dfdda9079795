func.func @copy_type(%a: memref<?x?xbf16>, %i: index) {
  %s = tgemm.alloc_smem : !tgemm.smem<2x64x32xf16>
  tgemm.copy_tile %a[%i, %i], %s[%i] : memref<?x?xbf16>, !tgemm.smem<2x64x32xf16>
  return
}
