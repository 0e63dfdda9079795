// RUN: not tgemm-opt %s --tgemm-override-config="async-copy=false" 2>&1 | FileCheck %s
// RUN: not tgemm-opt %s --tgemm-attach-nvvm-target 2>&1 | FileCheck %s --check-prefix=NVVM

// A kernel of tile ops with neither a schedule nor a target has no schedule
// the options could change; a kernel module without a target has no chip to
// compile for.
// CHECK: error: 'gpu.func' op has neither a tgemm.schedule nor a tgemm.target whose family's default schedule the options could change
// NVVM: error: 'gpu.module' op has no tgemm.target to compile for
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %sa = tgemm.alloc_smem : !tgemm.smem<1x32x32xf16>
      %sb = tgemm.alloc_smem : !tgemm.smem<1x32x32xf16>
      %acc = tgemm.zero_acc : !tgemm.acc<32x32xf32>
      %r = tgemm.mma_tile %sa[%c0], %sb[%c0], %acc at [%c0, %c0] layout(row, col)
          : !tgemm.smem<1x32x32xf16>, !tgemm.smem<1x32x32xf16>, !tgemm.acc<32x32xf32>
      gpu.return
    }
  }
}
