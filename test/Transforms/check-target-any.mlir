// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_86 family=ptx" --tgemm-check-target | FileCheck %s

// lowering=any accepts an op that either family compiles; when neither
// does, the mma.sync reason is reported.

// s4 has both a wmma and an mma.sync instruction on sm_86.
// CHECK-LABEL: func @s4
// CHECK: tgemm.matmul
func.func @s4(%a: memref<?x?xi4>, %b: memref<?x?xi4>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 128], warps = [2, 2], stages = 3>)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}

// -----

func.func @fp8(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{mma.sync with e4m3 operands needs sm_89 or newer; the target is sm_86}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

// 3 stages x (128x64 + 64x128) bf16 = 96 KiB fits sm_86's 99 KiB; 4 do not.
func.func @stages(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
  // expected-error @+1 {{the 4-stage pipeline needs 131072 bytes of shared memory; sm_86 allows a block 101376 bytes}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 4>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
  return
}
