// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-lower-to-wmma
// RUN: not tgemm-opt %s --split-input-file --tgemm-lower-to-ptx 2>&1 | FileCheck %s --check-prefix=PTX

// Kernel-level IR written by hand (not by tgemm-tile) can ask for what no
// instruction covers; both lowerings check the warp tile and the block the
// same way, each naming its instruction.

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %i: index) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %sa = tgemm.alloc_smem : !tgemm.smem<2x16x16xf16>
      %sb = tgemm.alloc_smem : !tgemm.smem<2x8x16xf16>
      %acc = tgemm.zero_acc : !tgemm.acc<16x8xf32>
      // A 16x8 accumulator is one mma.sync m16n8k16 but half a WMMA tile.
      // PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
      // expected-error @+1 {{a 16x8x16 warp tile is not a whole number of WMMA m16n16k16 tiles}}
      %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col)
          : !tgemm.smem<2x16x16xf16>, !tgemm.smem<2x8x16xf16>, !tgemm.acc<16x8xf32>
      tgemm.store_tile %d, %c[%i, %i] : !tgemm.acc<16x8xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // PTX-DAG: error: 'gpu.func' op needs a known_block_size of whole warps to lower tile copies
    // expected-error @+1 {{'gpu.func' op needs a known_block_size of whole warps to lower tile copies}}
    gpu.func @k(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %i: index) kernel {
      %sa = tgemm.alloc_smem : !tgemm.smem<2x16x16xf16>
      %sb = tgemm.alloc_smem : !tgemm.smem<2x16x16xf16>
      %acc = tgemm.zero_acc : !tgemm.acc<16x16xf32>
      %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col)
          : !tgemm.smem<2x16x16xf16>, !tgemm.smem<2x16x16xf16>, !tgemm.acc<16x16xf32>
      tgemm.store_tile %d, %c[%i, %i] : !tgemm.acc<16x16xf32>, memref<?x?xf32>
      gpu.return
    }
  }
}
