// RUN: tgemm-opt %s --tgemm-tile | FileCheck %s --check-prefix=BEFORE
// RUN: tgemm-opt %s --tgemm-override-config="refill-after-mma=true" --tgemm-tile | FileCheck %s --check-prefix=AFTER
// RUN: tgemm-opt %s --tgemm-override-config="interleave-copies=true" --tgemm-tile | FileCheck %s --check-prefix=INTERLEAVE
// RUN: tgemm-opt %s --tgemm-override-config="interleave-copies=true refill-after-mma=true" --tgemm-tile | FileCheck %s --check-prefix=AFTER
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=wmma chip=sm_90" --mlir-print-ir-after=tgemm-tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=ptx chip=sm_90" --mlir-print-ir-after=tgemm-tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=ptx chip=sm_90 interleave-copies=true" --mlir-print-ir-after=tgemm-tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=INTERLEAVE

// Where each k-iteration refills the stage its barrier freed: before the
// multiply (default; the ptx lowering's pipeline), after it (the wmma
// lowering's pipeline), or between the two halves of the multiply
// (interleave-copies). Refills are predicated (`if`), never branched
// around.

// BEFORE: scf.for
// BEFORE: tgemm.wait_copies pending = 1
// BEFORE-NEXT: gpu.barrier
// BEFORE-NOT: scf.if
// BEFORE: tgemm.copy_tile {{.*}} if
// BEFORE: tgemm.copy_tile {{.*}} if
// BEFORE-NEXT: tgemm.commit_copies
// BEFORE-NEXT: tgemm.mma_tile
// BEFORE-NOT: k_slice
// BEFORE-SAME: <64x64xf32>
// BEFORE-NOT: tgemm.copy_tile
// BEFORE: scf.yield

// AFTER: scf.for
// AFTER: tgemm.wait_copies pending = 1
// AFTER-NEXT: gpu.barrier
// AFTER-NOT: tgemm.copy_tile
// AFTER: tgemm.mma_tile
// AFTER-NOT: k_slice
// AFTER-SAME: <64x64xf32>
// AFTER-NOT: scf.if
// AFTER: tgemm.copy_tile {{.*}} if
// AFTER: tgemm.copy_tile {{.*}} if
// AFTER-NEXT: tgemm.commit_copies
// AFTER-NOT: tgemm.mma_tile
// AFTER: scf.yield

// A's refill between the halves of K (16 of the stage's 32), B's after.
// INTERLEAVE: scf.for
// INTERLEAVE: tgemm.wait_copies pending = 1
// INTERLEAVE-NEXT: gpu.barrier
// INTERLEAVE-NOT: tgemm.copy_tile
// INTERLEAVE: tgemm.mma_tile {{.*}} k_slice [0, 16]
// INTERLEAVE-NOT: tgemm.mma_tile
// INTERLEAVE: tgemm.copy_tile %arg0{{.*}} if
// INTERLEAVE-NEXT: tgemm.mma_tile {{.*}} k_slice [16, 16]
// INTERLEAVE-NOT: tgemm.mma_tile
// INTERLEAVE: tgemm.copy_tile %arg1{{.*}} if
// INTERLEAVE-NEXT: tgemm.commit_copies
// INTERLEAVE-NOT: tgemm.mma_tile
// INTERLEAVE: scf.yield
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// Half of a 64-deep s4 stage (32) is not a whole k-step of mma.sync's
// m16n8k64: no interleaving.
// RUN: tgemm-opt %s --split-input-file --tgemm-override-config="interleave-copies=true" --tgemm-tile | FileCheck %s --check-prefix=S4
// S4-LABEL: gpu.func @s4_kernel
// S4-NOT: k_slice
// S4: gpu.return
func.func @s4(%a: memref<?x?xi4>, %b: memref<?x?xi4>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}
