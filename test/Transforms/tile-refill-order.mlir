// RUN: tgemm-opt %s --tgemm-tile | FileCheck %s --check-prefix=BEFORE
// RUN: tgemm-opt %s --tgemm-tile="refill-after-mma=true" | FileCheck %s --check-prefix=AFTER
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=wmma chip=sm_90" --mlir-print-ir-after=tgemm-tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=ptx chip=sm_90" --mlir-print-ir-after=tgemm-tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE

// Where each k-iteration refills the stage its barrier freed: before the
// multiply (default; the ptx lowering's pipeline) or after it (the wmma
// lowering's pipeline).

// BEFORE: scf.for
// BEFORE: tgemm.wait_copies pending = 1
// BEFORE-NEXT: gpu.barrier
// BEFORE: tgemm.copy_tile
// BEFORE: tgemm.commit_copies
// BEFORE-NOT: tgemm.copy_tile
// BEFORE: tgemm.mma_tile
// BEFORE-NEXT: scf.yield

// AFTER: scf.for
// AFTER: tgemm.wait_copies pending = 1
// AFTER-NEXT: gpu.barrier
// AFTER-NOT: tgemm.copy_tile
// AFTER: tgemm.mma_tile
// AFTER: tgemm.copy_tile
// AFTER: tgemm.commit_copies
// AFTER-NEXT: scf.yield
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
