// RUN: tgemm-opt %s --split-input-file --verify-diagnostics

// Parse-time errors: malformed custom syntax and types outside the op's
// constraints, each reported at its location.

func.func @bad_layout(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{expected layout 'row' or 'col', got 'diag'}}
  tgemm.matmul %a, %b, %c layout(row, diag) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @f64_operand(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  // expected-error @+1 {{operand #0 must be 2D/3D memref or tensor of f16, bf16, f32 (computed as tf32), i8, ui8, i4, f8E4M3FN or f8E5M2 values, but got}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>
  return
}

// -----

func.func @rank3(%a: memref<2x?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{A, B and C must all be matrices (rank 2) or all batches of matrices (rank 3), got ranks 3, 2 and 2}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<2x?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @i64_acc(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{attribute 'acc' failed to satisfy constraint}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i64)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

func.func @rank4(%a: memref<2x2x?x?xf16>, %b: memref<2x2x?x?xf16>, %c: memref<2x2x?x?xf32>) {
  // expected-error @+1 {{operand #0 must be 2D/3D memref or tensor of f16, bf16, f32 (computed as tf32), i8, ui8, i4, f8E4M3FN or f8E5M2 values, but got}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<2x2x?x?xf16>, memref<2x2x?x?xf16>, memref<2x2x?x?xf32>
  return
}

// -----

func.func @config_without_parens(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
  // expected-error @+1 {{expected '('}}
      config <block = [64, 64, 32], warps = [2, 2], stages = 2>
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// expected-error @+1 {{expected 'block'}}
func.func @config_typo() attributes {c = #tgemm.config<blocks = [64, 64, 32], warps = [2, 2], stages = 2>} {
  return
}

// -----

// expected-error @+1 {{unknown attribute `tile` in dialect `tgemm`}}
func.func @unknown_attr() attributes {c = #tgemm.tile<64>} {
  return
}

// -----

// expected-error @+1 {{unknown config field 'splitk' (expected raster or split_k)}}
func.func @config_field_typo() attributes {c = #tgemm.config<block = [64, 64, 32], warps = [2, 2], stages = 2, splitk = 4>} {
  return
}

// -----

// expected-error @+1 {{config field 'split_k' given twice}}
func.func @config_field_twice() attributes {c = #tgemm.config<block = [64, 64, 32], warps = [2, 2], stages = 2, split_k = 2, split_k = 4>} {
  return
}
