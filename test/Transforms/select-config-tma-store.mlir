// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/tuning-db-tma-store.json builtin=false" | FileCheck %s
// RUN: not tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/bad-db-tma-store.json builtin=false" 2>&1 | FileCheck %s --check-prefix=BAD

// A tuned entry's `tma-store` is taken where the legality module allows
// it: not where K is split, nor where a warp's row of C is not whole
// 128-byte lines.
// BAD: error: bad tuning database: {{.*}}bad-db-tma-store.json: entry 0: option "tma-store" must be true or false

// CHECK-LABEL: func.func @taken
// CHECK: raster = 8>) schedule(<warp_specialize = true, tma = true, persistent = true, tma_store = true>)
func.func @taken(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                 %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}

// -----

// The entry splits K itself: taken without the bulk store.
// CHECK-LABEL: func.func @entry_split
// CHECK: split_k = 4>) schedule(<warp_specialize = true, tma = true>)
func.func @entry_split(%a: memref<512x16384xf16>, %b: memref<512x16384xf16>,
                       %c: memref<512x512xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<512x16384xf16>, memref<512x16384xf16>, memref<512x512xf32>
  return
}

// -----

// 48 columns of f32 are not whole lines: taken without it.
// CHECK-LABEL: func.func @partial_line
// CHECK: block = [128, 48, 64]{{.*}}schedule(<warp_specialize = true, tma = true>)
func.func @partial_line(%a: memref<2048x2048xf16>, %b: memref<2048x2048xf16>,
                        %c: memref<2048x2048xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<2048x2048xf16>, memref<2048x2048xf16>, memref<2048x2048xf32>
  return
}

// -----

// An epilogue that reads memory (C with beta, a bias) is written through
// slabs, which free the accumulator before they read: taken without it.
// CHECK-LABEL: func.func @beta
// CHECK: raster = 8>) schedule(<warp_specialize = true, tma = true, persistent = true>)
func.func @beta(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) beta(1.0)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}

// -----

// CHECK-LABEL: func.func @bias
// CHECK: raster = 8>) schedule(<warp_specialize = true, tma = true, persistent = true>)
func.func @bias(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                %c: memref<4096x4096xf32>, %e: memref<4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      epilogue(bias(col) %e : memref<4096xf32>, relu)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}

// -----

// An activation alone reads nothing: taken with it.
// CHECK-LABEL: func.func @relu
// CHECK: schedule(<warp_specialize = true, tma = true, persistent = true, tma_store = true>)
func.func @relu(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32) epilogue(relu)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}
