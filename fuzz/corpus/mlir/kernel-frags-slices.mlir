func.func @tile_ops(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xbf16>, %i: index, %p: i1) {
  %sa = tgemm.alloc_smem : !tgemm.smem<3x128x32xf16>
  %sb = tgemm.alloc_smem : !tgemm.smem<3x32x128xf16>
  %acc = tgemm.zero_acc : !tgemm.acc<64x64xf32>
  tgemm.copy_tile %a[%i, %i], %sa[%i] async in_bounds if %p : memref<?x?xf16>, !tgemm.smem<3x128x32xf16>
  tgemm.commit_copies
  tgemm.wait_copies pending = 2
  %f = tgemm.load_frags %sa[%i], %sb[%i] at [%i, %i] layout(row, row) k_slice [16, 16]
      : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x32x128xf16>, !tgemm.frags<64x64x16xf16>
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, row) k_slice [16, 16]
      using(%f : !tgemm.frags<64x64x16xf16>)
      : !tgemm.smem<3x128x32xf16>, !tgemm.smem<3x32x128xf16>, !tgemm.acc<64x64xf32>
  tgemm.store_tile %d, %c[%i, %i] : !tgemm.acc<64x64xf32>, memref<?x?xbf16>
  return
}
