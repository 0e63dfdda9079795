func.func @depth(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x16xf16>,
                 %acc: !tgemm.acc<32x32xf32>, %i: index) {
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col)
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x16xf16>, !tgemm.acc<32x32xf32>
  return
}
