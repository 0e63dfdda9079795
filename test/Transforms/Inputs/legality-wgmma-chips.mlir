// wgmma exists only on the sm_90a target: every other chip gets a
// diagnostic from tgemm-check-target (test/Transforms/check-target-wgmma.mlir).

module attributes {tgemm.target = #tgemm.target<chip = "sm_90", family = wgmma>} {
  func.func @sm90(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{wgmma is an architecture-specific instruction: it needs the sm_90a target, not sm_90}}
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
        config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
        : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
    return
  }
}

// -----

module attributes {tgemm.target = #tgemm.target<chip = "sm_89", family = wgmma>} {
  func.func @sm89(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{wgmma with f16 operands needs sm_90 or newer; the target is sm_89}}
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
        config(<block = [128, 128, 64], warps = [8, 1], stages = 2>)
        : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
    return
  }
}

// -----

module attributes {tgemm.target = #tgemm.target<chip = "sm_86", family = wgmma>} {
  func.func @sm86(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{wgmma with bf16 operands needs sm_90 or newer; the target is sm_86}}
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
        config(<block = [128, 128, 64], warps = [8, 1], stages = 2>)
        : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
    return
  }
}

// -----

module attributes {tgemm.target = #tgemm.target<chip = "sm_80", family = wgmma>} {
  func.func @sm80(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
    // expected-error @+1 {{wgmma with f16 operands needs sm_90 or newer; the target is sm_80}}
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
        config(<block = [128, 128, 64], warps = [8, 1], stages = 2>)
        : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
    return
  }
}
