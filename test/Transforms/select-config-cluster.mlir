// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/tuning-db-cluster.json builtin=false" | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/tuning-db-cluster.json builtin=false transpose-kernel=tuned" | FileCheck %s --check-prefix=TUNED
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/tuning-db-cluster.json builtin=false transpose-kernel=auto" | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/tuning-db-cluster.json builtin=false transpose-kernel=true" | FileCheck %s --check-prefix=FORCED
// RUN: not tgemm-opt %s --tgemm-select-config="transpose-kernel=maybe" 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: error: transpose-kernel must be auto, tuned, true or false, not 'maybe'
// RUN: not tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-select-config="database=%S/Inputs/bad-db-cluster.json builtin=false" 2>&1 | FileCheck %s --check-prefix=BAD

// A tuned entry's `cluster` is taken where the legality module allows it:
// not where K is split (by the entry or by the pass), nor where the
// producer transposes an operand (only bulk copies straight into the ring
// are multicast), nor where B's tile does not cut into one copy per block.
// BAD: error: bad tuning database: {{.*}}bad-db-cluster.json: entry 0: option "cluster" must be an integer from 1 to 2

// CHECK-LABEL: func.func @s8_native
// CHECK: stages = 4, raster = 8>) schedule(<warp_specialize = true, tma = true, persistent = true, cluster = 2>)
func.func @s8_native(%a: memref<4096x4096xi8>, %b: memref<4096x4096xi8>,
                     %c: memref<4096x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<4096x4096xi8>, memref<4096x4096xi8>, memref<4096x4096xi32>
  return
}

// -----

// A row-major s8 B reused by 4096 rows of A is transposed by a kernel of
// its own (transpose-kernel=auto, the default): the GEMM reads a K-major
// copy with TMA, and the entry's cluster and stages stay. As the entry
// says (transpose-kernel=tuned), it is staged and transposed by the
// producer: one block per cluster (and per tile), the stages that fit
// beside the staging ring.
// CHECK-LABEL: func.func @s8_transpose_kernel
// CHECK: stages = 4, raster = 8>) schedule(<warp_specialize = true, tma = true, persistent = true, cluster = 2, transpose_kernel = true>)
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

// Reused by 768 rows only (below tgemm::kTransposeKernelMinReuse), it is
// staged by default too; transpose-kernel=true copies it.
// CHECK-LABEL: func.func @s8_staged
// CHECK: stages = 3, raster = 8>) schedule(<warp_specialize = true, tma = true>)
// TUNED-LABEL: func.func @s8_staged
// TUNED: stages = 3, raster = 8>) schedule(<warp_specialize = true, tma = true>)
// FORCED-LABEL: func.func @s8_staged
// FORCED: stages = 4, raster = 8>) schedule(<warp_specialize = true, tma = true, persistent = true, cluster = 2, transpose_kernel = true>)
func.func @s8_staged(%a: memref<768x4096xi8>, %b: memref<4096x4096xi8>,
                     %c: memref<768x4096xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      : memref<768x4096xi8>, memref<4096x4096xi8>, memref<768x4096xi32>
  return
}

// -----

// The entry splits K itself: taken without the cluster.
// CHECK-LABEL: func.func @entry_split
// CHECK: split_k = 4>) schedule(<warp_specialize = true, tma = true>)
func.func @entry_split(%a: memref<512x16384xf16>, %b: memref<512x16384xf16>,
                       %c: memref<512x512xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<512x16384xf16>, memref<512x16384xf16>, memref<512x512xf32>
  return
}

// -----

// A column-major B of 192 columns cuts into bands of 96 rows: clustered.
// CHECK-LABEL: func.func @cut_rows
// CHECK: block = [128, 192, 64]{{.*}}schedule(<warp_specialize = true, tma = true, cluster = 2>)
func.func @cut_rows(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                    %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}

// -----

// A row-major one is 3 panels of 64 columns, which do not cut in 2: the
// entry is taken with one block per cluster.
// CHECK-LABEL: func.func @three_panels
// CHECK: block = [128, 192, 64]{{.*}}schedule(<warp_specialize = true, tma = true>)
func.func @three_panels(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                        %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}
