// A linear layer as a front end bufferizes it: the f32 product in a local
// buffer, a per-column bias, GELU (tanh, with x^3 as powf) and the cast to
// bf16 in one element-wise linalg.generic.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @linear_gelu(%x: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                       %bias: memref<?xbf16>, %y: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xbf16>
  %n = memref.dim %w, %c0 : memref<?x?xbf16>
  %acc = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%acc : memref<?x?xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : memref<?x?xbf16>, memref<?x?xbf16>)
      outs(%acc : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%acc, %bias : memref<?x?xf32>, memref<?xbf16>)
      outs(%y : memref<?x?xbf16>) {
  ^bb0(%a: f32, %b: bf16, %o: bf16):
    %bf = arith.extf %b : bf16 to f32
    %v = arith.addf %a, %bf : f32
    %three = arith.constant 3.0 : f32
    %k3 = arith.constant 0.044715 : f32
    %k = arith.constant 0.797884583 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %p = math.powf %v, %three : f32
    %q = arith.mulf %p, %k3 : f32
    %s = arith.addf %v, %q : f32
    %t = arith.mulf %s, %k : f32
    %th = math.tanh %t : f32
    %u = arith.addf %th, %one : f32
    %h = arith.mulf %v, %half : f32
    %r = arith.mulf %h, %u : f32
    %rb = arith.truncf %r : f32 to bf16
    linalg.yield %rb : bf16
  }
  memref.dealloc %acc : memref<?x?xf32>
  return
}
