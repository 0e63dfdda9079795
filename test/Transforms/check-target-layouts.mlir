// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-check-target="report-layouts"
// RUN: grep -v expected-remark %s | tgemm-opt --split-input-file --tgemm-attach-target="chip=sm_90 family=ptx" --tgemm-check-target 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET

// With report-layouts, the target check says how the family loads each
// operand it does not load natively (the legality module's operandPath);
// without it, nothing.
// QUIET-NOT: remark

func.func @s8_row_row(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-remark @+1 {{B (s8, stored K x N) is MN-major: the ptx lowering loads it with ldmatrix.trans of byte pairs and prmt}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

func.func @e4m3_col_row(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  // expected-remark @+2 {{A (e4m3, stored K x M) is MN-major: the ptx lowering loads it with ldmatrix.trans of byte pairs and prmt}}
  // expected-remark @+1 {{B (e4m3, stored K x N) is MN-major: the ptx lowering loads it with ldmatrix.trans of byte pairs and prmt}}
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      config(<block = [128, 128, 64], warps = [2, 4], stages = 3>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}

// -----

func.func @tf32_col_col(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-remark @+1 {{A (tf32, stored K x M) is MN-major: the ptx lowering loads it with one ld.shared per element}}
  tgemm.matmul %a, %b, %c layout(col, col) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}

// -----

// Without ldmatrix an 8-bit MN-major operand is loaded a byte at a time.
func.func @s8_no_ldmatrix(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-remark @+1 {{B (s8, stored K x N) is MN-major: the ptx lowering loads it with one ld.shared per element}}
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [128, 128, 64], warps = [2, 2], stages = 3>)
      schedule(<ldmatrix = false>)
      : memref<?x?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return
}

// -----

// 16-bit MN-major operands are native (ldmatrix.trans): no remark.
func.func @f16_col_row(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      config(<block = [128, 128, 32], warps = [2, 2], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
