// Operands whose rows the IR places less than 16-byte aligned, for
// align_kernel: f16 and s8 with an odd K (A and B both copied), a
// static stride of 1001 f16 elements (A copied, B aligned), a decode
// shape whose misaligned B is reused by 16 rows only, and a batch of four
// with an odd K (each matrix of A and B copied).
func.func @f16_odd(%a: memref<4095x999xf16>, %b: memref<4097x999xf16>,
                   %c: memref<4095x4097xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<4095x999xf16>, memref<4097x999xf16>, memref<4095x4097xf32>
  return
}

func.func @s8_odd_k(%a: memref<2048x1001xi8>, %b: memref<1024x1001xi8>,
                    %c: memref<2048x1024xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      : memref<2048x1001xi8>, memref<1024x1001xi8>, memref<2048x1024xi32>
  return
}

func.func @f16_strided(%a: memref<2048x1000xf16, strided<[1001, 1]>>,
                       %b: memref<2048x1000xf16>, %c: memref<2048x2048xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<2048x1000xf16, strided<[1001, 1]>>, memref<2048x1000xf16>,
        memref<2048x2048xf16>
  return
}

func.func @f16_decode(%a: memref<16x4095xf16>, %b: memref<4096x4095xf16>,
                      %c: memref<16x4096xf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<16x4095xf16>, memref<4096x4095xf16>, memref<16x4096xf16>
  return
}

func.func @f16_batched(%a: memref<4x1024x999xf16>, %b: memref<4x2048x999xf16>,
                       %c: memref<4x1024x2048xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<4x1024x999xf16>, memref<4x2048x999xf16>, memref<4x1024x2048xf32>
  return
}
