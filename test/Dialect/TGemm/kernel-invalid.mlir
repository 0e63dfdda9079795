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

func.func @store_type(%acc: !tgemm.acc<32x32xi32>, %c: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{cannot write a 'i32' accumulator to 'f32'}}
  tgemm.store_tile %acc, %c[%i, %i] : !tgemm.acc<32x32xi32>, memref<?x?xf32>
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

func.func @slice_empty(%sa: !tgemm.smem<2x64x32xf16>, %sb: !tgemm.smem<2x64x32xf16>,
                       %acc: !tgemm.acc<32x32xf32>, %i: index) {
  // expected-error @+1 {{k_slice [0, 0] is not a non-empty part of the stage's 32 elements of K}}
  %d = tgemm.mma_tile %sa[%i], %sb[%i], %acc at [%i, %i] layout(row, col) k_slice [0, 0]
      : !tgemm.smem<2x64x32xf16>, !tgemm.smem<2x64x32xf16>, !tgemm.acc<32x32xf32>
  return
}
