// RUN: tgemm-opt %s --split-input-file --tgemm-override-config="stages=5" | FileCheck %s
// RUN: not tgemm-opt %s --split-input-file --tgemm-override-config="stages=8" 2>&1 | FileCheck %s --check-prefix=TOOBIG
// RUN: not tgemm-opt %s --split-input-file --tgemm-override-config="stages=9" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tgemm-opt %s --tgemm-pipeline="lowering=ptx chip=sm_86 stages=5" 2>&1 | FileCheck %s --check-prefix=CHIP

// tgemm-override-config sets the stage count of every matmul and verifies
// the result with the op's own rules; the pipeline's `stages` does the
// same before the target check, so the chip's limit applies to it.

// CHECK: config(<block = [128, 128, 64], warps = [2, 2], stages = 5>)
// 8 stages x (128x64 + 64x128) x 2 bytes = 256 KiB: no chip has it.
// TOOBIG: error: 'tgemm.matmul' op the 8-stage pipeline needs 262144 bytes of shared memory, more than any chip allows a block (largest: 232448 bytes on sm_90)
// RANGE: error: 'tgemm.matmul' op with stages = 9: stages (9) must be between 1 and 8
// CHIP: error: 'tgemm.matmul' op with stages = 5: the 5-stage pipeline needs 163840 bytes of shared memory; sm_86 allows a block 101376 bytes
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
