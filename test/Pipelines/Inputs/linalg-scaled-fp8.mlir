// fp8 with per-tensor scales as torch._scaled_mm computes them:
// (a * scale_a) @ (b * scale_b) + bias, written as linalg: a matmul into a
// zero-filled f32 C, then one element-wise generic (scale_a, scale_b
// rank-0, bias per column).
#id = affine_map<(d0, d1) -> (d0, d1)>
#s = affine_map<(d0, d1) -> ()>
#col = affine_map<(d0, d1) -> (d1)>
func.func @scaled_mm(%a: memref<?x?xf8E4M3FN>, %bt: memref<?x?xf8E5M2>, %c: memref<?x?xf32>,
                     %sa: memref<f32>, %sb: memref<f32>, %bias: memref<?xbf16>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : memref<?x?xf8E4M3FN>, memref<?x?xf8E5M2>) outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#s, #s, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sa, %sb, %bias : memref<f32>, memref<f32>, memref<?xbf16>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: bf16, %v: f32):
    %0 = arith.mulf %v, %x : f32
    %1 = arith.mulf %0, %y : f32
    %2 = arith.extf %z : bf16 to f32
    %3 = arith.addf %1, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
