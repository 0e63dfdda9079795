// RUN: %mlir_opt %s --load-dialect-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --load-pass-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --pass-pipeline="builtin.module(tgemm-attach-target{chip=sm_90 family=ptx},tgemm-check-target)" \
// RUN:   | FileCheck %s
// RUN: %mlir_opt %S/Inputs/fp8.mlir \
// RUN:   --load-dialect-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --load-pass-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline="builtin.module(tgemm-attach-target{chip=sm_80 family=ptx},tgemm-check-target)"
// RUN: %mlir_opt %S/../Pipelines/Inputs/linalg.mlir \
// RUN:   --load-dialect-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --load-pass-plugin=%tgemm_libs/TGemmPlugin%shlibext \
// RUN:   --pass-pipeline="builtin.module(tgemm-pipeline{lowering=ptx chip=sm_90})" \
// RUN:   | FileCheck %s --check-prefix=LINALG

// The stock mlir-opt, with tgemm loaded as a plugin, parses and verifies the
// dialect and runs tgemm's passes (diagnostics included). Pass plugins load
// after the command line is parsed, so passes are named in --pass-pipeline.

// Upstream linalg through the whole pipeline, in the stock mlir-opt.
// LINALG: gpu.launch_func @matmul_module::@matmul_kernel
// LINALG: gpu.launch_func @batch_matmul_module::@batch_matmul_kernel
// LINALG: gpu.binary @matmul_module
// LINALG-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// LINALG: gpu.binary @batch_matmul_module
// LINALG-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// CHECK-LABEL: func @gemm
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %{{.*}} layout(row, col) acc(f32)
func.func @gemm(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<4096x4096xf16>, memref<4096x4096xf16>, memref<4096x4096xf32>
  return
}
