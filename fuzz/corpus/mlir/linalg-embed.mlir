// C += A * B on row-major memrefs, f16 operands, f32 accumulation, written
// with upstream linalg: what tgemm-embed-demo compiles to PTX and a launch
// manifest (the pipeline imports it with tgemm-from-linalg and picks the
// tile config).
func.func @matmul(%a: memref<1024x512xf16>, %b: memref<512x2048xf16>,
                  %c: memref<1024x2048xf32>) {
  linalg.matmul ins(%a, %b : memref<1024x512xf16>, memref<512x2048xf16>)
                outs(%c : memref<1024x2048xf32>)
  return
}
