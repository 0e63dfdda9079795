// RUN: tgemm-opt %s --split-input-file --tgemm-tile --tgemm-lower-to-ptx --tgemm-lower-to-wmma --tgemm-lower-to-wgmma | FileCheck %s

// tgemm.reduce_splits, the same in every family (TileLowering's shared
// pattern): the block meets, one thread adds 1 to the tile's semaphore
// (acquire-release, GPU scope), a barrier ORs whether it was the last;
// the last block resets the semaphore and sums the parts in part order,
// 16 bytes of each per vector, through the epilogue.

#ptx = #tgemm.target<chip = "sm_90", family = ptx>
// CHECK-LABEL: gpu.func @ptx_kernel
// CHECK: nvvm.barrier
// CHECK: scf.if
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "atom.acq_rel.gpu.add.u32 $0, [$1], 1;", "=r,l"
// CHECK: llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: %[[LAST:.*]] = nvvm.barrier #nvvm.reduction<or> %{{.*}} -> i32
// CHECK: scf.for
// CHECK-COUNT-3: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
module attributes {tgemm.target = #ptx} {
  func.func @ptx(%a: memref<512x4096xf16>, %b: memref<512x4096xf16>,
                 %c: memref<512x512xf16>) {
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
        config(<block = [128, 128, 32], warps = [2, 2], stages = 3, split_k = 3>)
        : memref<512x4096xf16>, memref<512x4096xf16>, memref<512x512xf16>
    return
  }
}

// -----

// The warp-specialized wgmma kernel: only its consumer warpgroups take
// part, on named barrier 1 (PTX's bar.red takes a barrier and a count).
#wgmma = #tgemm.target<chip = "sm_90a", family = wgmma>
// CHECK-LABEL: gpu.func @wgmma_kernel
// CHECK: "atom.acq_rel.gpu.add.u32 $0, [$1], 1;"
// CHECK: bar.red.or.pred q, 1, 256, p;
// CHECK: scf.for
// CHECK: arith.addi %{{.*}}, %{{.*}} : vector<4xi32>
module attributes {tgemm.target = #wgmma} {
  func.func @wgmma(%a: memref<512x4096xi8>, %b: memref<512x4096xi8>,
                   %c: memref<512x512xi32>) {
    tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
        config(<block = [128, 128, 128], warps = [8, 1], stages = 4, split_k = 2>)
        : memref<512x4096xi8>, memref<512x4096xi8>, memref<512x512xi32>
    return
  }
}

// -----

#wmma = #tgemm.target<chip = "sm_80", family = wmma>
// CHECK-LABEL: gpu.func @wmma_kernel
// CHECK: "atom.acq_rel.gpu.add.u32 $0, [$1], 1;"
// CHECK: nvvm.barrier #nvvm.reduction<or>
module attributes {tgemm.target = #wmma} {
  func.func @wmma(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                  %c: memref<?x?xf32>) {
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32) beta(1.0)
        config(<block = [64, 64, 32], warps = [2, 2], stages = 2, split_k = 4>)
        : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
    return
  }
}

// -----

// With 256 threads or more reducing (2 x 4 warps here), each thread loads
// the parts of several vectors (4 vectors x 4 parts) before it stores any.
#ptx = #tgemm.target<chip = "sm_90", family = ptx>
// CHECK-LABEL: gpu.func @ptx_batched_kernel
// CHECK: nvvm.barrier #nvvm.reduction<or>
// CHECK: scf.for
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.store
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK: arith.addf
// CHECK: llvm.store
module attributes {tgemm.target = #ptx} {
  func.func @ptx_batched(%a: memref<512x4096xf16>, %b: memref<512x4096xf16>,
                         %c: memref<512x512xf32>) {
    tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
        config(<block = [128, 128, 32], warps = [2, 4], stages = 3, split_k = 4>)
        : memref<512x4096xf16>, memref<512x4096xf16>, memref<512x512xf32>
    return
  }
}
