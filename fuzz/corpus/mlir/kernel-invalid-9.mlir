func.func @store_type(%acc: !tgemm.acc<32x32xi32>, %c: memref<?x?xf32>, %i: index) {
  tgemm.store_tile %acc, %c[%i, %i] : !tgemm.acc<32x32xi32>, memref<?x?xf32>
  return
}
