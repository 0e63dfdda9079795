// RUN: not tgemm-opt %s --split-input-file --tgemm-from-linalg 2>&1 | FileCheck %s
// RUN: not %mlir_opt %s --split-input-file 2>&1 | FileCheck %s

// A linalg.matmul on ui8 memrefs never reaches tgemm-from-linalg: the
// named op's body is built with arith casts (arith.extsi by default,
// arith.extui under cast_unsigned), and upstream's arith takes signless
// integers only, so the module does not verify after parsing. The error is
// the cast's, at an unknown location (the body is implicit), and the same
// with upstream's mlir-opt. Unsigned bytes from linalg are i8 buffers with
// cast_unsigned (from-linalg-contractions.mlir); tgemm.matmul itself takes
// ui8 operands (test/Dialect/TGemm/ops.mlir).

// CHECK-NOT: tgemm.matmul
// CHECK: <unknown>:0: error: 'arith.extsi' op operand #0 must be signless-fixed-width-integer-like, but got 'ui8'
// CHECK-NEXT: <unknown>:0: note: see current operation: %0 = "arith.extsi"(%arg3) : (ui8) -> i32
func.func @ui8(%a: memref<64x32xui8>, %b: memref<32x64xui8>, %c: memref<64x64xi32>) {
  linalg.matmul ins(%a, %b : memref<64x32xui8>, memref<32x64xui8>)
                outs(%c : memref<64x64xi32>)
  return
}

// -----

// CHECK-NOT: tgemm.matmul
// CHECK: <unknown>:0: error: 'arith.extui' op operand #0 must be signless-fixed-width-integer-like, but got 'ui8'
// CHECK-NEXT: <unknown>:0: note: see current operation: %0 = "arith.extui"(%arg3) : (ui8) -> i32
// CHECK-NOT: tgemm.matmul
func.func @ui8_cast_unsigned(%a: memref<64x32xui8>, %b: memref<32x64xui8>, %c: memref<64x64xi32>) {
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : memref<64x32xui8>, memref<32x64xui8>)
      outs(%c : memref<64x64xi32>)
  return
}
