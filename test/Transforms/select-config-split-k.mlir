// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-select-config="database=%S/Inputs/tuning-db.json builtin=false" | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-select-config="database=%S/Inputs/tuning-db.json builtin=false sm-count=16" | FileCheck %s --check-prefix=FEW
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-select-config="database=%S/Inputs/tuning-db.json builtin=false split-k=false" | FileCheck %s --check-prefix=NOSPLIT
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-select-config="database=%S/Inputs/tuning-db.json builtin=false deterministic" | FileCheck %s --check-prefix=DET
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_80 family=ptx" --tgemm-select-config="database=%S/Inputs/tuning-db.json builtin=false deterministic" | FileCheck %s --check-prefix=DET
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/tuning-db.json builtin=false deterministic" | FileCheck %s --check-prefix=DET-WGMMA

// Split K by shape: where the tiles of a static problem leave more than
// half of the SMs idle (132 on sm_90, 108 on sm_80), the chosen config
// splits K into as many parts as fill them, each at least 4 granules of
// 256 deep, at most 16. With `deterministic` the split depends on the
// shape and the family alone (64 x 64 tiles for mma.sync, 128 x 128 for
// wgmma; 132 SMs), whatever the chip and config.

// 512 x 512 in the database's 64 x 128 tiles is 32 tiles: 132 / 32 = 4
// parts (K has 64 granules, enough for 16 of 4); deterministic, in 64 x
// 64 tiles, 64 tiles: 2 parts; for wgmma, in 128 x 128 tiles, 16 tiles:
// 8 parts (whatever its config's tile: here the default 128 x 256).
// CHECK-LABEL: func.func @deep
// CHECK: config(<block = [64, 128, 32], warps = [2, 2], stages = 5, split_k = 4>)
// FEW-LABEL: func.func @deep
// FEW: config(<block = [64, 128, 32], warps = [2, 2], stages = 5>)
// NOSPLIT-LABEL: func.func @deep
// NOSPLIT: config(<block = [64, 128, 32], warps = [2, 2], stages = 5>)
// DET-LABEL: func.func @deep
// DET: split_k = 2>
// DET-WGMMA-LABEL: func.func @deep
// DET-WGMMA: config(<block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8, split_k = 8>)
func.func @deep(%a: memref<512x16384xf16>, %b: memref<512x16384xf16>,
                %c: memref<512x512xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<512x16384xf16>, memref<512x16384xf16>, memref<512x512xf32>
  return
}

// -----

// K of 1000 is 4 granules: one part of 4 at most, so no split.
// CHECK-LABEL: func.func @shallow
// CHECK-NOT: split_k
// CHECK: return
// DET-LABEL: func.func @shallow
// DET-NOT: split_k
// DET: return
func.func @shallow(%a: memref<1000x1000xf16>, %b: memref<1000x1000xf16>,
                   %c: memref<1000x1000xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<1000x1000xf16>, memref<1000x1000xf16>, memref<1000x1000xf32>
  return
}

// -----

// Dynamic sizes: one kernel for every shape, never split.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: split_k
// CHECK: return
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                   %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// Enough tiles: 8192 x 8192 fills the chip.
// CHECK-LABEL: func.func @large
// CHECK-NOT: split_k
// CHECK: return
func.func @large(%a: memref<8192x8192xf16>, %b: memref<8192x8192xf16>,
                 %c: memref<8192x8192xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<8192x8192xf16>, memref<8192x8192xf16>, memref<8192x8192xf32>
  return
}

// -----

// The built-in database's wgmma entry for 512 x 512 x 16384 splits K 8
// ways. It is the nearest entry for 512 x 512 x 4096 too, but its split
// holds for its own shape only: here the rule's, 16 tiles of 128 x 128,
// 132 / 16 = 8 parts at most, but K = 4096 has 16 granules of 256, 4 parts
// of at least 4 granules; deterministic, the same. At its own shape the
// entry keeps its split, and deterministic takes the rule's (8 too).
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config | FileCheck %s --check-prefix=BUILTIN
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="deterministic" | FileCheck %s --check-prefix=BUILTIN-DET
// BUILTIN-LABEL: func.func @entry_split
// BUILTIN: split_k = 4>
// BUILTIN-DET-LABEL: func.func @entry_split
// BUILTIN-DET: split_k = 4>
func.func @entry_split(%a: memref<512x4096xf16>, %b: memref<512x4096xf16>,
                       %c: memref<512x512xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<512x4096xf16>, memref<512x4096xf16>, memref<512x512xf32>
  return
}

// -----

// BUILTIN-LABEL: func.func @entry_shape
// BUILTIN: config(<block = [128, 128, 64], warps = [8, 1], stages = 4, split_k = 8>)
// BUILTIN-DET-LABEL: func.func @entry_shape
// BUILTIN-DET: split_k = 8>
func.func @entry_shape(%a: memref<512x16384xf16>, %b: memref<512x16384xf16>,
                       %c: memref<512x512xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<512x16384xf16>, memref<512x16384xf16>, memref<512x512xf32>
  return
}

// -----

// A row-major B with M < 1024 is staged (the producer transposes it), so
// the 4096^3 entry's 4 stages of 128 x 256 x 128 exceed shared memory: 3
// fit. Deterministic, the rule's 2 parts are taken with the stages that
// fit, not passed over.
// BUILTIN-LABEL: func.func @staged_split
// BUILTIN: config(<block = [128, 256, 128], warps = [8, 1], stages = 3, raster = 8>)
// BUILTIN-DET-LABEL: func.func @staged_split
// BUILTIN-DET: config(<block = [128, 256, 128], warps = [8, 1], stages = 3, raster = 8, split_k = 2>)
func.func @staged_split(%a: memref<256x8192xi8>, %b: memref<8192x4096xi8>,
                        %c: memref<256x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      : memref<256x8192xi8>, memref<8192x4096xi8>, memref<256x4096xi32>
  return
}

// -----

// A batch of 8 at the entry's matrix size: 128 tiles fill the SMs, so the
// entry's own split (measured for one matrix) does not hold.
// BUILTIN-LABEL: func.func @entry_batch
// BUILTIN: config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
// BUILTIN-DET-LABEL: func.func @entry_batch
// BUILTIN-DET: config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
func.func @entry_batch(%a: memref<8x512x16384xf16>, %b: memref<8x512x16384xf16>,
                       %c: memref<8x512x512xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<8x512x16384xf16>, memref<8x512x16384xf16>, memref<8x512x512xf32>
  return
}
