// RUN: tgemm-opt %s --tgemm-tile --tgemm-lower-to-ptx | FileCheck %s
// RUN: tgemm-opt %s --tgemm-tile --tgemm-lower-to-wmma | FileCheck %s --check-prefix=WMMA

// Any size: each tile copy checks once, for the whole block, whether its
// tile lies inside the operand with 16-byte aligned rows. If so it takes the
// unguarded 16-byte path (cp.async here); if not, every chunk is loaded
// under a per-element mask with zeros outside the operand. The epilogue
// likewise stores whole vectors inside C and masked elements at its edges.

// CHECK-LABEL: gpu.func @gemm_kernel
// CHECK: memref.extract_strided_metadata
// CHECK: arith.andi {{.*}} : i1
// CHECK: scf.if %{{.*}} {
// CHECK: "cp.async.cg.shared.global [$0], [$1], 16;"
// CHECK: } else {
// An edge tile of an aligned operand stays asynchronous: the cp.async
// source size counts the bytes inside the operand, the rest is zero-filled.
// The rounds of chunks stay unrolled (the warps also multiply; only a
// warp-specialized producer's are a loop).
// CHECK: scf.if
// CHECK-NOT: scf.for
// CHECK: "cp.async.cg.shared.global [$0], [$1], 16, $2;", "r,l,r"
// CHECK: } else {
// Rows aligned to 8 or 4 bytes (e.g. an even leading dimension of f16):
// still asynchronous, as 2 or 4 cp.async of 8 or 4 bytes per chunk, each
// with its own source size.
// CHECK: scf.if
// CHECK-COUNT-2: "cp.async.ca.shared.global [$0], [$1], 8, $2;", "r,l,r"
// CHECK: } else {
// CHECK: scf.if
// CHECK-COUNT-4: "cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r"
// CHECK: } else {
// Rows aligned to less than 4 bytes: 16-byte loads where a chunk is whole,
// masked elsewhere.
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK: llvm.intr.masked.load {{.*}} : (!llvm.ptr<1>, vector<8xi1>, vector<8xi16>) -> vector<8xi16>
// CHECK: llvm.store {{.*}} : vector<4xi32>, !llvm.ptr<3>
// CHECK: mma.sync.aligned
// CHECK: scf.if
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: llvm.intr.masked.store {{.*}} : vector<4xf32>, vector<4xi1> into !llvm.ptr<1>

// WMMA-LABEL: gpu.func @gemm_kernel
// WMMA: scf.if
// WMMA: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// WMMA: } else {
// WMMA: llvm.intr.masked.load
// WMMA: nvvm.wmma.mma
// WMMA: llvm.intr.masked.store
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [64, 64, 32], warps = [2, 2], stages = 3>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}
