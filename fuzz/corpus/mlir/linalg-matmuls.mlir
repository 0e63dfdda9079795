// Upstream linalg on memrefs, as a front end writes it.
func.func @matmul(%a: memref<1000x512xf16>, %b: memref<512x768xf16>,
                  %c: memref<1000x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1000x768xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<1000x512xf16>, memref<512x768xf16>)
      outs(%c : memref<1000x768xf32>)
  return
}

func.func @batch_matmul(%a: memref<4x1000x512xbf16>, %b: memref<4x768x512xbf16>,
                        %c: memref<4x1000x768xbf16>) {
  linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : memref<4x1000x512xbf16>, memref<4x768x512xbf16>)
      outs(%c : memref<4x1000x768xbf16>)
  return
}
