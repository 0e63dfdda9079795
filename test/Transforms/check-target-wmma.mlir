// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_90 family=wmma" --tgemm-check-target | FileCheck %s

// lowering=wmma: a precision WMMA has no instruction for is rejected; the
// rest pass through unchanged.

// CHECK-LABEL: func @f16
// CHECK: tgemm.matmul
func.func @f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 64], warps = [2, 4], stages = 4>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

func.func @fp8(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{the wmma lowering has no wmma instruction for 'f8E4M3FN' x 'f8E4M3FN' -> 'f32'}}
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

// The 4-bit WMMA instruction loads A row-major and B column-major only.
func.func @s4_layout(%a: memref<?x?xi4>, %b: memref<?x?xi4>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{the wmma s4 instruction takes only layout(row, col), got layout(row, row)}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 128, 128], warps = [2, 2], stages = 2>)
      : memref<?x?xi4>, memref<?x?xi4>, memref<?x?xi32>
  return
}
