func.func @tile_ops(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xbf16>, %i: index) {
  %sa = tgemm.alloc_smem : !tgemm.smem<3x128x32xf16>
  %sb = tgemm.alloc_smem : !tgemm.smem<3x32x128xf16>
  %acc = tgemm.zero_acc : !tgemm.acc<64x64xf32>
  tgemm.copy_tile %a[%i, %i], %sa[%i] async : memref<?x?xf16>, !tgemm.smem<3x128x32xf16>
  tgemm.copy_tile %b[%i, %i], %sb[%i] : memref<?x?xf16>, !tgemm.smem<3x32x128xf16>
  tgemm.commit_copies
  tgemm.wait_copies pending = 2
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, row)
      : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x32x128xf16>, !tgemm.acc<64x64xf32>
  tgemm.store_tile %d, %c[%i, %i] alpha(2.0) beta(1.0) : !tgemm.acc<64x64xf32>, memref<?x?xbf16>
  return
}

func.func @int4_types(%s: !tgemm.smem<2x64x128xi4>, %acc: !tgemm.acc<32x16xi32>) {
  return
}
