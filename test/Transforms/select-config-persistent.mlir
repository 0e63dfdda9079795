// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-select-config="database=%S/Inputs/tuning-db-persistent.json builtin=false" | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-select-config="database=%S/Inputs/tuning-db-persistent.json builtin=false split-k=false" | FileCheck %s --check-prefix=NOSPLIT
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/tuning-db-persistent.json builtin=false" | FileCheck %s --check-prefix=WG
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/tuning-db-persistent.json builtin=false transpose-kernel=tuned" | FileCheck %s --check-prefix=TUNED

// A persistent entry stays persistent where its tiles fill the chip, and
// is launched one block per part where K is split (the split is chosen
// only where the tiles leave more than half of the SMs idle, so that a
// persistent block would take one tile).

// 4096 x 4096 is 1024 tiles of 128 x 128.
// CHECK-LABEL: func.func @large
// CHECK: config(<block = [128, 128, 32], warps = [2, 2], stages = 4>) schedule(<{{.*}}persistent = true>)
func.func @large(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                 %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}

// -----

// 512 x 512 is 16 tiles for 132 SMs: K is split, and the kernel is not
// persistent; without a split it stays persistent.
// CHECK-LABEL: func.func @deep
// CHECK: split_k = 8>)
// CHECK-NOT: persistent
// CHECK: return
// NOSPLIT-LABEL: func.func @deep
// NOSPLIT: config(<block = [128, 128, 32], warps = [2, 2], stages = 4>) schedule(<{{.*}}persistent = true>)
func.func @deep(%a: memref<512x16384xf16>, %b: memref<512x16384xf16>,
                %c: memref<512x512xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<512x16384xf16>, memref<512x16384xf16>, memref<512x512xf32>
  return
}

// -----

// An entry that splits K itself is taken without persistent too (here
// also with split-k=false, which only stops the pass choosing a split).
// CHECK-LABEL: func.func @entry_split
// CHECK: split_k = 4>) schedule(<>)
// NOSPLIT-LABEL: func.func @entry_split
// NOSPLIT: split_k = 4>) schedule(<>)
func.func @entry_split(%a: memref<512x16384xbf16>, %b: memref<512x16384xbf16>,
                       %c: memref<512x512xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<512x16384xbf16>, memref<512x16384xbf16>, memref<512x512xbf16>
  return
}

// -----

// wgmma reads this s8 A and B as stored: the persistent entry as it is.
// WG-LABEL: func.func @s8_native
// WG: stages = 4, raster = 8>) schedule(<warp_specialize = true, tma = true, persistent = true>)
func.func @s8_native(%a: memref<4096x4096xi8>, %b: memref<4096x4096xi8>,
                     %c: memref<4096x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<4096x4096xi8>, memref<4096x4096xi8>, memref<4096x4096xi32>
  return
}

// -----

// A row-major s8 B reused by 4096 rows of A is transposed by a kernel of
// its own into the workspace (transpose-kernel=auto, the default): the
// entry is taken as measured, persistent and with its stages. As the
// entry says (transpose-kernel=tuned), it is staged and transposed by the
// producer: the entry is taken one block per tile (and with the stages
// that fit beside the staging ring).
// WG-LABEL: func.func @s8_transpose_kernel
// WG: stages = 4, raster = 8>) schedule(<warp_specialize = true, tma = true, persistent = true, transpose_kernel = true>)
// TUNED-LABEL: func.func @s8_transpose_kernel
// TUNED: stages = 3, raster = 8>) schedule(<warp_specialize = true, tma = true>)
func.func @s8_transpose_kernel(%a: memref<4096x4096xi8>,
                               %b: memref<4096x4096xi8>,
                               %c: memref<4096x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      : memref<4096x4096xi8>, memref<4096x4096xi8>, memref<4096x4096xi32>
  return
}

// -----

// Reused by 768 rows only, it is staged by default too.
// WG-LABEL: func.func @s8_staged
// WG: stages = 3, raster = 8>) schedule(<warp_specialize = true, tma = true>)
// TUNED-LABEL: func.func @s8_staged
// TUNED: stages = 3, raster = 8>) schedule(<warp_specialize = true, tma = true>)
func.func @s8_staged(%a: memref<768x4096xi8>, %b: memref<4096x4096xi8>,
                     %c: memref<768x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      : memref<768x4096xi8>, memref<4096x4096xi8>, memref<768x4096xi32>
  return
}
