// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | FileCheck %s --check-prefix=TILE
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile --tgemm-lower-to-wgmma | FileCheck %s

// MN-major 16-bit operands: a column-major A (stored K x M) and a row-major
// B (stored K x N). Each ring row is 128 columns (256 bytes), kept as two
// panels of 64 columns; a stage is 2 panels of 64 k-rows x 128 bytes
// (16384 bytes): the rings are 2 x 2 x 16384 bytes and the barriers 32
// more, less than the epilogue's slabs laid over them (8 warps x 16 rows x
// (128 x 4 + 16) bytes = 67584). The tensor maps copy one panel (64 x 64)
// at a time.
func.func @mn_major(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 2>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// TILE: tgemm.tensor_map %{{.*}} box [64, 64] swizzle 128
// TILE: tgemm.tensor_map %{{.*}} box [64, 64] swizzle 128
// TILE: %[[SMEM:.*]] = arith.constant 67584 : i32
// TILE: gpu.launch_func {{.*}} dynamic_shared_memory_size %[[SMEM]]
// TILE-SAME: tensor_maps = [{box = [64, 64], operand = "a", {{.*}}}, {box = [64, 64], operand = "b", {{.*}}}]

// The producer: per k-tile the stage's 32768 bytes on the full barrier, two
// panel copies of A (columns c and c + 64, 8192 bytes apart in the stage),
// then two of B.
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(32768 : i32) : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPA:arg[0-9]+]], %[[BAR:[0-9]+]], box
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[COL:.*]] = arith.addi %{{.*}}, %[[C64]] : index
// CHECK: %[[P1:.*]] = arith.constant 8192 : index
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPA]], %[[BAR]], box
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPB:arg[0-9]+]], %{{.*}}, box
// CHECK: arith.constant 8192 : index
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAPB]], %{{.*}}, box
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: nvvm.wgmma.fence.aligned
// The consumers: descriptors with panels 8192 bytes apart (leading byte
// offset 8192 >> 4 = 512, bits 16-29), 8-row groups 1024 bytes apart (64,
// bits 32-45), the 128-byte swizzle (bit 62); each k16 step 16 rows (2048
// bytes) further; the transpose bits of both operands.
// CHECK: arith.constant 4611686293338849280 : i64
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK: arith.constant 2048 : index
// CHECK: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK: arith.constant 4096 : index
// CHECK: nvvm.wgmma.mma_async
// CHECK: arith.constant 6144 : index
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
