// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile --tgemm-lower-to-wgmma | FileCheck %s
// Kernel-level IR that did not come through tgemm-check-target (tiled for
// the ptx family, then handed to the wgmma lowering): the lowering asks the
// legality module's warpgroup rules of the config its tile ops imply, with
// the error at the tgemm.mma_tile.
// RUN: tgemm-opt %S/Inputs/shapes.mlir --split-input-file --tgemm-attach-target="chip=sm_90a family=ptx" --tgemm-tile \
// RUN:   | sed -e 's/family = ptx/family = wgmma/' \
// RUN:   | not tgemm-opt --split-input-file --tgemm-lower-to-wgmma 2>&1 | FileCheck %s --check-prefix=SHAPES
// SHAPES: error: 'tgemm.mma_tile' op wgmma is issued by warpgroups of 4 warps stacked along M: warps must be [4k, 1], got [2, 2]
// SHAPES: error: 'tgemm.mma_tile' op wgmma is issued by warpgroups of 4 warps stacked along M: warps must be [4k, 1], got [2, 1]
// SHAPES: error: 'tgemm.mma_tile' op the wgmma descriptors read 128-byte swizzled rows: block tile K must be 64 for f16 (64 bytes), got 32
// A block size that does not match its warp tiles.
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile \
// RUN:   | sed -e 's/known_block_size = array<i32: 128, 1, 1>/known_block_size = array<i32: 256, 1, 1>/' \
// RUN:   | not tgemm-opt --tgemm-lower-to-wgmma 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: error: 'tgemm.mma_tile' op a 16x64 warp tile of a 64x64 block needs 128 threads, but the block has 256

// tgemm-lower-to-wgmma without warp specialization (every warp copies
// with cp.async; see lower-warp-specialized.mlir for the family's default):
// the rings in 1024-byte aligned dynamic shared
// memory, the cp.async waits followed by the async-proxy fence, and per
// k-tile one wgmma.mma_async per k16 step between the fence and the
// group's commit and wait. One warpgroup of 64 x 64, block K 64, 2 stages:
// 2 x 2 x 64 rows x 128 bytes = 32768 bytes.
// CHECK-LABEL: func.func @one_warpgroup
// CHECK: %[[SMEM:.*]] = arith.constant 32768 : i32
// CHECK: gpu.launch_func {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK-SAME: lowering = "wgmma"
// CHECK: llvm.mlir.global external @__tgemm_dynamic_smem() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK: gpu.func @one_warpgroup_kernel
// CHECK-NOT: tgemm.{{(alloc_smem|copy_tile|commit_copies|wait_copies|mma_tile|store_tile)}}
// CHECK: "cp.async.wait_group 0;"
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
func.func @one_warpgroup(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 64], warps = [4, 1], stages = 2>)
      schedule(<warp_specialize = false, tma = false>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
