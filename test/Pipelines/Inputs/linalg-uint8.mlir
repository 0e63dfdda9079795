// Unsigned 8-bit GEMMs as upstream front ends write them: signless i8
// buffers extended as unsigned, B stored K x N (linalg.matmul's default
// maps) and, in a generic, N x K.
func.func @uint8(%a: memref<4096x4096xi8>, %b: memref<4096x4096xi8>, %c: memref<4096x4096xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<4096x4096xi32>)
  linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : memref<4096x4096xi8>, memref<4096x4096xi8>)
      outs(%c : memref<4096x4096xi32>)
  return
}

func.func @uint8_nt(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                   affine_map<(m, n, k) -> (n, k)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>) {
  ^bb0(%x: i8, %y: i8, %z: i32):
    %xi = arith.extui %x : i8 to i32
    %yi = arith.extui %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %z, %p : i32
    linalg.yield %s : i32
  }
  return
}
