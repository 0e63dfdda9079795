// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-lower-to-wmma

// wmma fragments are opaque: the WMMA lowering does not carry fragments
// across a barrier.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @frags(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %sa = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %sb = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %acc = tgemm.zero_acc : !tgemm.acc<32x32xf32>
      // expected-error @+1 {{is not supported by the wmma lowering with fragments; tile with prefetch-fragments-min-warps=0 (as --tgemm-pipeline does for wmma)}}
      %f = tgemm.load_frags %sa[%c0], %sb[%c0] at [%c0, %c0] layout(row, col) k_slice [0, 16]
          : !tgemm.smem<2x32x32xf16>, !tgemm.smem<2x32x32xf16>, !tgemm.frags<32x32x16xf16>
      %d = tgemm.mma_tile %sa[%c0], %sb[%c0], %acc at [%c0, %c0] layout(row, col)
          using(%f : !tgemm.frags<32x32x16xf16>)
          : !tgemm.smem<2x32x32xf16>, !tgemm.smem<2x32x32xf16>, !tgemm.acc<32x32xf32>
      tgemm.store_tile %d, %c[%c0, %c0] : !tgemm.acc<32x32xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}

// -----

// Nor fragments that come from elsewhere.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @given(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                    %f: !tgemm.frags<32x32x16xf16>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %sa = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %sb = tgemm.alloc_smem : !tgemm.smem<2x32x32xf16>
      %acc = tgemm.zero_acc : !tgemm.acc<32x32xf32>
      // expected-error @+1 {{is not supported by the wmma lowering with fragments; tile with prefetch-fragments-min-warps=0 (as --tgemm-pipeline does for wmma)}}
      %d = tgemm.mma_tile %sa[%c0], %sb[%c0], %acc at [%c0, %c0] layout(row, col)
          using(%f : !tgemm.frags<32x32x16xf16>)
          : !tgemm.smem<2x32x32xf16>, !tgemm.smem<2x32x32xf16>, !tgemm.acc<32x32xf32>
      tgemm.store_tile %d, %c[%c0, %c0] : !tgemm.acc<32x32xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}
