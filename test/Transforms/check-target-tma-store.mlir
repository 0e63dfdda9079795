// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-check-target
// RUN: not tgemm-opt %S/Inputs/tma-store-ptx.mlir --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-check-target 2>&1 | FileCheck %s --check-prefix=PTX

// A bulk tensor store of C (schedule `tma_store`), from the legality
// module: the wgmma family's, with TMA (the runtime makes C's map beside
// A's and B's); each warp stores boxes of 16 rows of 128 bytes, so a warp
// tile's row of C is whole 128-byte lines; no split K, whose parts go to
// the workspace.
// PTX: error: 'tgemm.matmul' op tma_store is a wgmma knob (bulk tensor stores on sm_90a); the ptx lowering has none

func.func @legal(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, persistent = true, cluster = 2, tma_store = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// An f16 C: 64 columns are one line.
func.func @legal_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 64, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, tma_store = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @no_tma(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{tma_store needs tma = true: the kernel stores through a tensor map only where the runtime made its maps, which a cp.async producer does not ask for}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma_store = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @split_k(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{tma_store with split_k = 2: a split kernel's blocks store parts to the workspace and the last one sums them, which the bulk store does not do; use one of them}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, split_k = 2>)
      schedule(<warp_specialize = true, tma = true, tma_store = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// 48 columns of f32 are 192 bytes: one line and a half.
func.func @partial_line(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{tma_store: a warp tile's row of C is 48 columns of 'f32' (192 bytes), and the bulk store writes whole 128-byte lines; use a block N per warp column of a multiple of 32}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 48, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, tma_store = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
