// RUN: tgemm-opt %s --split-input-file --verify-diagnostics

// Every diagnostic of the kernel-level tile ops and types.

// expected-error @+1 {{shared-memory ring sizes must be positive, got 0x128x32}}
func.func @ring_size(%s: !tgemm.smem<0x128x32xf16>) {
  return
}

// -----

// expected-error @+1 {{shared-memory ring of 'f64': not a tensor-core operand type}}
func.func @ring_type(%s: !tgemm.smem<2x128x32xf64>) {
  return
}

// -----

// Sizes are multiplied out without overflow: a ring past 32-bit shared
// addresses is refused, however large its sizes.
// expected-error @+1 {{a shared-memory ring of 2x4611686018427387904x4 'f16' elements is over 4 GiB, past 32-bit shared addresses}}
func.func @ring_huge(%s: !tgemm.smem<2x4611686018427387904x4xf16>) {
  return
}

// -----

// expected-error @+1 {{a shared-memory ring of 1x65536x65536 'f16' elements is over 4 GiB}}
func.func @ring_over_4gib(%s: !tgemm.smem<1x65536x65536xf16>) {
  return
}

// -----

// expected-error @+1 {{expected 3 sizes, got 2}}
func.func @ring_rank(%s: !tgemm.smem<128x32xf16>) {
  return
}

// -----

// expected-error @+1 {{accumulator of 'bf16': expected f32, f16 or i32}}
func.func @acc_type(%a: !tgemm.acc<64x64xbf16>) {
  return
}

// -----

// expected-error @+1 {{accumulator sizes must be positive, got 64x0}}
func.func @acc_size(%a: !tgemm.acc<64x0xf32>) {
  return
}

// -----

// expected-error @+1 {{an accumulator of 9223372036854775807x2 'f32' elements is over 4 GiB}}
func.func @acc_huge(%a: !tgemm.acc<9223372036854775807x2xf32>) {
  return
}

// -----

func.func @copy_type(%a: memref<?x?xbf16>, %i: index) {
  %s = tgemm.alloc_smem : !tgemm.smem<2x64x32xf16>
  // expected-error @+1 {{copies 'bf16' into a ring of 'f16'}}
  tgemm.copy_tile %a[%i, %i], %s[%i] : memref<?x?xbf16>, !tgemm.smem<2x64x32xf16>
  return
}

// -----

// A is 64 x 32 (row); B col is stored N x K = 64 x 16: K differs.
func.func @depth(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x16xf16>,
                 %acc: !tgemm.acc<32x32xf32>, %i: index) {
  // expected-error @+1 {{A tiles are 32 deep but B tiles are 16 deep}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col)
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x16xf16>, !tgemm.acc<32x32xf32>
  return
}

// -----

func.func @acc_too_big(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>,
                       %acc: !tgemm.acc<128x32xf32>, %i: index) {
  // expected-error @+1 {{a 128x32 accumulator does not fit the 64x64 block tile}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col)
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.acc<128x32xf32>
  return
}

// -----

func.func @mma_types(%sa: !tgemm.smem<2x64x32xbf16>, %sb: !tgemm.smem<2x64x32xbf16>,
                     %acc: !tgemm.acc<32x32xf16>, %i: index) {
  // expected-error @+1 {{no tensor-core instruction computes 'bf16' x 'bf16' -> 'f16'}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col)
      : !tgemm.smem<2x64x32xbf16>, !tgemm.smem<2x64x32xbf16>, !tgemm.acc<32x32xf16>
  return
}

// -----

func.func @store_type(%acc: !tgemm.acc<32x32xf32>, %c: memref<?x?xi32>, %i: index) {
  // expected-error @+1 {{cannot write a 'f32' accumulator to 'i32'}}
  tgemm.store_tile %acc, %c[%i, %i] : !tgemm.acc<32x32xf32>, memref<?x?xi32>
  return
}

// -----

func.func @slice_values(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>,
                        %acc: !tgemm.acc<32x32xf32>, %i: index) {
  // expected-error @+1 {{k_slice takes [offset, size], got 3 values}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col) k_slice [0, 16, 16]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.acc<32x32xf32>
  return
}

// -----

func.func @slice_past_depth(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>,
                            %acc: !tgemm.acc<32x32xf32>, %i: index) {
  // expected-error @+1 {{k_slice [16, 32] is not a non-empty part of the stage's 32 elements of K}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col) k_slice [16, 32]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.acc<32x32xf32>
  return
}

// -----

// The bound is checked without overflow: offset + size here is past int64.
func.func @slice_overflow(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>,
                          %acc: !tgemm.acc<32x32xf32>, %i: index) {
  // expected-error @+1 {{k_slice [16, 9223372036854775807] is not a non-empty part of the stage's 32 elements of K}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col) k_slice [16, 9223372036854775807]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.acc<32x32xf32>
  return
}

// -----

func.func @slice_empty(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>,
                       %acc: !tgemm.acc<32x32xf32>, %i: index) {
  // expected-error @+1 {{k_slice [0, 0] is not a non-empty part of the stage's 32 elements of K}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col) k_slice [0, 0]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.acc<32x32xf32>
  return
}

// -----

func.func @frags_slice(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>, %i: index) {
  // expected-error @+1 {{a k_slice of 16 elements does not make '!tgemm.frags<32x32x32xf16>'}}
  %f = tgemm.load_frags %sa[%i], %sb[%i] at [%i, %i] layout(row, col) k_slice [0, 16]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.frags<32x32x32xf16>
  return
}

// -----

func.func @frags_type(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>, %i: index) {
  // expected-error @+1 {{loads '!tgemm.frags<32x32x16xbf16>' from rings of 'f16' and 'f16'}}
  %f = tgemm.load_frags %sa[%i], %sb[%i] at [%i, %i] layout(row, col) k_slice [0, 16]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.frags<32x32x16xbf16>
  return
}

// -----

// The fragments are named by A's type; B's may differ in format (mixed fp8)
// but not in width: an f16 B ring under f8E4M3FN fragments is refused.
func.func @frags_width(%sa: !tgemm.smem<2x64x32xf8E4M3FN>, %sb: !tgemm.smem<2x64x32xf16>, %i: index) {
  // expected-error @+1 {{'tgemm.load_frags' op loads '!tgemm.frags<32x32x16xf8E4M3FN>' from rings of 'f8E4M3FN' and 'f16': the fragments take A's type, and B's must be as wide}}
  %f = tgemm.load_frags %sa[%i], %sb[%i] at [%i, %i] layout(row, col) k_slice [0, 16]
      : !tgemm.smem<2x64x32xf8E4M3FN>, !tgemm.smem<2x64x32xf16>, !tgemm.frags<32x32x16xf8E4M3FN>
  return
}

// -----

func.func @frags_fit(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>, %i: index) {
  // expected-error @+1 {{fragments of a 128x32 warp tile do not fit the 64x64 block tile}}
  %f = tgemm.load_frags %sa[%i], %sb[%i] at [%i, %i] layout(row, col) k_slice [16, 16]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.frags<128x32x16xf16>
  return
}

// -----

func.func @frags_range(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>, %i: index) {
  // expected-error @+1 {{k_slice [24, 16] is not a non-empty part of the stage's 32 elements of K}}
  %f = tgemm.load_frags %sa[%i], %sb[%i] at [%i, %i] layout(row, col) k_slice [24, 16]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.frags<32x32x16xf16>
  return
}

// -----

func.func @using_mismatch(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>,
                          %acc: !tgemm.acc<32x32xf32>, %f: !tgemm.frags<32x64x16xf16>, %i: index) {
  // expected-error @+1 {{cannot start a 32x32x32 multiply of 'f16' with '!tgemm.frags<32x64x16xf16>'}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col)
      using(%f : !tgemm.frags<32x64x16xf16>)
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.acc<32x32xf32>
  return
}

// -----

func.func @using_deeper(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>,
                        %acc: !tgemm.acc<32x32xf32>, %f: !tgemm.frags<32x32x32xf16>, %i: index) {
  // expected-error @+1 {{cannot start a 32x32x16 multiply of 'f16' with '!tgemm.frags<32x32x32xf16>'}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col) k_slice [16, 16]
      using(%f : !tgemm.frags<32x32x32xf16>)
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.acc<32x32xf32>
  return
}

// -----

// expected-error @+1 {{fragment sizes must be positive, got 32x0x16}}
func.func @frags_zero(%f: !tgemm.frags<32x0x16xf16>) {
  return
}

// -----

// expected-error @+1 {{fragments of 'f64': not a tensor-core operand type}}
func.func @frags_f64(%f: !tgemm.frags<32x32x16xf64>) {
  return
}

// -----

func.func @frags_depths(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x16xf16>, %i: index) {
  // expected-error @+1 {{A tiles are 32 deep but B tiles are 16 deep}}
  %f = tgemm.load_frags %sa[%i], %sb[%i] at [%i, %i] layout(row, col) k_slice [0, 16]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x16xf16>, !tgemm.frags<32x32x16xf16>
  return
}

// -----

func.func @negative_in_flight(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>,
                              %acc: !tgemm.acc<32x32xf32>, %i: index) {
  // expected-error @+1 {{attribute 'in_flight' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col) in_flight -1
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.acc<32x32xf32>
  return
}

// -----

func.func @reduce_one_part(%p: memref<1x?x?xf32>, %s: memref<?xi32>, %c: memref<?x?xf16>, %i: index) {
  // expected-error @+1 {{needs a static number of parts (at least 2) in dimension 0 of 'memref<1x?x?xf32>'}}
  tgemm.reduce_splits %p, %s[%i], %c[%i, %i] tile [128, 128]
      : memref<1x?x?xf32>, memref<?xi32>, memref<?x?xf16>
  return
}

// -----

func.func @reduce_dynamic_parts(%p: memref<?x?x?xf32>, %s: memref<?xi32>, %c: memref<?x?xf16>, %i: index) {
  // expected-error @+1 {{needs a static number of parts (at least 2)}}
  tgemm.reduce_splits %p, %s[%i], %c[%i, %i] tile [128, 128]
      : memref<?x?x?xf32>, memref<?xi32>, memref<?x?xf16>
  return
}

// -----

func.func @reduce_types(%p: memref<4x?x?xf16>, %s: memref<?xi32>, %c: memref<?x?xbf16>, %i: index) {
  // expected-error @+1 {{cannot write 'f16' parts to 'bf16'}}
  tgemm.reduce_splits %p, %s[%i], %c[%i, %i] tile [128, 128]
      : memref<4x?x?xf16>, memref<?xi32>, memref<?x?xbf16>
  return
}

// -----

func.func @reduce_tile(%p: memref<4x?x?xf32>, %s: memref<?xi32>, %c: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{tile takes [rows, cols], both positive}}
  tgemm.reduce_splits %p, %s[%i], %c[%i, %i] tile [128, 0]
      : memref<4x?x?xf32>, memref<?xi32>, memref<?x?xf32>
  return
}

// -----

func.func @reduce_threads(%p: memref<4x?x?xf32>, %s: memref<?xi32>, %c: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{threads takes [first, count]: whole warps of a block of at most 1024 threads}}
  tgemm.reduce_splits %p, %s[%i], %c[%i, %i] tile [128, 128] threads [0, 100]
      : memref<4x?x?xf32>, memref<?xi32>, memref<?x?xf32>
  return
}

// -----

// first + count is past int64; the bound holds without overflow.
func.func @reduce_threads_overflow(%p: memref<4x?x?xf32>, %s: memref<?xi32>, %c: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{threads takes [first, count]: whole warps of a block of at most 1024 threads}}
  tgemm.reduce_splits %p, %s[%i], %c[%i, %i] tile [128, 128] threads [9223372036854775776, 64]
      : memref<4x?x?xf32>, memref<?xi32>, memref<?x?xf32>
  return
}

// -----

func.func @transpose_type(%a: memref<?x?xf16>, %i: index) {
  %s = tgemm.alloc_smem : !tgemm.smem<2x64x32xf16>
  // expected-error @+1 {{transposes 8-bit and 32-bit elements only, got 'f16'}}
  tgemm.copy_tile %a[%i, %i], %s[%i] transpose : memref<?x?xf16>, !tgemm.smem<2x64x32xf16>
  return
}

// -----

func.func @transpose_async(%a: memref<?x?xi8>, %i: index) {
  %s = tgemm.alloc_smem : !tgemm.smem<2x64x128xi8>
  // expected-error @+1 {{with transpose is synchronous: the elements are regrouped in registers between the loads and the stores}}
  tgemm.copy_tile %a[%i, %i], %s[%i] transpose async : memref<?x?xi8>, !tgemm.smem<2x64x128xi8>
  return
}

// -----

func.func @transpose_blocks(%a: memref<?x?xi8>, %i: index) {
  %s = tgemm.alloc_smem : !tgemm.smem<2x24x128xi8>
  // expected-error @+1 {{with transpose moves blocks of 4 source rows and 16 bytes: the ring's tile (24x128) needs columns a multiple of 4 and rows a multiple of 16}}
  tgemm.copy_tile %a[%i, %i], %s[%i] transpose : memref<?x?xi8>, !tgemm.smem<2x24x128xi8>
  return
}

// -----

func.func @transpose_tile_shape(%i: index) {
  %staged = tgemm.alloc_smem : !tgemm.smem<2x128x256xi8>
  %s = tgemm.alloc_smem : !tgemm.smem<4x128x256xi8>
  // expected-error @+1 {{transposes a 128x256 tile into a 128x256 one; the destination must be 256x128}}
  tgemm.transpose_tile %staged[%i], %s[%i] threads [256, 128]
      : !tgemm.smem<2x128x256xi8>, !tgemm.smem<4x128x256xi8>
  return
}

// -----

func.func @transpose_tile_type(%i: index) {
  %staged = tgemm.alloc_smem : !tgemm.smem<2x128x64xf16>
  %s = tgemm.alloc_smem : !tgemm.smem<4x64x128xf16>
  // expected-error @+1 {{transposes 8-bit elements only, got 'f16'}}
  tgemm.transpose_tile %staged[%i], %s[%i] threads [256, 128]
      : !tgemm.smem<2x128x64xf16>, !tgemm.smem<4x64x128xf16>
  return
}

// -----

func.func @transpose_tile_rows(%i: index) {
  %staged = tgemm.alloc_smem : !tgemm.smem<2x64x256xi8>
  %s = tgemm.alloc_smem : !tgemm.smem<4x256x64xi8>
  // expected-error @+1 {{moves blocks of 4 x 16 bytes, 32 along each destination row: the source tile (64x256) needs rows a multiple of 128 and columns a multiple of 16}}
  tgemm.transpose_tile %staged[%i], %s[%i] threads [256, 128]
      : !tgemm.smem<2x64x256xi8>, !tgemm.smem<4x256x64xi8>
  return
}

// -----

func.func @transpose_tile_threads(%i: index) {
  %staged = tgemm.alloc_smem : !tgemm.smem<2x128x256xi8>
  %s = tgemm.alloc_smem : !tgemm.smem<4x256x128xi8>
  // expected-error @+1 {{threads takes [first, count]: whole warps of a block of at most 1024 threads}}
  tgemm.transpose_tile %staged[%i], %s[%i] threads [256, 100]
      : !tgemm.smem<2x128x256xi8>, !tgemm.smem<4x256x128xi8>
  return
}

// -----

func.func @multicast_too_wide(%m: !llvm.ptr, %i: index) {
  %s = tgemm.alloc_smem : !tgemm.smem<4x256x64xf16>
  %full = tgemm.alloc_barriers : !tgemm.barriers<4>
  // expected-error @+1 {{multicasts to 4 blocks; a cluster has at most 2}}
  tgemm.bulk_copy_tile %m[%i, %i, %i], %s[%i], %full multicast 4
      : !llvm.ptr, !tgemm.smem<4x256x64xf16>, !tgemm.barriers<4>
  return
}

// -----

func.func @multicast_one(%m: !llvm.ptr, %i: index) {
  %s = tgemm.alloc_smem : !tgemm.smem<4x256x64xf16>
  %full = tgemm.alloc_barriers : !tgemm.barriers<4>
  // expected-error @+1 {{attribute 'multicast' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 2}}
  tgemm.bulk_copy_tile %m[%i, %i, %i], %s[%i], %full multicast 1
      : !llvm.ptr, !tgemm.smem<4x256x64xf16>, !tgemm.barriers<4>
  return
}

// -----

// 8 rows of 128 bytes cut in 2 would start a band inside a swizzle atom.
func.func @multicast_uncuttable(%m: !llvm.ptr, %i: index) {
  %s = tgemm.alloc_smem : !tgemm.smem<4x8x64xf16>
  %full = tgemm.alloc_barriers : !tgemm.barriers<4>
  // expected-error @+1 {{cannot cut a 8x64 tile into 2 parts of whole 128-byte panels or bands of a multiple of 8 rows}}
  tgemm.bulk_copy_tile %m[%i, %i, %i], %s[%i], %full multicast 2
      : !llvm.ptr, !tgemm.smem<4x8x64xf16>, !tgemm.barriers<4>
  return
}

// -----

func.func @remote_bytes(%i: index) {
  %full = tgemm.alloc_barriers : !tgemm.barriers<4>
  // expected-error @+1 {{announces bytes only on its own block's barrier: expect_bytes and cta exclude each other}}
  tgemm.arrive_barrier %full[%i] expect_bytes 64 cta %i : !tgemm.barriers<4>
  return
}

// -----

func.func @via_partial_line(%acc: !tgemm.acc<16x48xf32>, %c: memref<?x?xf32>, %map: !llvm.ptr, %i: index) {
  // expected-error @+1 {{stores through a tensor map in 128-byte lines of C, but a row of its tile is 48 elements of 'f32' (1536 bits)}}
  tgemm.store_tile %acc, %c[%i, %i] via %map[%i] : !tgemm.acc<16x48xf32>, memref<?x?xf32>
  return
}

// -----

func.func @via_rows(%acc: !tgemm.acc<8x64xf32>, %c: memref<?x?xf32>, %map: !llvm.ptr, %i: index) {
  // expected-error @+1 {{stores through a tensor map in boxes of 16 rows, but its tile has 8}}
  tgemm.store_tile %acc, %c[%i, %i] via %map[%i] : !tgemm.acc<8x64xf32>, memref<?x?xf32>
  return
}

// -----

func.func @copy_rank(%b: memref<64x32xi8>) {
  // expected-error @+1 {{the copy has the source's rank (2), got 3}}
  %0 = tgemm.transposed_copy %b : memref<64x32xi8> -> memref<1x32x64xi8, strided<[?, ?, 1], offset: ?>>
  return
}

// -----

func.func @copy_element(%b: memref<64x32xi8>) {
  // expected-error @+1 {{the copy has the source's element type ('i8'), got 'f8E4M3FN'}}
  %0 = tgemm.transposed_copy %b : memref<64x32xi8> -> memref<32x64xf8E4M3FN, strided<[?, 1], offset: ?>>
  return
}

// -----

func.func @copy_16bit(%b: memref<64x32xf16>) {
  // expected-error @+1 {{transposes 8-bit and 32-bit elements, got 'f16'}}
  %0 = tgemm.transposed_copy %b : memref<64x32xf16> -> memref<32x64xf16, strided<[?, 1], offset: ?>>
  return
}

// -----

func.func @copy_shape(%b: memref<?x32xi8>) {
  // expected-error @+1 {{the copy's rows are the source's columns: expected shape 32x?, got 64x32}}
  %0 = tgemm.transposed_copy %b : memref<?x32xi8> -> memref<64x32xi8, strided<[?, 1], offset: ?>>
  return
}

// -----

func.func @copy_strides(%b: memref<64x32xi8>) {
  // expected-error @+1 {{the copy's strides and offset are the runtime's: expected strided<[?, ..., 1], offset: ?>, got 'memref<32x64xi8>'}}
  %0 = tgemm.transposed_copy %b : memref<64x32xi8> -> memref<32x64xi8>
  return
}

// -----

func.func @aligned_copy_shape(%a: memref<64x33xf16>) {
  // expected-error @+1 {{the copy has the source's shape}}
  %0 = tgemm.aligned_copy %a : memref<64x33xf16> -> memref<33x64xf16, strided<[?, 1], offset: ?>>
  return
}

// -----

func.func @aligned_copy_element(%a: memref<64x33xf16>) {
  // expected-error @+1 {{the copy has the source's element type ('f16'), got 'bf16'}}
  %0 = tgemm.aligned_copy %a : memref<64x33xf16> -> memref<64x33xbf16, strided<[?, 1], offset: ?>>
  return
}

// -----

func.func @aligned_copy_s4(%a: memref<64x33xi4>) {
  // expected-error @+1 {{copies whole bytes: elements of 8 bits or more, got 'i4'}}
  %0 = tgemm.aligned_copy %a : memref<64x33xi4> -> memref<64x33xi4, strided<[?, 1], offset: ?>>
  return
}

// -----

func.func @aligned_copy_strides(%a: memref<64x33xf16>) {
  // expected-error @+1 {{the copy's strides and offset are the runtime's: expected strided<[?, ..., 1], offset: ?>, got 'memref<64x33xf16>'}}
  %0 = tgemm.aligned_copy %a : memref<64x33xf16> -> memref<64x33xf16>
  return
}
