// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_90a family=wgmma" --tgemm-tile | FileCheck %s

// With align_kernel, an operand whose rows the IR places less than 16-byte
// aligned (f16 with K = 999: 1998-byte rows) is copied as stored before the
// GEMM by a kernel of its own: the host takes each copy in the workspace
// (same shape, rows the runtime's), launches the aligning kernel over the
// operand's 16 x 256 tiles (x over its 999 columns, y over its rows) with
// 256 threads, then the GEMM, which reads the copies with TMA. The
// manifest describes the caller's operands and the copies
// (aligned_copies).
// CHECK-LABEL: func.func @a_odd_f16
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<4095x999xf16> to memref<4095x999xf16, strided<[?, 1], offset: ?>>
// CHECK: %[[CA:.*]] = tgemm.aligned_copy %[[A]] : memref<4095x999xf16, strided<[?, 1], offset: ?>> -> memref<4095x999xf16, strided<[?, 1], offset: ?>>
// CHECK: gpu.launch_func @a_odd_f16_module::@a_odd_f16_align_a blocks in (%c4, %c256{{.*}}, %c1) threads in (%c256, %c1, %c1) args(%[[A]] : {{.*}}, %[[CA]] : {{.*}})
// CHECK: %[[CB:.*]] = tgemm.aligned_copy %{{.*}} : memref<256x999xf16, strided<[?, 1], offset: ?>> -> memref<256x999xf16, strided<[?, 1], offset: ?>>
// CHECK: gpu.launch_func @a_odd_f16_module::@a_odd_f16_align_b blocks in (%c4{{.*}}, %c16, %c1{{.*}})
// CHECK: %[[WS:.*]] = tgemm.workspace for %arg2 parts 1
// CHECK: tgemm.tensor_map %[[CA]] box [128, 64] swizzle 128
// CHECK: tgemm.tensor_map %[[CB]] box [128, 64] swizzle 128
// CHECK: gpu.launch_func @a_odd_f16_module::@a_odd_f16_kernel {{.*}} args(%[[CA]] : memref<4095x999xf16, strided<[?, 1], offset: ?>>, %[[CB]] : memref<256x999xf16, strided<[?, 1], offset: ?>>, %arg2 : memref<4095x256xf32>, %[[WS]] : memref<?xi8>
// CHECK-SAME: a = {layout = "row", type = "f16"}
// CHECK-SAME: aligned_copies = [{block = [256, 1, 1], kernel = "a_odd_f16_align_a", operand = "a", tile = [16, 256]}, {block = [256, 1, 1], kernel = "a_odd_f16_align_b", operand = "b", tile = [16, 256]}]
// The aligning kernel: a whole tile (one test for the block) loads its 16
// elements a thread, then stores them; an edge tile tests each element.
// CHECK: gpu.func @a_odd_f16_align_a(%[[IN:.*]]: memref<4095x999xf16, strided<[?, 1], offset: ?>>, %[[OUT:.*]]: memref<4095x999xf16, strided<[?, 1], offset: ?>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: scf.if
// CHECK-COUNT-16: memref.load
// CHECK-COUNT-16: memref.store
// CHECK: } else {
// CHECK-COUNT-16: scf.if
// CHECK: gpu.return
func.func @a_odd_f16(%a: memref<4095x999xf16>, %b: memref<256x999xf16>,
                     %c: memref<4095x256xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [128, 128, 64], warps = [8, 1], stages = 4>)
      schedule(<warp_specialize = true, tma = true, align_kernel = true>)
      : memref<4095x999xf16>, memref<256x999xf16>, memref<4095x256xf32>
  return
}
