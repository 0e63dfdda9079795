// RUN: tgemm-opt %s --tgemm-tile --tgemm-lower-to-ptx | FileCheck %s --check-prefix=ALL
// RUN: tgemm-opt %s --tgemm-override-config=async-copy=false --tgemm-tile --tgemm-lower-to-ptx | FileCheck %s --check-prefix=SYNC
// RUN: tgemm-opt %s --tgemm-override-config=ldmatrix=false --tgemm-tile --tgemm-lower-to-ptx | FileCheck %s --check-prefix=NOLDM
// RUN: tgemm-opt %s --tgemm-override-config=swizzle=pad --tgemm-tile --tgemm-lower-to-ptx | FileCheck %s --check-prefix=PAD
// RUN: tgemm-opt %s --tgemm-override-config=swizzle=none --tgemm-tile --tgemm-lower-to-ptx | FileCheck %s --check-prefix=NONE

// Each feature of the ptx lowering can be switched off alone, and then
// nothing of it is left in the kernel.

// With everything on: XOR-swizzled rings (2 x 2 x 32 rows x 64 bytes).
// ALL: arith.constant 8192 : i32
// ALL: arith.xori
// ALL: cp.async.cg.shared.global
// ALL: cp.async.commit_group
// ALL: cp.async.wait_group
// ALL: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// ALL: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// async-copy=false: loads through registers, no async groups.
// SYNC-NOT: cp.async
// SYNC: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// SYNC: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// SYNC: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SYNC-NOT: cp.async

// ldmatrix=false: each thread loads its fragment words.
// NOLDM-NOT: ldmatrix.sync
// NOLDM: cp.async.cg.shared.global
// NOLDM: llvm.load {{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// NOLDM: mma.sync.aligned.m16n8k16
// NOLDM-NOT: ldmatrix.sync

// swizzle=pad: rows of 64 + 16 bytes (2 x 2 x 32 x 80 = 10240), no XOR.
// PAD: arith.constant 10240 : i32
// PAD-NOT: arith.xori
// PAD: ldmatrix.sync.aligned.m8n8.x4.shared.b16

// swizzle=none: rows back to back, no XOR.
// NONE: arith.constant 8192 : i32
// NONE-NOT: arith.xori
// NONE: ldmatrix.sync.aligned.m8n8.x4.shared.b16
func.func @gemm(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}
