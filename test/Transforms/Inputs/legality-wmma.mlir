// Cases of check-target-legality.mlir for the wmma family on sm_86.

// 3 stages of padded 128x64 f16 rings (110592 bytes) and 4 KiB of per-warp
// epilogue scratch after them: 114688 bytes, over sm_86's 101376.
func.func @wmma_rings(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the 3-stage pipeline needs 114688 bytes of shared memory; sm_86 allows a block 101376 bytes}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// Knobs the wmma family does not have are errors, not silently ignored.
func.func @wmma_xor(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the wmma lowering pads its rings' rows (wmma.load takes a row stride): swizzle = xor is not available; use swizzle = pad}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      schedule(<swizzle = xor>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @wmma_ldmatrix(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the wmma lowering loads fragments with wmma.load: ldmatrix = false is a ptx lowering option}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      schedule(<ldmatrix = false, swizzle = pad>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @wmma_prefetch(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the wmma lowering cannot carry fragments across the barrier (wmma fragments are opaque): prefetch_fragments needs the ptx lowering}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      schedule(<prefetch_fragments = true, swizzle = pad>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
