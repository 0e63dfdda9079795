// f16 inputs, f32 accumulation and output: the study's reference precision.
// A is row-major M x K, B is column-major (stored N x K), C is row-major.
func.func @gemm_f16_f32(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                     %c: memref<4096x4096xf32>) {
  tgemm.matmul %a, %