// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-check-target
// RUN: tgemm-opt %S/Inputs/legality-wgmma-chips.mlir --split-input-file --verify-diagnostics --tgemm-check-target

// The wgmma family's rules, from the legality module: warpgroups of 4 warps
// stacked along M with 16 rows each, a block N one wgmma covers, 128-byte
// ring rows for the swizzled descriptors, MN-major 8-bit and tf32 operands
// transposed into shared memory (the staging rings' bytes), panels of a
// row-major B, the types it
// computes, the async copies it reads.

// Two warpgroups of 64 x 128, 4 stages of 128-byte rows: legal.
func.func @legal(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @warps_across_n(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{wgmma is issued by warpgroups of 4 warps stacked along M: warps must be [4k, 1], got [2, 2]}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @rows_per_warp(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{each warpgroup computes 64 rows (16 per warp): block tile M must be 16 x 4 warps = 64, got 128}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [4, 1], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @block_k(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the wgmma descriptors read 128-byte swizzled rows: block tile K must be 64 for bf16 (64 bytes), got 32}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [8, 1], stages = 4>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
  return
}

// -----

// Transposed 16-bit operands: legal in every layout.
func.func @layouts(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  tgemm.matmul %a, %b, %c layout(col, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      config(<block = [64, 64, 64], warps = [4, 1], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// MN-major 8-bit and tf32 operands are transposed on their way into shared
// memory (no wgmma transpose bit): legal in every layout.
func.func @layout_i8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(i32)
      config(<block = [128, 128, 128], warps = [8, 1], stages = 4>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 256, 128], warps = [8, 1], stages = 3>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

func.func @layout_tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 32], warps = [8, 1], stages = 4>)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}

// -----

// With TMA an 8-bit MN-major operand comes in through a staging ring of 2
// slots, which counts against the block's shared memory.
func.func @staging_shared_memory(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the 4-stage pipeline needs 262240 bytes of shared memory; sm_90a allows a block 232448 bytes, 65536 of them the staging rings of the MN-major operands it transposes: use fewer stages}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 128], warps = [8, 1], stages = 4>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

// A row-major B's ring holds 64-column panels.
func.func @row_major_b_panels(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{a row-major B is read in panels of 128 bytes: block tile N must be a multiple of 64 for bf16, got 96}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 96, 64], warps = [8, 1], stages = 4>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
  return
}

// -----

func.func @int4(%a: memref<?x?xi4>, %b: memref<?x?xi4>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{the wgmma lowering has no wgmma instruction for 'i4' x 'i4' -> 'i32'}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [128, 128, 256], warps = [8, 1], stages = 4>)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}

// -----

func.func @swizzle(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the wgmma lowering reads its rings through 128-byte swizzled descriptors: swizzle = pad is not available; use swizzle = xor}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<swizzle = pad>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @sync_copies(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the wgmma lowering copies tiles with cp.async: async_copy = false is not available}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<async_copy = false>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// Block N past one wgmma's 256.
func.func @wide(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{one wgmma covers the block tile N: a multiple of 8 up to 256, got 384}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 384, 64], warps = [4, 1], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// e4m3 has m64n40k32, and its 128-byte rows are 128 elements deep.
func.func @e4m3_n40(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 40, 128], warps = [4, 1], stages = 2>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

func.func @tf32_block_k(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the wgmma descriptors read 128-byte swizzled rows: block tile K must be 32 for f32 (256 bytes), got 64}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 2>)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}

// -----

// The warp-specialized schedule's knobs: TMA and setmaxnreg only with a
// producer warpgroup, and no refill order to choose.
func.func @tma_without_producer(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{tma needs warp_specialize = true: the producer warpgroup issues the copies and gives its registers to the consumers}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<tma = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @setmaxnreg_without_producer(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{setmaxnreg needs warp_specialize = true}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<setmaxnreg = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @setmaxnreg_with_cp_async(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{setmaxnreg needs tma = true: a producer that copies with cp.async needs its registers for the addresses}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, setmaxnreg = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @refill_order_warp_specialized(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{a warp-specialized kernel refills each stage as soon as its consumers release it: refill_after_mma and interleave_copies do not apply}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, refill_after_mma = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// 32 consumer warps are a block of 1024 threads, the most there is; the
// producer warpgroup does not fit beside them.
func.func @too_many_threads(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{32 consumer warps and the producer warpgroup are 1152 threads; a block has at most 1024}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [512, 16, 64], warps = [32, 1], stages = 2>)
      schedule(<warp_specialize = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// Three consumer warpgroups of 64 x 256 and the producer: 512 threads, 128
// registers each, all of them the accumulator's.
func.func @accumulator_beyond_the_budget(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{a 16x256 warp tile holds 128 accumulator registers per thread; a block of 512 threads leaves a thread 128 (65536 / 512, in steps of 8), and wgmma needs about 40 beside the accumulator: use fewer warps or a narrower block N}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [192, 256, 64], warps = [12, 1], stages = 3>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
