// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-select-config="report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX

// The built-in H200 database's shape classes (docs/tuning.md;
// bench/README.md, "Shape classes in the tuned database"): the entry
// nearest in log2 distance wins, and split K comes on top of it.

// Decode: wgmma takes one warpgroup of 64 x 128 and 4 parts (32 tiles x 4
// = 128 blocks); ptx a block of 16 rows (one mma.sync row of warps) x 64
// in 2 parts, the nearest entry to M = 1 being the one measured at M = 16.
// WGMMA: remark: config for sm_90a wgmma: block = [64, 128, 64], warps = [4, 1], stages = 4, raster = 1, split_k = 4; {{.*}} (tuned at 16x4096x4096)
// PTX: remark: config for sm_90 ptx: block = [16, 64, 128], warps = [1, 4], stages = 4, raster = 1, split_k = 2; {{.*}} (tuned at 16x4096x4096)
func.func @decode(%a: memref<1x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<1x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<1x4096xf16>, memref<4096x4096xf16>, memref<1x4096xf32>
  return
}

// -----

// 1000^3 (bf16): tiles that fill the SMs, K too shallow to split.
// WGMMA: remark: config for sm_90a wgmma: block = [64, 128, 64], warps = [4, 1], stages = 4, raster = 1; {{.*}} (tuned at 1000x1000x1000)
// PTX: remark: config for sm_90 ptx: block = [64, 64, 64], warps = [2, 2], stages = 4, raster = 1; {{.*}} (tuned at 1000x1000x1000)
func.func @cube(%a: memref<1000x1000xbf16>, %b: memref<1000x1000xbf16>, %c: memref<1000x1000xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<1000x1000xbf16>, memref<1000x1000xbf16>, memref<1000x1000xbf16>
  return
}

// -----

// Deep K keeps its own entries (the new classes do not capture it).
// WGMMA: remark: config for sm_90a wgmma: block = [128, 128, 128], warps = [8, 1], stages = 4, raster = 1, split_k = 8; {{.*}} (tuned at 512x512x16384)
// PTX: remark: config for sm_90 ptx: block = [64, 64, 256], warps = [2, 2], stages = 4, raster = 8, split_k = 2; {{.*}} (tuned at 512x512x16384)
func.func @deep(%a: memref<512x16384xi8>, %b: memref<512x16384xi8>, %c: memref<512x512xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<512x16384xi8>, memref<512x16384xi8>, memref<512x512xi32>
  return
}

// -----

// Large shapes keep the 4096^3-like classes.
// WGMMA: remark: config for sm_90a wgmma: block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8; {{.*}} (tuned at 8192x8192x8192)
// PTX: remark: config for sm_90 ptx: block = [128, 256, 64], warps = [2, 4], stages = 3, raster = 1; {{.*}} (tuned at 4096x11008x4096)
func.func @large(%a: memref<8192x8192xf16>, %b: memref<8192x8192xf16>, %c: memref<8192x8192xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<8192x8192xf16>, memref<8192x8192xf16>, memref<8192x8192xf32>
  return
}

// -----

// Where the decode class ends for wgmma: M = 128 is nearer to it (log2
// distance 3) than to 4096^3 (5); at M = 256 both are 4 away and the
// 4096^3 entry, earlier in the database, wins.
// WGMMA: remark: config for sm_90a wgmma: block = [64, 128, 64], warps = [4, 1], stages = 4, raster = 1, split_k = 2; {{.*}} (tuned at 16x4096x4096)
// PTX: remark: config for sm_90 ptx: {{.*}} (tuned at 128x4096x4096)
func.func @m128(%a: memref<128x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<128x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<128x4096xf16>, memref<4096x4096xf16>, memref<128x4096xf32>
  return
}

// -----

// WGMMA: remark: config for sm_90a wgmma: block = [128, 256, 64], {{.*}} (tuned at 4096x4096x4096)
func.func @m256(%a: memref<256x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<256x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<256x4096xf16>, memref<4096x4096xf16>, memref<256x4096xf32>
  return
}

// -----

// A GEMM of short K at 4096^2-like sizes (bf16): wgmma's entry there was
// measured at 4095 x 4097 x 999 one block per tile (the persistent 4096^3
// entry's grid lost 11%); both families copy the 2-byte aligned operands
// with aligned rows first (align_kernel).
// WGMMA: remark: config for sm_90a wgmma: block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8; #tgemm.schedule<warp_specialize = true, tma = true, align_kernel = true> (tuned at 4096x4096x1024)
// PTX: remark: config for sm_90 ptx: {{.*}}align_kernel = true> (tuned at 4096x4096x4096)
func.func @short_k_odd(%a: memref<4095x999xbf16>, %b: memref<4097x999xbf16>, %c: memref<4095x4097xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<4095x999xbf16>, memref<4097x999xbf16>, memref<4095x4097xbf16>
  return
}

// -----

// Decodes of 23 to 45 rows (f16, bf16) or 63 (s8) take ptx's entry at
// M = 32 (a block of 32 rows in 2 parts: 0.92-0.99x cuBLAS there, against
// 0.81-1.01x for the 16-row entry's block); s8 has no entry at M = 64, where 32 and 128 tie (log2 distance
// 1) and the 128 entry, earlier in the database, wins.
// PTX: remark: config for sm_90 ptx: block = [32, 64, 256], warps = [1, 4], stages = 4, raster = 1, split_k = 2; {{.*}} (tuned at 32x4096x4096)
func.func @m32(%a: memref<32x4096xi8>, %b: memref<4096x4096xi8>, %c: memref<32x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<32x4096xi8>, memref<4096x4096xi8>, memref<32x4096xi32>
  return
}

// -----

// PTX: remark: config for sm_90 ptx: block = [64, 64, 256], warps = [2, 2], stages = 4, raster = 8, split_k = 2; {{.*}} (tuned at 128x4096x4096)
func.func @m64_s8(%a: memref<64x4096xi8>, %b: memref<4096x4096xi8>, %c: memref<64x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<64x4096xi8>, memref<4096x4096xi8>, memref<64x4096xi32>
  return
}

// -----

// f16 and bf16 from 46 rows take the entry at M = 64 (64 x 64 in 2 parts),
// where the 32-row block, unsplit with 2 rows of tiles, lost 11% at M = 48.
// PTX: remark: config for sm_90 ptx: block = [64, 64, 128], warps = [2, 2], stages = 4, raster = 1, split_k = 2; {{.*}} (tuned at 64x4096x4096)
func.func @m48(%a: memref<48x4096xbf16>, %b: memref<4096x4096xbf16>, %c: memref<48x4096xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<48x4096xbf16>, memref<4096x4096xbf16>, memref<48x4096xbf16>
  return
}
