// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_80 family=ptx" --tgemm-check-target | FileCheck %s

// chip=sm_80: instructions newer than the chip, and pipelines larger than
// its shared memory, are rejected.

// 4 stages x (128x32 + 32x256) f16 = 96 KiB fits sm_80's 163 KiB.
// CHECK-LABEL: func @fits
// CHECK: tgemm.matmul
func.func @fits(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 32], warps = [2, 4], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @fp8(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{mma.sync with e5m2 operands needs sm_89 or newer; the target is sm_80}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>, memref<?x?xf32>
  return
}

// -----

// 4 stages x (128x64 + 64x256) f16 = 192 KiB.
func.func @big_pipeline(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the 4-stage pipeline needs 196608 bytes of shared memory; sm_80 allows a block 166912 bytes}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 64], warps = [2, 4], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
