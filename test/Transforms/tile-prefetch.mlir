// RUN: tgemm-opt %s --split-input-file --tgemm-override-config="prefetch-fragments-min-warps=8" --tgemm-tile | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-pipeline="lowering=ptx chip=sm_90" --mlir-print-ir-after=tgemm-tile -o /dev/null 2>&1 | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-pipeline="lowering=wmma chip=sm_90" --mlir-print-ir-after=tgemm-tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: tgemm-opt %s --split-input-file --tgemm-pipeline="lowering=ptx chip=sm_90 prefetch-fragments-min-warps=0" --mlir-print-ir-after=tgemm-tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE

// Prefetched fragments (blocks of at least 8 warps; the ptx pipeline's
// default): all 3 stages in flight before the loop (pending = 2 waits for
// tile 0); each iteration multiplies tile kt's first k-step from the
// fragments it carries and the rest of the stage but the last k-step,
// loads the last k-step's fragments, waits and synchronizes, refills the
// stage just finished with tile kt + 3, loads the next stage's first
// fragments and multiplies the last k-step from registers.
// CHECK-LABEL: gpu.func @eight_warps_kernel
// CHECK-COUNT-3: tgemm.commit_copies
// CHECK-NEXT: tgemm.wait_copies pending = 2
// CHECK-NEXT: gpu.barrier
// CHECK: %[[F0:.*]] = tgemm.load_frags %[[SA:.*]][%c0{{.*}}], %[[SB:.*]][%c0{{.*}}] at[%{{.*}}, %{{.*}}] layout(row, col) k_slice [0, 16] : <3x128x64xf16>, <3x256x64xf16>, <64x64x16xf16>
// CHECK: scf.for %[[KT:.*]] = %{{.*}} to %[[KTILES:.*]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[F:.*]] = %[[F0]], %[[S:.*]] = %c0{{.*}}) -> (!tgemm.acc<64x64xf32>, !tgemm.frags<64x64x16xf16>, index)
// CHECK-NEXT: %[[A1:.*]] = tgemm.mma_tile %[[SA]][%[[S]]], %[[SB]][%[[S]]], %[[ACC]] at[{{.*}}] layout(row, col) k_slice [0, 48] using(%[[F]] : !tgemm.frags<64x64x16xf16>)
// CHECK-NEXT: %[[LAST:.*]] = tgemm.load_frags %[[SA]][%[[S]]], %[[SB]][%[[S]]] at[{{.*}}] layout(row, col) k_slice [48, 16]
// CHECK-NEXT: tgemm.wait_copies pending = 1
// CHECK-NEXT: gpu.barrier
// CHECK: %[[R:.*]] = arith.addi %[[KT]], %c3
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[R]], %[[KTILES]]
// CHECK: tgemm.copy_tile {{.*}}, %[[SA]][%[[S]]] async in_bounds if %[[IN]]
// CHECK: tgemm.copy_tile {{.*}}, %[[SB]][%[[S]]] async in_bounds if %[[IN]]
// CHECK-NEXT: tgemm.commit_copies
// CHECK: %[[NEXT:.*]] = arith.select
// CHECK-NEXT: %[[NF:.*]] = tgemm.load_frags %[[SA]][%[[NEXT]]], %[[SB]][%[[NEXT]]] at[{{.*}}] layout(row, col) k_slice [0, 16]
// CHECK-NEXT: %[[A2:.*]] = tgemm.mma_tile %[[SA]][%[[S]]], %[[SB]][%[[S]]], %[[A1]] at[{{.*}}] layout(row, col) k_slice [48, 16] using(%[[LAST]] : !tgemm.frags<64x64x16xf16>)
// CHECK-NEXT: scf.yield %[[A2]], %[[NF]], %[[NEXT]]
// NONE-LABEL: gpu.func @eight_warps_kernel
// NONE-NOT: load_frags
// NONE: gpu.return
func.func @eight_warps(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [2, 4], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// Four warps (two blocks per SM hide the barrier): no prefetch.
// CHECK-LABEL: gpu.func @four_warps_kernel
// CHECK-NOT: load_frags
// CHECK: gpu.return
// NONE-LABEL: gpu.func @four_warps_kernel
func.func @four_warps(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// One k-step per stage (tf32, 8 deep): the carried fragments are the
// whole stage, multiplied after the barrier.
// CHECK-LABEL: gpu.func @one_step_kernel
// CHECK: scf.for {{.*}} -> (!tgemm.acc<64x64xf32>, !tgemm.frags<64x64x8xf32>, index)
// CHECK-NOT: tgemm.mma_tile
// CHECK: gpu.barrier
// CHECK: tgemm.load_frags {{.*}} k_slice [0, 8]
// CHECK-NEXT: tgemm.mma_tile {{.*}} k_slice [0, 8] using(
// CHECK-NEXT: scf.yield
// NONE-LABEL: gpu.func @one_step_kernel
func.func @one_step(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 8], warps = [2, 4], stages = 3>)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}
