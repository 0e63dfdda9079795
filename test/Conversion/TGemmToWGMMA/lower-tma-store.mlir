// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile --tgemm-lower-to-wgmma | FileCheck %s
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=wgmma chip=sm_90a" | tgemm-translate --emit=ptx | FileCheck %s --check-prefix=PTX

// The TMA store in NVVM. A warp tile of 16 x 128 f32 is 4 boxes of 16
// rows of 128 bytes; each warp has 2 buffers of 2048 bytes (at warp x
// 4096, over the rings once every consumer is past its last multiply:
// the named barrier). Each box: the thread index read where it is used,
// the lane's pairs written at chunk (byte / 16) ^ (row % 8) of their row
// (the 128-byte swizzle of C's map), fence.proxy.async so the copy engine
// sees them, then lane 0 stores the box at (column, row, matrix) and
// commits it; before boxes 2 and 3 reuse a buffer, lane 0 waits until all
// but the last group were read, and at the end until all were.
func.func @boxes(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 128, 64], warps = [4, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, tma_store = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// CHECK-LABEL: gpu.func @boxes_kernel
// CHECK-SAME: %arg5: !llvm.ptr
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// Box 0.
// CHECK: %[[T0:.*]] = llvm.inline_asm has_side_effects {{.*}}"mov.u32 $0, %tid.x;", "=r"
// CHECK: %[[TID0:.*]] = arith.index_castui %[[T0]] : i32 to index
// CHECK: %[[WARP:.*]] = arith.divui %[[TID0]], %c32
// CHECK: arith.muli %[[WARP]], %c4096
// CHECK: %[[CHUNK:.*]] = arith.xori
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK: %[[LANE0:.*]] = arith.remui %[[TID0]], %c32
// CHECK: %[[LEAD0:.*]] = arith.cmpi eq, %[[LANE0]], %c0
// CHECK: scf.if %[[LEAD0]] {
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg5, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// Box 1: the second buffer, 32 columns further.
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.u32 $0, %tid.x;"
// CHECK: arith.addi %{{.*}}, %c2048
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// Box 2: the first buffer again, once the copy engine has read it.
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.u32 $0, %tid.x;"
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.bar.warp.sync

// PTX: .param .align 64 .b8 boxes_kernel_param_23[128]
// PTX: fence.proxy.async.shared::cta;
// PTX: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// PTX-NEXT: cp.async.bulk.commit_group;
// PTX: cp.async.bulk.wait_group.read 1;
// PTX: cp.async.bulk.wait_group.read 0;
