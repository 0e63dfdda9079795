// RUN: not %mlir_opt %s 2>&1 | FileCheck %s

// Without the plugin the stock mlir-opt does not know tgemm: this is what
// makes plugin.mlir's success meaningful.
// CHECK: error: Dialect `tgemm' not found for custom op 'tgemm.matmul'
func.func @gemm(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}
