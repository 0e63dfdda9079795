// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-check-target="report-layouts"

// The wgmma family reads 8-bit and tf32 operands K-major only; report-layouts
// says how it serves an MN-major one under the op's schedule: staged by the
// copy engine and transposed by the producer (8-bit with TMA), or copied
// through registers (tf32, or 8-bit without TMA). 16-bit operands go
// through the instruction's transpose bits: no remark.

func.func @e4m3_row_row(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-remark @+1 {{B (e4m3, stored K x N) is MN-major: the wgmma lowering loads it with a transpose on its way into shared memory (the copy engine fills a staging ring as stored; the producer warpgroup transposes it with prmt)}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 128], warps = [8, 1], stages = 3>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

func.func @s8_col_col_no_tma(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-remark @+1 {{A (s8, stored K x M) is MN-major: the wgmma lowering loads it with a transpose on its way into shared memory (copies through registers, the producer copying with cp.async: no TMA)}}
  tgemm.matmul %a, %b, %c layout(col, col) acc(i32)
      config(<block = [128, 128, 128], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

func.func @tf32_row_row(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-remark @+1 {{B (tf32, stored K x N) is MN-major: the wgmma lowering loads it with a transpose on its way into shared memory (copies through registers, the producer copying with cp.async: no TMA)}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}

// -----

func.func @f16_col_row(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
