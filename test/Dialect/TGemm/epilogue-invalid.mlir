// RUN: tgemm-opt %s --split-input-file --verify-diagnostics

// Every diagnostic of a fused epilogue: the syntax, the operands the steps
// read, and the legality module's rules.

func.func @unknown_step(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // expected-error @+2 {{unknown epilogue step 'gelu'; expected one of bias, scale, residual, relu, gelu_tanh, gelu_erf, silu}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(gelu) : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @no_broadcast(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %x: memref<?xf32>) {
  // expected-error @+2 {{'bias' takes a broadcast: bias(row), bias(col) or bias(scalar)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(bias %x : memref<?xf32>) : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @bad_broadcast(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %x: memref<?xf32>) {
  // expected-error @+2 {{unknown broadcast 'column'; expected row, col or scalar}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(scale(column) %x : memref<?xf32>) : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @empty(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  // expected-error @+2 {{an epilogue lists at least one step}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue() : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @operand_type(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %x: memref<?xi32>) {
  // expected-error @+1 {{epilogue step 0 (bias) reads 'i32'; epilogue operands are f32, f16 or bf16}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(bias(col) %x : memref<?xi32>) : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @vector_rank(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %x: memref<?x?xf32>) {
  // expected-error @+1 {{epilogue step 1 (scale) reads 'memref<?x?xf32>'; a bias or scale is a vector (rank 1)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(relu, scale(row) %x : memref<?x?xf32>) : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @vector_size(%a: memref<128x64xf16>, %b: memref<256x64xf16>, %c: memref<128x256xf16>, %x: memref<128xf32>) {
  // expected-error @+1 {{epilogue step 0 (bias) reads 128 element(s); a col broadcast needs 256 (C's columns)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(bias(col) %x : memref<128xf32>) : memref<128x64xf16>, memref<256x64xf16>, memref<128x256xf16>
  return
}

// -----

func.func @scalar_size(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %x: memref<2xf32>) {
  // expected-error @+1 {{epilogue step 0 (scale) reads 2 element(s); a scalar broadcast needs 1}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(scale(scalar) %x : memref<2xf32>) : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @residual_rank(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %r: memref<?xf16>) {
  // expected-error @+1 {{epilogue step 0 (residual) reads 'memref<?xf16>'; a residual has C's rank (2)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(residual %r : memref<?xf16>) : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @residual_shape(%a: memref<128x64xf16>, %b: memref<256x64xf16>, %c: memref<128x256xf16>, %r: memref<128x128xf16>) {
  // expected-error @+1 {{epilogue step 0 (residual) reads 'memref<128x128xf16>', whose dimension 1 (128) does not match C's (256)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(residual %r : memref<128x128xf16>) : memref<128x64xf16>, memref<256x64xf16>, memref<128x256xf16>
  return
}

// -----

func.func @residual_strided(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %r: memref<?x?xf16, strided<[?, 1]>>) {
  // expected-error @+1 {{epilogue step 0 (residual) reads 'memref<?x?xf16, strided<[?, 1]>>'; epilogue operands are packed (an identity layout)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(residual %r : memref<?x?xf16, strided<[?, 1]>>) : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @memory_space(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %x: memref<?xf32, 3>) {
  // expected-error @+1 {{epilogue step 0 (bias) reads memory space 3 : i64; epilogue operands are in global memory}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(bias(col) %x : memref<?xf32, 3>) : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>
  return
}

// -----

func.func @int_c(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{an i32 C takes no epilogue steps (got relu): the steps compute in f32; write an f32, f16 or bf16 C to dequantize}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32) epilogue(relu)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

func.func @operand_count(%acc: !tgemm.acc<32x32xf32>, %c: memref<?x?xf32>, %i: index, %x: memref<?xf32>) {
  // expected-error @+1 {{has 1 epilogue operand(s), but no epilogue to read them}}
  "tgemm.store_tile"(%acc, %c, %i, %i, %x) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>}
      : (!tgemm.acc<32x32xf32>, memref<?x?xf32>, index, index, memref<?xf32>) -> ()
  return
}

// -----

func.func @step_count(%acc: !tgemm.acc<32x32xf32>, %c: memref<?x?xf32>, %i: index, %x: memref<?xf32>) {
  // expected-error @+1 {{has 1 epilogue operand(s), but its epilogue's steps read 2}}
  "tgemm.store_tile"(%acc, %c, %i, %i, %x) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>,
      epilogue = [#tgemm.epilogue_step<bias(col)>, #tgemm.epilogue_step<scale(row)>]}
      : (!tgemm.acc<32x32xf32>, memref<?x?xf32>, index, index, memref<?xf32>) -> ()
  return
}

// -----

// The tile ops (store_tile, reduce_splits) take strided epilogue operands,
// but each row must be contiguous: a bias vector with stride 2 is refused.
func.func @store_tile_strided(%acc: !tgemm.acc<32x32xf32>, %c: memref<?x?xf32>, %i: index,
                              %x: memref<?xf32, strided<[2]>>) {
  // expected-error @+1 {{'tgemm.store_tile' op epilogue step 0 (bias) reads 'memref<?xf32, strided<[2]>>'; epilogue operands have unit stride within a row}}
  tgemm.store_tile %acc, %c[%i, %i] epilogue(bias(col) %x : memref<?xf32, strided<[2]>>)
      : !tgemm.acc<32x32xf32>, memref<?x?xf32>
  return
}

// -----

// A column-major residual (innermost stride dynamic) under reduce_splits.
func.func @reduce_splits_strided(%parts: memref<2x?x?xf32>, %sem: memref<?xi32>, %c: memref<?x?xf32>,
                                 %i: index, %r: memref<?x?xf32, strided<[1, ?]>>) {
  // expected-error @+1 {{'tgemm.reduce_splits' op epilogue step 0 (residual) reads 'memref<?x?xf32, strided<[1, ?]>>'; epilogue operands have unit stride within a row}}
  tgemm.reduce_splits %parts, %sem[%i], %c[%i, %i] tile [64, 64]
      epilogue(residual %r : memref<?x?xf32, strided<[1, ?]>>)
      : memref<2x?x?xf32>, memref<?xi32>, memref<?x?xf32>
  return
}
