// RUN: tgemm-opt %s --split-input-file --verify-diagnostics

// The legality module's chip-free rules, asked by the tgemm.matmul verifier:
// what could never become a launchable kernel on any chip is an error at the
// op, with the rule's numbers.

// A GEMM with an empty dimension has no kernel to launch.
func.func @zero_m(%a: memref<0x64xf16>, %b: memref<64x64xf16>, %c: memref<0x64xf32>) {
  // expected-error @+1 {{M is 0: a GEMM needs every size to be at least 1}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<0x64xf16>, memref<64x64xf16>, memref<0x64xf32>
  return
}

// -----

func.func @zero_k(%a: memref<64x0xf16>, %b: memref<64x0xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{K is 0: a GEMM needs every size to be at least 1}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<64x0xf16>, memref<64x0xf16>, memref<64x64xf32>
  return
}

// -----

func.func @zero_batch(%a: memref<0x64x64xf16>, %b: memref<0x64x64xf16>, %c: memref<0x64x64xf32>) {
  // expected-error @+1 {{batch is 0: a GEMM needs every size to be at least 1}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<0x64x64xf16>, memref<0x64x64xf16>, memref<0x64x64xf32>
  return
}

// -----

// alpha and beta reach the manifest as JSON numbers: NaN and Inf have none.
func.func @nan_alpha(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{alpha (nan) must be a finite number}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) alpha(0x7FF8000000000000)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}

// -----

func.func @inf_beta(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{beta (inf) must be a finite number}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) beta(0x7FF0000000000000)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}

// -----

// A batch is the grid's z dimension: at most 65535 blocks.
func.func @big_batch(%a: memref<65536x64x64xf16>, %b: memref<65536x64x64xf16>, %c: memref<65536x64x64xf32>) {
  // expected-error @+1 {{a batch of 65536 needs 65536 blocks in the grid's z dimension; a launch allows at most 65535}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<65536x64x64xf16>, memref<65536x64x64xf16>, memref<65536x64x64xf32>
  return
}

// -----

// Block rows cover M in the grid's y dimension.
func.func @big_m(%a: memref<2147483648x64xf16>, %b: memref<64x64xf16>, %c: memref<2147483648x64xf32>) {
  // expected-error @+1 {{M = 2147483648 needs 16777216 block rows of 128; a launch allows at most 65535 (the grid's y dimension)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<2147483648x64xf16>, memref<64x64xf16>, memref<2147483648x64xf32>
  return
}

// -----

// The kernel reads and writes global memory: a pointer into another space
// would be reinterpreted.
func.func @shared_a(%a: memref<64x64xf16, 3>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{A must be in global memory (the default memory space), got memory space 3 : i64}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<64x64xf16, 3>, memref<64x64xf16>, memref<64x64xf32>
  return
}

// -----

func.func @workgroup_c(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{C must be in global memory (the default memory space), got memory space #gpu.address_space<workgroup>}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// Static strides must describe rows that do not overlap.
func.func @overlapping_rows(%a: memref<64x64xf16, strided<[1, 1]>>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{A's row stride (1) must be at least its row length (64): rows would overlap, in strided<[1, 1]>}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<64x64xf16, strided<[1, 1]>>, memref<64x64xf16>, memref<64x64xf32>
  return
}

// -----

func.func @zero_row_stride(%a: memref<64x64xf16>, %b: memref<64x64xf16, strided<[0, 1]>>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{B's row stride (0) must be at least its row length (64): rows would overlap, in strided<[0, 1]>}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<64x64xf16>, memref<64x64xf16, strided<[0, 1]>>, memref<64x64xf32>
  return
}

// -----

func.func @negative_row_stride(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32, strided<[-64, 1]>>) {
  // expected-error @+1 {{C's row stride (-64) must be at least its row length (64): rows would overlap, in strided<[-64, 1]>}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32, strided<[-64, 1]>>
  return
}

// -----

// Rows of packed nibbles start on bytes.
func.func @odd_i4_stride(%a: memref<64x64xi4, strided<[65, 1]>>, %b: memref<64x64xi4>, %c: memref<64x64xi32>) {
  // expected-error @+1 {{A's row stride (65) must be even: rows of 4-bit elements start on bytes, in strided<[65, 1]>}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<64x64xi4, strided<[65, 1]>>, memref<64x64xi4>, memref<64x64xi32>
  return
}

// -----

func.func @odd_i4_offset(%a: memref<64x64xi4, strided<[64, 1], offset: 3>>, %b: memref<64x64xi4>, %c: memref<64x64xi32>) {
  // expected-error @+1 {{A's offset (3) must be even: rows of 4-bit elements start on bytes, in strided<[64, 1], offset: 3>}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<64x64xi4, strided<[64, 1], offset: 3>>, memref<64x64xi4>, memref<64x64xi32>
  return
}

// -----

// Matrices of a batch must not overlap either.
func.func @overlapping_batch(%a: memref<4x64x64xf16, strided<[64, 64, 1]>>, %b: memref<4x64x64xf16>, %c: memref<4x64x64xf32>) {
  // expected-error @+1 {{A's batch stride (64) must be at least one matrix (4096 elements): matrices of the batch would overlap, in strided<[64, 64, 1]>}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<4x64x64xf16, strided<[64, 64, 1]>>, memref<4x64x64xf16>, memref<4x64x64xf32>
  return
}

// -----

// The accumulator lives in registers: a 64x2048 f32 warp tile would need
// 4096 of them per thread (and took minutes to compile).
func.func @warp_tile_registers(%a: memref<128x16xf16>, %b: memref<16x2048xf16>, %c: memref<128x2048xf32>) {
  // expected-error @+1 {{a 64x2048 warp tile holds 4096 accumulator registers per thread with wmma (m16n16, 8 per instruction); at most 192 fit beside the fragments (a thread has 255): use more warps or a smaller block tile}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 2048, 16], warps = [2, 1], stages = 1>)
      : memref<128x16xf16>, memref<16x2048xf16>, memref<128x2048xf32>
  return
}

// -----

// A schedule's padding is a small multiple of 16 bytes.
// expected-error @+1 {{padding (4294967312) must be a multiple of 16 bytes between 0 and 256}}
func.func @huge_padding() attributes {s = #tgemm.schedule<swizzle = pad, padding = 4294967312>} {
  return
}

// -----

// A cluster holds 1 or 2 blocks.
// expected-error @+1 {{cluster (3) must be between 1 and 2 blocks}}
func.func @big_cluster() attributes {s = #tgemm.schedule<warp_specialize = true, tma = true, cluster = 3>} {
  return
}

// -----

// expected-error @+2 {{unknown swizzle 'zig'; expected xor, pad or none}}
// expected-error @+1 {{failed to parse TGemm_ScheduleAttr parameter 'swizzle'}}
func.func @bad_swizzle() attributes {s = #tgemm.schedule<swizzle = zig>} {
  return
}

// -----

// expected-error @+2 {{expected 'true' or 'false', got 'maybe'}}
// expected-error @+1 {{failed to parse TGemm_ScheduleAttr parameter 'async_copy'}}
func.func @bad_flag() attributes {s = #tgemm.schedule<async_copy = maybe>} {
  return
}

// -----

// expected-error @+1 {{unknown chip 'sm90'; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a}}
func.func @bad_chip() attributes {t = #tgemm.target<chip = "sm90", family = ptx>} {
  return
}

// -----

// expected-error @+2 {{unknown instruction family 'tensor'; expected wmma, ptx or wgmma}}
// expected-error @+1 {{failed to parse TGemm_TargetAttr parameter 'family'}}
func.func @bad_family() attributes {t = #tgemm.target<chip = "sm_90", family = tensor>} {
  return
}
