// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | FileCheck %s

// tgemm-tile with warp_specialize and tma: the kernel takes the tensor maps
// of A and B after its memrefs (the host's tgemm.tensor_map, which the
// runtime makes from the manifest's tensor_maps), its block has the
// producer warpgroup after the 8 consumer warps, and each main loop
// (whole tiles, any size) splits into the producer's copies and the
// consumers' multiplies, ordered by the full and empty barrier rings.
func.func @ws(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 256, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, setmaxnreg = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// The host: a descriptor per operand, 128 x 64 tiles of A and 256 x 64 of
// B (N x K), 128-byte swizzled; 4 stages of (128 + 256) x 128 bytes and 8
// barriers: 196608 + 64 bytes.
// CHECK-LABEL: func.func @ws
// CHECK-DAG: %[[MAPA:.*]] = tgemm.tensor_map %{{.*}} box [128, 64] swizzle 128 : memref<?x?xf16> -> !llvm.ptr
// CHECK-DAG: %[[MAPB:.*]] = tgemm.tensor_map %{{.*}} box [256, 64] swizzle 128 : memref<?x?xf16> -> !llvm.ptr
// CHECK-DAG: %[[SMEM:.*]] = arith.constant 196672 : i32
// CHECK-DAG: %[[THREADS:.*]] = arith.constant 384 : index
// CHECK-DAG: %[[MADE:.*]] = arith.constant 1 : i32
// CHECK: gpu.launch_func @ws_module::@ws_kernel {{.*}} threads in (%[[THREADS]], {{.*}}) dynamic_shared_memory_size %[[SMEM]] args({{.*}}, %[[MAPA]] : !llvm.ptr, %[[MAPB]] : !llvm.ptr, %[[MADE]] : i32)
// CHECK-SAME: block = [384, 1, 1]
// CHECK-SAME: tensor_maps = [{box = [128, 64], operand = "a", passing = "param", swizzle = 128 : i64}, {box = [256, 64], operand = "b", passing = "param", swizzle = 128 : i64}]

// The maps travel by value (tgemm-tensor-maps-by-value), then whether
// the runtime made both.
// CHECK: gpu.func @ws_kernel(%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf32>, %[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr, %[[MADEARG:.*]]: i32)
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK-SAME: tgemm.schedule = #tgemm.schedule<warp_specialize = true, tma = true, setmaxnreg = true>
// CHECK-SAME: tgemm.tensor_map_params = 2 : i64
// CHECK: %[[FULL:.*]] = tgemm.alloc_barriers : <4>
// CHECK: %[[EMPTY:.*]] = tgemm.alloc_barriers : <4>
// The whole-tile main loop: TMA where the runtime made both maps (one
// arrival with the bytes per phase), else cp.async (128 arrivals).
// CHECK: scf.if
// CHECK: %[[USE:.*]] = arith.cmpi ne, %[[MADEARG]], %{{.*}} : i32
// CHECK: %[[ARRIVALS:.*]] = arith.select %[[USE]], %{{.*}}, %{{.*}} : index
// CHECK: tgemm.init_barriers %[[FULL]] arrivals %[[ARRIVALS]]
// CHECK: tgemm.init_barriers %[[EMPTY]] arrivals %{{.*}}
// The producer (threads 256 and up), with the maps, gives registers back,
// then one thread issues the bulk copies: wait for the stage's release
// (the previous lap's parity), announce 49152 bytes, copy A and B.
// CHECK: %[[PRODUCER:.*]] = arith.cmpi uge, %{{.*}}, %c256
// CHECK: scf.if %[[PRODUCER]]
// CHECK: scf.if %[[USE]]
// CHECK: tgemm.set_max_registers 40
// CHECK: scf.for {{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[P:.*]] = %{{.*}})
// CHECK: %[[LAP:.*]] = arith.xori %[[P]]
// CHECK: tgemm.wait_barrier %[[EMPTY]][%[[S]]] parity %[[LAP]]
// CHECK: tgemm.arrive_barrier %[[FULL]][%[[S]]] expect_bytes 49152
// CHECK: tgemm.bulk_copy_tile %[[A]][%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%[[S]]], %[[FULL]]
// CHECK: tgemm.bulk_copy_tile %[[B]][%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%[[S]]], %[[FULL]]
// Without the maps: the producer warpgroup's cp.async copies.
// CHECK: } else {
// CHECK: tgemm.wait_barrier %[[EMPTY]]
// CHECK: tgemm.copy_tile {{.*}} async in_bounds threads [256, 128]
// CHECK: tgemm.copy_tile {{.*}} async in_bounds threads [256, 128]
// CHECK: tgemm.commit_copies
// CHECK: tgemm.wait_copies pending = 0
// CHECK: tgemm.arrive_barrier %[[FULL]][%{{.*}}] :
// The consumers take the registers (where the producer gave them), wait
// for each stage and start its multiply with one left in flight; from the
// second k-tile on, the previous one has completed and its stage (the one
// before, S - 1 after stage 0) is released. The epilogue reads the
// accumulator once the last multiply has completed.
// CHECK: } else {
// CHECK: scf.if %[[USE]]
// CHECK: tgemm.set_max_registers 232
// CHECK: scf.for %[[KT:[a-z0-9_]+]] = {{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[CS:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[CP:[a-z0-9_]+]] = %{{[a-z0-9_]+}})
// CHECK: tgemm.wait_barrier %[[FULL]][%[[CS]]] parity %[[CP]]
// CHECK: tgemm.mma_tile {{.*}} in_flight 1 :
// CHECK: %[[LATER:[0-9]+]] = arith.cmpi ult, %{{[a-z0-9_]+}}, %[[KT]]
// CHECK: scf.if %[[LATER]]
// CHECK: %[[FIRST:[0-9]+]] = arith.cmpi eq, %[[CS]], %{{[a-z0-9_]+}}
// CHECK: %[[PREV:[0-9]+]] = arith.select %[[FIRST]], %c3, %{{[0-9]+}}
// CHECK: tgemm.arrive_barrier %[[EMPTY]][%[[PREV]]] :
// CHECK: %[[DONE:[0-9]+]] = tgemm.wait_mma %{{.*}} : <16x256xf32>
// CHECK: tgemm.store_tile %[[DONE]], {{.*}} in_bounds threads [0, 256]
