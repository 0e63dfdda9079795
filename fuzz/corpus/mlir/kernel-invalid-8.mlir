func.func @mma_types(%sa: !tgemm.smem<2x64x32xbf16>, %sb: !tgemm.smem<2x64x32xbf16>,
                     %acc: !tgemm.acc<32x32xf16>, %i: index) {
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col)
      : !tgemm.smem<2x64x32xbf16>, !tgemm.smem<2x64x32xbf16>, !tgemm.acc<32x32xf16>
  return
}
