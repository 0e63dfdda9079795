// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_90 family=wmma" --tgemm-check-target="report-layouts"
// RUN: tgemm-opt %s --split-input-file --tgemm-attach-target="chip=sm_90 family=wmma" --tgemm-select-config --tgemm-check-target="report-layouts" 2>&1 | FileCheck %s --check-prefix=SELECTED

// The wmma family reads 8-bit fragments of the other layout with
// load_matrix_sync, at a cost (the legality module's operandPath); the
// selection (transpose-kernel=auto) then takes the transposing kernel
// where the GEMM reuses the operand enough (sizes known only at launch
// here). tf32 fragments load at the K-major rate in either layout: no
// remark.

func.func @s8_row_row(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-remark @+1 {{B (s8, stored K x N) is MN-major: the wmma lowering loads it with load_matrix_sync of the other layout}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 256, 64], warps = [2, 4], stages = 3>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}
// SELECTED: remark: B (s8, stored K x N) is MN-major: a kernel launched before the GEMM transposes it into the workspace (transpose_kernel), and the wmma lowering reads that K-major copy

// -----

func.func @u8_col_col(%a: memref<?x?xui8>, %b: memref<?x?xui8>, %c: memref<?x?xi32>) {
  // expected-remark @+1 {{A (u8, stored K x M) is MN-major: the wmma lowering loads it with load_matrix_sync of the other layout}}
  tgemm.matmul %a, %b, %c layout(col, col) acc(i32)
      config(<block = [128, 256, 64], warps = [2, 4], stages = 3>)
      : memref<?x?xui8>, memref<?x?xui8>, memref<?x?xi32>
  return
}
// SELECTED: remark: A (u8, stored K x M) is MN-major: a kernel launched before the GEMM transposes it into the workspace (transpose_kernel), and the wmma lowering reads that K-major copy

// -----

func.func @tf32_col_row(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      config(<block = [128, 256, 32], warps = [2, 4], stages = 3>)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}
// SELECTED-NOT: remark: {{.*}}tf32
