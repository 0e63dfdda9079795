// RUN: tgemm-opt %s --split-input-file --tgemm-pipeline="lowering=ptx chip=sm_90" --verify-diagnostics
// RUN: tgemm-opt %s --split-input-file --tgemm-pipeline="lowering=ptx chip=sm_90 allow-no-kernel" | FileCheck %s --check-prefix=ALLOW

// A module whose contractions all stay linalg makes no kernel: through
// --tgemm-pipeline that is an error (exit 1), unless allow-no-kernel; the
// import pass alone leaves them with its remarks (from-linalg-remarks.mlir).

// ALLOW-LABEL: func.func @f32
// ALLOW: linalg.matmul
func.func @f32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-remark @+2 {{f32 operands would be computed as TF32}}
  // expected-error @+1 {{no kernel: none of the module's 1 contraction could be imported (the remarks above say why); allow-no-kernel accepts that}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  return
}

// -----

// One contraction imported is a kernel; the other stays, with its remark.
// ALLOW-LABEL: func.func @one_of_two
// ALLOW: gpu.launch_func
// ALLOW: linalg.matmul {{.*}} memref<64x64xf64>
func.func @one_of_two(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>,
                      %d: memref<64x64xf64>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>)
                outs(%c : memref<64x64xf32>)
  // expected-remark @+1 {{left as is, not a tgemm.matmul}}
  linalg.matmul ins(%d, %d : memref<64x64xf64>, memref<64x64xf64>)
                outs(%d : memref<64x64xf64>)
  return
}
