// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-override-config="cluster=2" | FileCheck %s
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | not tgemm-opt --tgemm-override-config="cluster=2" 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not tgemm-opt %s --tgemm-override-config="cluster=3" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tgemm-opt %s --tgemm-pipeline="lowering=wgmma chip=sm_90a cluster=0" 2>&1 | FileCheck %s --check-prefix=PIPELINE

// cluster is a field of the op's schedule, which tgemm-tile turns into the
// kernel's tile mapping and launch; on a kernel already written it cannot
// change. The option takes 1 or 2 blocks.
// CHECK: tgemm.matmul
// CHECK-SAME: schedule(<warp_specialize = true, tma = true, cluster = 2>)
// KERNEL: error: 'gpu.func' op with cluster = 2: cluster is fixed when tgemm-tile writes the kernel's tile loop; give it before tgemm-tile
// RANGE: error: option 'cluster': cluster (3) must be between 1 and 2 blocks
// PIPELINE: error: option 'cluster': cluster (0) must be between 1 and 2 blocks
func.func @f(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf32>
  return
}
