// RUN: tgemm-opt %s --tgemm-from-linalg="strict=true" --verify-diagnostics

// With strict=true, a matmul that cannot be imported is an error.
func.func @f64(%a: memref<64x64xf64>, %b: memref<64x64xf64>, %c: memref<64x64xf64>) {
  // expected-error @+1 {{cannot be computed by tgemm.matmul: 'tgemm.matmul' op operand #0 must be 2D/3D memref or tensor of f16, bf16, f32 (computed as tf32), i8, ui8, i4, f8E4M3FN or f8E5M2 values, but got}}
  linalg.matmul ins(%a, %b : memref<64x64xf64>, memref<64x64xf64>)
                outs(%c : memref<64x64xf64>)
  return
}
