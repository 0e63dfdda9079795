// RUN: tgemm-opt %s --split-input-file --tgemm-override-config="split-k=4" | FileCheck %s
// RUN: tgemm-opt %s --split-input-file --tgemm-override-config="split-k=1" | FileCheck %s --check-prefix=ONE
// RUN: not tgemm-opt %s --split-input-file --tgemm-override-config="split-k=300" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tgemm-opt %s --split-input-file --tgemm-override-config="split-k=32" 2>&1 | FileCheck %s --check-prefix=SHALLOW
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=ptx chip=sm_90 split-k=4" -o /dev/null

// tgemm-override-config's split-k sets every matmul's split of K (the
// pipeline's split-k likewise); the legality module then checks that each
// part has K to take.

// CHECK: config(<block = [128, 128, 32], warps = [2, 2], stages = 3, split_k = 4>)
// ONE: config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
// RANGE: error: option 'split-k': expected an integer between 0 and 256, got 300
// 4096 of K is 16 granules of 256: at most 16 parts.
// SHALLOW: error: 'tgemm.matmul' op split_k = 32 needs at least 32 granules of 256 elements of K (parts start on them), but K = 4096 has 16
func.func @gemm(%a: memref<256x4096xf16>, %b: memref<256x4096xf16>,
                %c: memref<256x256xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3, split_k = 2>)
      : memref<256x4096xf16>, memref<256x4096xf16>, memref<256x256xf32>
  return
}
