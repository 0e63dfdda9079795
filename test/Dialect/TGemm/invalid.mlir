// RUN: tgemm-opt %s --split-input-file --verify-diagnostics

// Every diagnostic of the tgemm.matmul and #tgemm.config verifiers.

// A config names three block sizes.
// expected-error @+1 {{block must list 3 sizes [M, N, K], got 2}}
func.func @block_rank() attributes {c = #tgemm.config<block = [128, 128], warps = [2, 2], stages = 3>} {
  return
}

// -----

// expected-error @+1 {{warps must list 2 sizes [M, N], got 3}}
func.func @warps_rank() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2, 1], stages = 3>} {
  return
}

// -----

// expected-error @+1 {{block tile N (0) must be between 1 and 65536}}
func.func @block_zero() attributes {c = #tgemm.config<block = [128, 0, 32], warps = [2, 2], stages = 3>} {
  return
}

// -----

// Huge sizes are rejected before any product of them can overflow.
// expected-error @+1 {{block tile K (9223372036854775807) must be between 1 and 65536}}
func.func @block_huge() attributes {c = #tgemm.config<block = [128, 128, 9223372036854775807], warps = [2, 2], stages = 3>} {
  return
}

// -----

// expected-error @+1 {{warp grid M (-2) must be between 1 and 32}}
func.func @warps_negative() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [-2, 2], stages = 3>} {
  return
}

// -----

// expected-error @+1 {{stages (0) must be between 1 and 8}}
func.func @stages_zero() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 0>} {
  return
}

// -----

// expected-error @+1 {{stages (9) must be between 1 and 8}}
func.func @stages_many() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 9>} {
  return
}

// -----

// expected-error @+1 {{raster (0) must be between 1 and 65536}}
func.func @raster_zero() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 3, raster = 0>} {
  return
}

// -----

// expected-error @+1 {{block tile N (96) must be divisible by the warp grid N (5)}}
func.func @warp_grid_divides() attributes {c = #tgemm.config<block = [128, 96, 32], warps = [2, 5], stages = 3>} {
  return
}

// -----

// expected-error @+1 {{warp grid 8x8 makes 2048 threads; a block holds at most 1024}}
func.func @too_many_threads() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [8, 8], stages = 3>} {
  return
}

// -----

// Views with any row stride are accepted; a row's elements must be adjacent.
func.func @strided(%a: memref<128x64xf16, strided<[1, 128]>>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{'tgemm.matmul' op A must have unit stride within a row (a strided view with innermost stride 1), got strided<[1, 128]>}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<128x64xf16, strided<[1, 128]>>, memref<64x128xf16>, memref<128x128xf32>
  return
}

// -----

// A col-major is stored K x M: here M = 64, but C has 128 rows.
func.func @m_mismatch(%a: memref<128x64xf16>, %b: memref<128x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{M of A (64) does not match M of C (128)}}
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<128x64xf16>, memref<128x128xf16>, memref<128x128xf32>
  return
}

// -----

// B col-major is stored N x K: here N = 64, but C has 128 columns.
func.func @n_mismatch(%a: memref<128x32xf16>, %b: memref<64x32xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{N of B (64) does not match N of C (128)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<128x32xf16>, memref<64x32xf16>, memref<128x128xf32>
  return
}

// -----

func.func @k_mismatch(%a: memref<128x32xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{K of A (32) does not match K of B (64)}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<128x32xf16>, memref<64x128xf16>, memref<128x128xf32>
  return
}

// -----

// Mixed operand types have no instruction.
func.func @mixed_types(%a: memref<?x?xf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{no tensor-core instruction multiplies A of 'f16' by B of 'bf16'}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xf16>, memref<?x?xbf16>, memref<?x?xf32>
  return
}

// -----

// bf16 only accumulates in f32.
func.func @bf16_f16_acc(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{accumulator 'f16' is not available for 'bf16' operands; legal accumulators: f32}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f16)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf16>
  return
}

// -----

// Integer operands accumulate exactly, in i32 only.
func.func @int8_f32_acc(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{accumulator 'f32' is not available for 'i8' operands; legal accumulators: i32}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 64], warps = [2, 2], stages = 2>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xf32>
  return
}

// -----

// An f16 accumulator converts to f16 or f32, not bf16.
func.func @f16_acc_bf16_out(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xbf16>) {
  // expected-error @+1 {{C of 'bf16' cannot be produced from an 'f16' accumulator; legal C element types: f32, f16}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f16)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xbf16>
  return
}

// -----

func.func @int_alpha(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{alpha (0.5) must be a 32-bit integer with an i32 C}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32) alpha(0.5)
      config(<block = [64, 64, 64], warps = [2, 2], stages = 2>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

func.func @int_beta(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{beta (4e+12) must be a 32-bit integer with an i32 C}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32) beta(4.0e12)
      config(<block = [64, 64, 64], warps = [2, 2], stages = 2>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// 64 / 8 warps = 8 rows per warp, less than the 16 rows of every f16 instruction.
func.func @warp_tile_m(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{warp tile M (8 = block tile M 64 / 8 warps) must be a multiple of the instruction M (16) of wmma, mma.sync and wgmma for f16}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [8, 1], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// mma.sync alone would take N = 8 per warp; wmma needs 16, and a verified
// op must lower both ways.
func.func @warp_tile_n(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{warp tile N (8 = block tile N 32 / 4 warps) must be a multiple of the instruction N (16) of wmma, mma.sync and wgmma for f16}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 32, 32], warps = [1, 4], stages = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// s8: mma.sync m16n8k32 sets K = 32.
func.func @block_k(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{block tile K (16) must be a multiple of the instruction K (32) of wmma, mma.sync and wgmma for i8}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [64, 64, 16], warps = [2, 2], stages = 2>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// fp8 exists only as mma.sync, so only its shape is named.
func.func @block_k_fp8(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{block tile K (16) must be a multiple of the instruction K (32) of mma.sync and wgmma for f8E4M3FN}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 16], warps = [2, 2], stages = 2>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

// 8 stages x (256x128 + 128x256) f16 = 1 MiB: no chip has that much.
func.func @shared_memory(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the 8-stage pipeline needs 1048576 bytes of shared memory, more than any chip allows a block (largest: 232448 bytes on sm_90)}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [256, 256, 128], warps = [4, 4], stages = 8>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// 4-bit B stored row-major (K x N): a 16-wide tile row is 8 bytes, less
// than one 16-byte copy.
func.func @row_bytes(%a: memref<?x?xi4>, %b: memref<?x?xi4>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{a stored row of the B tile (block tile N = 16 x 4 bits) must be a multiple of 16 bytes for vectorized copies}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [32, 16, 64], warps = [2, 2], stages = 2>)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}

// -----

func.func @batch_mismatch(%a: memref<2x64x64xf16>, %b: memref<3x64x64xf16>, %c: memref<2x64x64xf32>) {
  // expected-error @+1 {{batch of B (3) does not match batch of C (2)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<2x64x64xf16>, memref<3x64x64xf16>, memref<2x64x64xf32>
  return
}

// -----

func.func @batch_inner_stride(%a: memref<2x64x64xf16, strided<[4096, 1, 64]>>, %b: memref<2x64x64xf16>, %c: memref<2x64x64xf32>) {
  // expected-error @+1 {{A must have unit stride within a row}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<2x64x64xf16, strided<[4096, 1, 64]>>, memref<2x64x64xf16>, memref<2x64x64xf32>
  return
}

// -----

// expected-error @+1 {{split_k (0) must be between 1 and 256}}
func.func @split_zero() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 3, split_k = 0>} {
  return
}

// -----

// expected-error @+1 {{split_k (257) must be between 1 and 256}}
func.func @split_huge() attributes {c = #tgemm.config<block = [128, 128, 32], warps = [2, 2], stages = 3, split_k = 257>} {
  return
}

// -----

// One form: tensors or memrefs, not both.
func.func @mixed_forms(%a: tensor<64x64xf16>, %b: memref<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{B is a memref but C is a tensor; A, B and C are all tensors or all memrefs}}
  %r = tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : tensor<64x64xf16>, memref<64x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

func.func @tensor_a_memref_c(%a: tensor<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{A is a tensor but C is a memref; A, B and C are all tensors or all memrefs}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : tensor<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}

// -----

// On tensors the product is the result (destination style).
func.func @tensor_without_result(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  return
}

// -----

func.func @result_not_c(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{expected type of operand #2 ('tensor<64x64xf32>') to match type of corresponding result ('tensor<?x?xf32>')}}
  %r = tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

func.func @epilogue_memref_on_tensors(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>,
                                      %bias: memref<64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{epilogue step 0 (bias) reads 'memref<64xf32>'; on tensors every operand is one}}
  %r = tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(bias(col) %bias : memref<64xf32>)
      : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

func.func @epilogue_tensor_on_memrefs(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>,
                                      %bias: tensor<64xf32>) {
  // expected-error @+1 {{epilogue step 0 (bias) reads 'tensor<64xf32>'; on memrefs every operand is one}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(bias(col) %bias : tensor<64xf32>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}

// -----

// Shapes are checked on tensors as on memrefs.
func.func @tensor_shapes(%a: tensor<64x32xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{K of A (32) does not match K of B (64)}}
  %r = tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : tensor<64x32xf16>, tensor<64x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// `unsigned` reinterprets signless bytes; a typed operand keeps its type.
func.func @unsigned_not_bytes(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{'tgemm.matmul' op 'unsigned' reads signless i8 operands as unsigned bytes, but A has element type 'f16'}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32) unsigned
      : memref<128x64xf16>, memref<64x128xf16>, memref<128x128xf32>
  return
}

// -----

func.func @unsigned_ui8(%a: memref<128x64xi8>, %b: memref<64x128xui8>, %c: memref<128x128xi32>) {
  // expected-error @+1 {{'tgemm.matmul' op 'unsigned' reads signless i8 operands as unsigned bytes, but B has element type 'ui8'}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32) unsigned
      : memref<128x64xi8>, memref<64x128xui8>, memref<128x128xi32>
  return
}
