// What upstream front ends hand over for an int8 GEMM: linalg.matmul with B
// stored K x N (the default maps), i32 accumulation, and the same with fp8
// operands and a float C.
func.func @int8(%a: memref<4096x4096xi8>, %b: memref<4096x4096xi8>, %c: memref<4096x4096xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<4096x4096xi32>)
  linalg.matmul ins(%a, %b : memref<4096x4096xi8>, memref<4096x4096xi8>)
                outs(%c : memref<4096x4096xi32>)
  return
}

func.func @fp8(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>)
                outs(%c : memref<?x?xf32>)
  return
}
