// RUN: not tgemm-opt %S/Inputs/truncated.mlir 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: not tgemm-opt %S/Inputs/not-mlir.txt 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: not tgemm-opt %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tgemm-opt %s 2>&1 | FileCheck %s --check-prefix=TYPES

// Malformed input ends in a located diagnostic and a non-zero exit.

// TRUNC: truncated.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// GARBAGE: not-mlir.txt:1:1: error:
// MISSING: cannot open input file {{.*}}does-not-exist.mlir
// TYPES: bad-input.mlir:[[@LINE+2]]:{{[0-9]+}}: error: use of value '%a' expects different type than prior uses: 'memref<64x32xf16>' vs 'memref<64x64xf16>'
func.func @wrong_types(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<64x32xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}
