// An upstream linalg.matmul with B stored N x K (transposed), f16 into f32,
// on 4096^3 memrefs.
func.func @mm(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf32>) {
  linalg.matmul indexing_maps = [
      affine_map<(m, n, k) -> (m, k)>,
      affine_map<(m, n, k) -> (n, k)>,
      affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>)
      outs(%c : memref<4096x4096xf32>)
  return
}
