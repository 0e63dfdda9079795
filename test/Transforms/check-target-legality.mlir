// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-check-target
// RUN: tgemm-opt %S/Inputs/legality-wmma.mlir --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_86 family=wmma" --tgemm-check-target

// The target check asks the legality module with the family's shared-memory
// plan: the rings with their row padding and the epilogue scratch, which is
// what the lowering lays out and the manifest's dynamic_shared_memory says.

// 7 stages of 128x64 f16 A and B tiles: 229376 bytes with the XOR swizzle,
// which fits sm_90 (232448).
func.func @xor_fits(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 7>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// The same rings padded by 16 bytes a row: 2 x 7 x 128 x 144 = 258048.
func.func @padded_rings(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the 7-stage pipeline needs 258048 bytes of shared memory; sm_90 allows a block 232448 bytes}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 7>)
      schedule(<swizzle = pad>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// mma.sync serves 8-bit MN-major operands with byte permutes, but not
// 4-bit ones (the check used to accept them and the lowering to fail).
func.func @int4_row_row(%a: memref<?x?xi4>, %b: memref<?x?xi4>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{the ptx lowering needs layout(row, col) for 'i4' operands: ldmatrix and prmt regroup whole bytes, not 4-bit elements, got layout(row, row)}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 128, 128], warps = [2, 2], stages = 3>)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}

// -----

// Every layout of 8-bit operands is legal...
func.func @int8_every_layout(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  tgemm.matmul %a, %b, %c layout(col, col) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  tgemm.matmul %a, %b, %c layout(col, row) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// ... but a row-major 8-bit B fills its n-fragments in pairs (an fp8
// warp tile may otherwise be 8 wide: wmma, whose n is 16, has no fp8).
func.func @fp8_row_b_narrow_warp(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{a row-major 'f8E4M3FN' B is read 16 columns at a time (two n-fragments from each 16-byte piece of a k-row): the warp tile N (8) must be a multiple of 16}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 32, 64], warps = [2, 4], stages = 3>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

// A column-major one is read 16 rows at a time: any warp tile N.
func.func @fp8_col_a_narrow_warp(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(f32)
      config(<block = [64, 32, 64], warps = [2, 4], stages = 3>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

// The XOR swizzle needs rows of 16, 32 or 64 bytes or a multiple of 128.
func.func @xor_rows(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{swizzle=xor cannot lay out tile rows of 96 bytes (it needs 16, 32, 64 or a multiple of 128); use swizzle=pad or another block tile}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 48], warps = [2, 2], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// A target written by the user, on the function, takes precedence over the
// module's: sm_80 has no fp8 mma.sync.
func.func @own_target(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>)
    attributes {tgemm.target = #tgemm.target<chip = "sm_80", family = ptx>} {
  // expected-error @+1 {{mma.sync with e4m3 operands needs sm_89 or newer; the target is sm_80}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

// What the check accepts, tgemm-tile compiles: the tensor form is
// bufferized first.
func.func @tensor_form(%a: tensor<128x64xf16>, %b: tensor<128x64xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  // expected-error @+1 {{works on tensors; bufferize it first (--one-shot-bufferize="bufferize-function-boundaries", which --tgemm-pipeline runs unless bufferize=false)}}
  %r = tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32> -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
