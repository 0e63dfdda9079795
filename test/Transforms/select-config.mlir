// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-select-config="database=%S/Inputs/tuning-db.json builtin=false report=true" --verify-diagnostics | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=wmma" --tgemm-select-config="database=%S/Inputs/tuning-db.json builtin=false" | FileCheck %s --check-prefix=WMMA
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_80 family=ptx" --tgemm-select-config="database=%S/Inputs/tuning-db.json" | FileCheck %s --check-prefix=SM80

// tgemm-select-config: a matmul without config gets the database entry of
// its chip, lowering and types nearest to its shape, else the default.

// Large and square: nearest to the 8192^3 entry.
// CHECK-LABEL: func.func @large
// CHECK: config(<block = [128, 256, 32], warps = [2, 4], stages = 4, raster = 8>) schedule(<prefetch_fragments = true>)
// WMMA-LABEL: func.func @large
// WMMA: config(<block = [128, 128, 64], warps = [2, 2], stages = 2>)
// SM80-LABEL: func.func @large
// SM80: config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
func.func @large(%a: memref<6000x6000xf16>, %b: memref<6000x6000xf16>,
                 %c: memref<6000x6000xf32>) {
  // expected-remark @+1 {{config for sm_90 ptx: block = [128, 256, 32], warps = [2, 4], stages = 4, raster = 8; #tgemm.schedule<prefetch_fragments = true> (tuned at 8192x8192x8192)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<6000x6000xf16>, memref<6000x6000xf16>, memref<6000x6000xf32>
  return
}

// -----

// Few rows: nearest to the 128x4096x4096 entry.
// CHECK-LABEL: func.func @skinny
// CHECK: config(<block = [64, 128, 32], warps = [2, 2], stages = 5>)
func.func @skinny(%a: memref<64x4096xf16>, %b: memref<?x4096xf16>,
                  %c: memref<64x?xf32>) {
  // expected-remark @+1 {{(tuned at 128x4096x4096)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<64x4096xf16>, memref<?x4096xf16>, memref<64x?xf32>
  return
}

// -----

// An entry that does not fit (its rings exceed the chip's shared memory):
// the default instead.
// CHECK-LABEL: func.func @too_big
// CHECK: config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
func.func @too_big(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-remark @+1 {{config for sm_90 ptx: block = [128, 128, 64], warps = [2, 2], stages = 3, raster = 1; #tgemm.schedule<> (default)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// No entry for bf16: the default. A config written in the source stays.
// CHECK-LABEL: func.func @kept
// CHECK: config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
// CHECK: config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
func.func @kept(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  // expected-remark @+1 {{(default)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
  return
}

// -----

// Batches are tuned as their matrices.
// CHECK-LABEL: func.func @batch
// CHECK: config(<block = [128, 256, 32], warps = [2, 4], stages = 4, raster = 8>)
func.func @batch(%a: memref<16x8192x8192xf16>, %b: memref<16x8192x8192xf16>,
                 %c: memref<16x8192x8192xf32>) {
  // expected-remark @+1 {{(tuned at 8192x8192x8192)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<16x8192x8192xf16>, memref<16x8192x8192xf16>, memref<16x8192x8192xf32>
  return
}

// -----

// An entry's options are the schedule it was measured with: they become the
// op's #tgemm.schedule, over the family's default.
// CHECK-LABEL: func.func @options
// CHECK: config(<block = [128, 128, 32], warps = [2, 2], stages = 3>) schedule(<refill_after_mma = true, swizzle = pad, padding = 32>)
func.func @options(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>,
                   %c: memref<4096x4096xf32>) {
  // expected-remark @+1 {{config for sm_90 ptx: block = [128, 128, 32], warps = [2, 2], stages = 3, raster = 1; #tgemm.schedule<refill_after_mma = true, swizzle = pad, padding = 32> (tuned at 4096x4096x4096)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<4096x4096xf32>, memref<4096x4096xf32>, memref<4096x4096xf32>
  return
}
