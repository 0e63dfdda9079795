// RUN: tgemm-opt %s --tgemm-tile | not tgemm-translate --emit=ptx 2>&1 | FileCheck %s --check-prefix=NOBINARY
// RUN: tgemm-opt %s --tgemm-pipeline="lowering=wmma chip=sm_90" -o %t.mlir
// RUN: not tgemm-translate --emit=ptx %t.mlir 2>&1 | FileCheck %s --check-prefix=SEVERAL
// RUN: not tgemm-translate --emit=ptx --module nope %t.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: tgemm-translate --emit=ptx --module two_1_module %t.mlir | FileCheck %s --check-prefix=CHOSEN
// RUN: not tgemm-translate --emit=cubin --module two_module %t.mlir 2>&1 | FileCheck %s --check-prefix=NOOUT
// RUN: not tgemm-translate --emit=cubin --module two_module --ptxas %t.missing-ptxas %t.mlir -o %t.cubin 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: tgemm-translate --emit=manifest %t.mlir | FileCheck %s --check-prefix=BOTH
// RUN: not tgemm-translate --emit=ptx %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING

// tgemm-translate says what is wrong with its input and exits non-zero.

// NOBINARY: error: no compiled kernel (gpu.binary with PTX) in the input; run a tgemm pipeline first
// SEVERAL: error: the input has 2 kernel modules (two_module, two_1_module); choose one with --module
// UNKNOWN: error: no kernel module 'nope'; the input has: two_module, two_1_module
// CHOSEN: .visible .entry two_1_kernel(
// NOOUT: error: --emit=cubin writes a binary file: give it with -o
// NOPTXAS: error: ptxas failed on module 'two_module'
// BOTH-DAG: "name": "two_kernel"
// BOTH-DAG: "name": "two_1_kernel"
// MISSING: tgemm-translate: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
func.func @two(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>,
               %c16: memref<64x64xf16>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  tgemm.matmul %a, %b, %c16 layout(row, row) acc(f16)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>
  return
}
