// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-check-target
// RUN: not tgemm-opt %S/Inputs/cluster-ptx.mlir --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-check-target 2>&1 | FileCheck %s --check-prefix=PTX

// A cluster (schedule `cluster`), from the legality module: the wgmma
// family's, with TMA; its blocks take tiles one above the other, so no
// split K; B's tile is cut into one bulk copy per block, so no operand the
// producer transposes, and a tile that cuts.
// PTX: error: 'tgemm.matmul' op cluster = 2 is a wgmma knob (TMA multicast on sm_90a); the ptx lowering has none

func.func @legal(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, persistent = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// A row-major B is cut into whole panels (4 of 64 columns: 2 each).
func.func @legal_panels(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @no_tma(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{cluster = 2 needs tma = true: the blocks of a cluster share B's tiles by TMA multicast}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @split_k(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{cluster = 2 with split_k = 2: the blocks of a cluster take tiles one above the other, and split K's parts are not tiles; use one of them}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, split_k = 2>)
      schedule(<warp_specialize = true, tma = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// wgmma reads 8-bit operands K-major only: a row-major s8 B is transposed
// by the producer on its way in.
func.func @transposed(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{cluster = 2: this kernel's producer transposes an operand on its way into shared memory, and only a bulk copy straight into the ring can be multicast; use cluster = 1}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 256, 128], warps = [8, 1], stages = 3>)
      schedule(<warp_specialize = true, tma = true, cluster = 2>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// A row-major B of 192 columns is 3 panels of 128 bytes: no cut in 2.
func.func @uncuttable(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{cluster = 2: B's 64x192 tile cannot be cut into 2 bulk copies (whole 128-byte panels, or bands of a multiple of 8 rows)}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 192, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, cluster = 2>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
