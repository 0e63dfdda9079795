// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-override-config="persistent=true" | FileCheck %s
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | not tgemm-opt --tgemm-override-config="persistent=true" 2>&1 | FileCheck %s --check-prefix=KERNEL

// persistent is a field of the op's schedule, which tgemm-tile turns into
// the kernel's tile loop; on a kernel already written it cannot change.
// CHECK: tgemm.matmul
// CHECK-SAME: schedule(<warp_specialize = true, tma = true, persistent = true>)
// KERNEL: error: 'gpu.func' op with persistent = true: persistent is fixed when tgemm-tile writes the kernel's tile loop; give it before tgemm-tile
func.func @f(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf32>
  return
}
