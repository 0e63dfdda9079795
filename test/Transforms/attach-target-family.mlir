// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a" | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90" | FileCheck %s --check-prefix=SM90
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=ptx" | FileCheck %s --check-prefix=GIVEN

// Without a family, the module gets the chip's fastest family that every
// tgemm.matmul of it is legal for (the legality module's order): on sm_90a
// wgmma, else ptx; on sm_90 always ptx. A family that is named is taken
// as it is.

// Every precision wgmma has, with no config: wgmma.
// CHECK-LABEL: module attributes {tgemm.target = #tgemm.target<chip = "sm_90a", family = wgmma>}
// SM90: module attributes {tgemm.target = #tgemm.target<chip = "sm_90", family = ptx>}
// GIVEN: module attributes {tgemm.target = #tgemm.target<chip = "sm_90a", family = ptx>}
func.func @any_config(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                      %x: memref<?x?xi8>, %y: memref<?x?xi8>, %z: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  tgemm.matmul %x, %y, %z layout(row, col) acc(i32)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// A config with warpgroups and 128-byte rows is the family's too.
// CHECK-LABEL: module attributes {tgemm.target = #tgemm.target<chip = "sm_90a", family = wgmma>}
func.func @wgmma_config(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4, raster = 8>)
      : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// s4 has no wgmma: the whole module is ptx.
// CHECK-LABEL: module attributes {tgemm.target = #tgemm.target<chip = "sm_90a", family = ptx>}
func.func @s4_beside_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>,
                         %x: memref<?x?xi4>, %y: memref<?x?xi4>, %z: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  tgemm.matmul %x, %y, %z layout(row, col) acc(i32)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}

// -----

// A config of mma.sync warps (2 x 2): ptx.
// CHECK-LABEL: module attributes {tgemm.target = #tgemm.target<chip = "sm_90a", family = ptx>}
func.func @ptx_config(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// A row-major B of 16-bit elements is read through wgmma's transpose bit:
// wgmma. A row-major B of 8-bit elements is transposed on its way into
// shared memory: wgmma too.
// CHECK-LABEL: module attributes {tgemm.target = #tgemm.target<chip = "sm_90a", family = wgmma>}
func.func @row_major_b(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// CHECK-LABEL: module attributes {tgemm.target = #tgemm.target<chip = "sm_90a", family = wgmma>}
func.func @row_major_b_i8(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// A module of decodes (every M static and at most 16): ptx first, whose
// 16-row fragments waste less than wgmma's 64 rows (tgemm::familiesBySpeed).
// CHECK-LABEL: module attributes {tgemm.target = #tgemm.target<chip = "sm_90a", family = ptx>}
func.func @decodes(%a: memref<16x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<16x4096xf16>,
                   %x: memref<1x4096xi8>, %y: memref<4096x4096xi8>, %z: memref<1x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<16x4096xf16>, memref<4096x4096xf16>, memref<16x4096xf16>
  tgemm.matmul %x, %y, %z layout(row, col) acc(i32)
      : memref<1x4096xi8>, memref<4096x4096xi8>, memref<1x4096xi32>
  return
}

// -----

// A decode beside a larger GEMM, or an M of 17: wgmma.
// CHECK-LABEL: module attributes {tgemm.target = #tgemm.target<chip = "sm_90a", family = wgmma>}
func.func @decode_and_prefill(%a: memref<16x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<16x4096xf16>,
                              %x: memref<17x4096xf16>, %z: memref<17x4096xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<16x4096xf16>, memref<4096x4096xf16>, memref<16x4096xf16>
  tgemm.matmul %x, %b, %z layout(row, col) acc(f32)
      : memref<17x4096xf16>, memref<4096x4096xf16>, memref<17x4096xf16>
  return
}
