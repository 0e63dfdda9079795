// RUN: %mlir_opt %s --load-dialect-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --load-pass-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --pass-pipeline="builtin.module(tgemm-check-target{chip=sm_90 lowering=ptx})" \
// RUN:   | FileCheck %s
// RUN: %mlir_opt %S/Inputs/fp8.mlir \
// RUN:   --load-dialect-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --load-pass-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(tgemm-check-target{chip=sm_80 lowering=ptx})"

// The stock mlir-opt, with tgemm loaded as a plugin, parses and verifies the
// dialect and runs tgemm's passes (diagnostics included). Pass plugins load
// after the command line is parsed, so passes are named in --pass-pipeline.

// CHECK-LABEL: func @gemm
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %{{.*}} layout(row, col) acc(f32)
func.func @gemm(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}
