// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile --tgemm-lower-to-wgmma | FileCheck %s

// The producer's transpose of a staged row-major 8-bit B (tgemm.transpose_tile):
// each thread loads 4 k-rows x 16 bytes of a staging slot (16-byte ld.shared,
// rows rotated by the thread's block so a quarter-warp reads 8 swizzle
// keys), transposes each 4 x 4 block of bytes with 8 prmt (interleave rows
// 0/1 and 2/3, 0x5140 and 0x7362, then their halves, 0x5410 and 0x7632),
// rotates the rows back with one prmt of a per-thread selector, stores 32
// bits per ring row of B and fences the stores for wgmma's async proxy
// before arriving on `full`.
// CHECK-LABEL: gpu.func @b_row_e4m3_kernel
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: nvvm.prmt <default> %c20800_i32
// CHECK: nvvm.prmt <default> %c29538_i32
// CHECK: nvvm.prmt <default> %c21520_i32
// CHECK: nvvm.prmt <default> %c30258_i32
// CHECK: %[[BACK:.*]] = nvvm.prmt <default> %[[ROTATE:[0-9]+]], %[[WORD:[0-9]+]], %[[WORD]] : i32
// CHECK: llvm.store %[[BACK]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.mbarrier.arrive
func.func @b_row_e4m3(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf32>) {
  tgemm.matmul %a, %b, %c layout(row, row) acc(f32)
      config(<block = [128, 256, 128], warps = [8, 1], stages = 3>)
      schedule(<warp_specialize = true, tma = true>)
      : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>, memref<?x?xf32>
  return
}
