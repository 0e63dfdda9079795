// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-override-config="tma-store=true" | FileCheck %s
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | not tgemm-opt --tgemm-override-config="tma-store=true" 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not tgemm-opt %s --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-override-config="tma-store=true" 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=wgmma chip=sm_90a tma-store=true" | FileCheck %s --check-prefix=PIPELINE

// tma_store is a field of the op's schedule, which tgemm-tile turns into
// the kernel's epilogue and its tensor maps; on a kernel already written
// it cannot change.
// CHECK: tgemm.matmul
// CHECK-SAME: schedule(<warp_specialize = true, tma = true, tma_store = true>)
// KERNEL: error: 'gpu.func' op with tma_store = true: tma_store is fixed when tgemm-tile writes the kernel's tile loop; give it before tgemm-tile
// PTX: error: 'tgemm.matmul' op with tma_store = true: tma_store is a wgmma knob (bulk tensor stores on sm_90a); the ptx lowering has none
// PIPELINE: tensor_maps = [{{.*}}{box = [16, 32], operand = "c", passing = "param", swizzle = 128 : i64}]
// PIPELINE: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group
// PIPELINE-SAME: cp.async.bulk.commit_group
func.func @f(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf32>
  return
}
