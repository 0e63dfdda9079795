// RUN: tgemm-opt %s --split-input-file --tgemm-tile --tgemm-lower-to-ptx | FileCheck %s

// The ptx lowering's MN-major operands of 8 and 32 bits (legality's
// OperandPath): a row-major 8-bit B or column-major 8-bit A through
// ldmatrix.trans of byte pairs and prmt, tf32 through one ld.shared per
// element, and 8-bit without ldmatrix through byte loads.

// A row-major s8 B (stored K x N, rows of 128 bytes). The copies and the
// fragment loads place the ring's chunks with the paired-row key
// (row & 1) | ((row >> 1) & 6); each ldmatrix.x4.trans is followed by the
// two permutes of each register pair: bytes 0, 2, 4, 6 (even columns) and
// 1, 3, 5, 7 (odd columns). The epilogue writes each lane's pair of an
// even and an odd n-fragment as 4 adjacent columns.
// CHECK-LABEL: gpu.func @s8_row_row_kernel
// CHECK: cp.async.cg.shared.global
// CHECK: %[[SIX:.*]] = arith.constant 6 : index
// CHECK: %[[HIGH:.*]] = arith.andi %{{.*}}, %[[SIX]] : index
// CHECK: arith.ori %{{.*}}, %[[HIGH]] : index
// CHECK: %[[B:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];"
// CHECK-NEXT: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
// CHECK-NEXT: %[[B1:.*]] = llvm.extractvalue %[[B]][1]
// CHECK-NEXT: %[[B2:.*]] = llvm.extractvalue %[[B]][2]
// CHECK-NEXT: %[[B3:.*]] = llvm.extractvalue %[[B]][3]
// CHECK-NEXT: "prmt.b32 $0, $1, $2, 0x6420;", "=r,r,r" %[[B0]], %[[B1]]
// CHECK-NEXT: "prmt.b32 $0, $1, $2, 0x6420;", "=r,r,r" %[[B2]], %[[B3]]
// CHECK-NEXT: "prmt.b32 $0, $1, $2, 0x7531;", "=r,r,r" %[[B0]], %[[B1]]
// CHECK-NEXT: "prmt.b32 $0, $1, $2, 0x7531;", "=r,r,r" %[[B2]], %[[B3]]
// CHECK: "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-NOT: vector<2xi32>, !llvm.ptr<3>
// CHECK: gpu.return
func.func @s8_row_row(%a: memref<64x256xi8>, %b: memref<256x128xi8>, %c: memref<64x128xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [32, 128, 32], warps = [1, 2], stages = 2>)
      : memref<64x256xi8>, memref<256x128xi8>, memref<64x128xi32>
  return
}

// -----

// A column-major e4m3 A (stored K x M): the same loads fill each
// m-fragment (a0 and a2 from the even bytes, a1 and a3 from the odd ones),
// and the epilogue puts fragment row r at tile row 2 (r % 8) + r / 8: pairs
// of two adjacent columns, as without the permute, at twice the lane's row.
// CHECK-LABEL: gpu.func @e4m3_col_col_kernel
// CHECK: %[[A:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];"
// CHECK-NEXT: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
// CHECK-NEXT: %[[A1:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT: %[[A2:.*]] = llvm.extractvalue %[[A]][2]
// CHECK-NEXT: %[[A3:.*]] = llvm.extractvalue %[[A]][3]
// CHECK-NEXT: %[[E0:.*]] = llvm.inline_asm asm_dialect = att "prmt.b32 $0, $1, $2, 0x6420;", "=r,r,r" %[[A0]], %[[A1]]
// CHECK-NEXT: %[[E1:.*]] = llvm.inline_asm asm_dialect = att "prmt.b32 $0, $1, $2, 0x6420;", "=r,r,r" %[[A2]], %[[A3]]
// CHECK-NEXT: %[[O0:.*]] = llvm.inline_asm asm_dialect = att "prmt.b32 $0, $1, $2, 0x7531;", "=r,r,r" %[[A0]], %[[A1]]
// CHECK-NEXT: %[[O1:.*]] = llvm.inline_asm asm_dialect = att "prmt.b32 $0, $1, $2, 0x7531;", "=r,r,r" %[[A2]], %[[A3]]
// The B fragments (K-major) come from a plain ldmatrix.
// CHECK: "ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {{.*}}" %[[E0]], %[[O0]], %[[E1]], %[[O1]],
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NOT: vector<4xf32>, !llvm.ptr<3>
// CHECK: gpu.return
func.func @e4m3_col_col(%a: memref<256x64xf8E4M3FN>, %b: memref<64x256xf8E4M3FN>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(col, col) acc(f32)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<256x64xf8E4M3FN>, memref<64x256xf8E4M3FN>, memref<64x64xf32>
  return
}

// -----

// tf32 MN-major operands: each register is one element, loaded with one
// 32-bit ld.shared; no ldmatrix.trans (it would split the element).
// CHECK-LABEL: gpu.func @tf32_col_row_kernel
// CHECK-NOT: ldmatrix.sync
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NOT: ldmatrix.sync
// CHECK: "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: ldmatrix.sync
// CHECK: gpu.return
func.func @tf32_col_row(%a: memref<32x64xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<32x64xf32>, memref<32x64xf32>, memref<64x64xf32>
  return
}

// -----

// Without ldmatrix, an 8-bit MN-major register is four byte loads of k .. k
// + 3, packed low to high.
// CHECK-LABEL: gpu.func @s8_row_row_no_ldmatrix_kernel
// CHECK-NOT: ldmatrix.sync
// CHECK: %[[X0:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK: llvm.zext %[[X0]] : i8 to i32
// CHECK: %[[X1:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK: %[[W1:.*]] = llvm.zext %[[X1]] : i8 to i32
// CHECK: llvm.shl %[[W1]], %{{.*}} : i32
// CHECK: "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// CHECK-NOT: prmt
// CHECK: gpu.return
func.func @s8_row_row_no_ldmatrix(%a: memref<64x64xi8>, %b: memref<64x64xi8>, %c: memref<64x64xi32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(i32)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      schedule(<ldmatrix = false>)
      : memref<64x64xi8>, memref<64x64xi8>, memref<64x64xi32>
  return
}
