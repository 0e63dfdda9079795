// RUN: tgemm-opt %s --split-input-file --tgemm-tile --tgemm-lower-to-wmma | FileCheck %s

// tgemm-lower-to-wmma, per precision: fragment loads, mma and stores with
// the instruction's shape, types and layouts; 16-byte cp.async copies in
// commit groups; the launch's shared memory and manifest completed. Each
// case is one warp with a 32x32 accumulator, so the fragment counts are
// small. (The kernel holds the main loop twice, for whole tiles and for any
// size; the checks follow the first.)

// f16 -> f32, A row / B col. Rings: 2 stages x 32 rows x (32 + 16 padding)
// bytes = 3072 each; then 1 warp x 16x16 f32 scratch = 1024: 7168 bytes.
// CHECK-LABEL: func.func @f16_f32
// CHECK: %[[SMEM:.*]] = arith.constant 7168 : i32
// CHECK: gpu.launch_func {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK-SAME: dynamic_shared_memory = 7168 : i64
// CHECK-SAME: lowering = "wmma"
// CHECK: llvm.mlir.global external @__tgemm_dynamic_smem() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
// CHECK: gpu.func @f16_f32_kernel
// CHECK-NOT: tgemm.
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for {{.*}} -> (!llvm.array<32 x f32>, index, index)
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-COUNT-2: nvvm.wmma.load {{.*}} {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
// CHECK-COUNT-2: nvvm.wmma.load {{.*}} {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<b>, k = 16 : i32, layout = #nvvm.mma_layout<col>
// CHECK-COUNT-4: nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f32>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32}
// CHECK-NOT: nvvm.wmma.mma
// CHECK: scf.yield %{{.*}} : !llvm.array<32 x f32>
// CHECK: nvvm.wmma.store {{.*}} {eltype = #nvvm.mma_type<f32>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : !llvm.ptr<3>, f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xf32>
// CHECK: llvm.store {{.*}} : vector<8xf32>, !llvm.ptr<1>
func.func @f16_f32(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 32, 16], warps = [1, 1], stages = 2>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}

// -----

// f16 -> f16 with A and B column-major and row-major: the fragment layouts
// follow the operands; the epilogue scales by alpha in f32 and reads C.
// CHECK-LABEL: gpu.func @f16_f16_kernel
// CHECK: scf.for {{.*}} -> (!llvm.array<16 x vector<2xf16>>, index, index)
// CHECK: nvvm.wmma.load {{.*}} frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<col>
// CHECK: nvvm.wmma.load {{.*}} frag = #nvvm.mma_frag<b>, k = 16 : i32, layout = #nvvm.mma_layout<row>
// CHECK: nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f16>, k = 16 : i32, layoutA = #nvvm.mma_layout<col>, layoutB = #nvvm.mma_layout<row>
// CHECK: nvvm.wmma.store {{.*}} {eltype = #nvvm.mma_type<f16>
// CHECK: %[[ACC:.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: %[[WIDE:.*]] = arith.extf %[[ACC]] : vector<8xf16> to vector<8xf32>
// CHECK: arith.mulf %[[WIDE]], %{{.*}} : vector<8xf32>
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: arith.addf
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<1>
func.func @f16_f16(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f16) alpha(2.0) beta(1.0)
      config(<block = [32, 32, 16], warps = [1, 1], stages = 2>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>
  return
}

// -----

// bf16 -> f32 -> bf16: the NVVM dialect has no bf16 WMMA op, so fragments go
// through the LLVM intrinsics; the f32 accumulator is stored with the NVVM
// op and converted to bf16 lane by lane.
// CHECK-LABEL: gpu.func @bf16_kernel
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.load.a.row.stride.bf16"({{.*}}) : (!llvm.ptr<3>, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.load.b.col.stride.bf16"
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.wmma.m16n16k16.mma.row.col.bf16"({{.*}}) : (i32, i32, i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: nvvm.wmma.store {{.*}} {eltype = #nvvm.mma_type<f32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr<1>
func.func @bf16(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 32, 16], warps = [1, 1], stages = 2>)
      : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xbf16>
  return
}

// -----

// f32 operands run as TF32, m16n16k8: two k-steps per 16-deep tile.
// CHECK-LABEL: gpu.func @tf32_kernel
// CHECK-COUNT-2: nvvm.wmma.load {{.*}} {eltype = #nvvm.mma_type<tf32>, frag = #nvvm.mma_frag<a>, k = 8 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-2: nvvm.wmma.load {{.*}} frag = #nvvm.mma_frag<b>, k = 8
// CHECK-COUNT-4: nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<tf32>, eltypeB = #nvvm.mma_type<f32>, k = 8 : i32
// CHECK-COUNT-2: nvvm.wmma.load {{.*}} frag = #nvvm.mma_frag<a>, k = 8
// CHECK-COUNT-2: nvvm.wmma.load {{.*}} frag = #nvvm.mma_frag<b>, k = 8
// CHECK-COUNT-4: nvvm.wmma.mma {{.*}} k = 8 : i32
// CHECK-NOT: nvvm.wmma.mma
// CHECK: scf.yield
func.func @tf32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 32, 16], warps = [1, 1], stages = 2>)
      : memref<64x64xf32>, memref<64x64xf32>, memref<64x64xf32>
  return
}

// -----

// s8 and u8 -> s32, m16n16k16; integer epilogue.
// CHECK-LABEL: gpu.func @int8_kernel
// CHECK: nvvm.wmma.load {{.*}} {eltype = #nvvm.mma_type<s8>, frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK: nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<s8>, eltypeB = #nvvm.mma_type<s32>
// CHECK: nvvm.wmma.store {{.*}} {eltype = #nvvm.mma_type<s32>
// CHECK: arith.muli {{.*}} : vector<8xi32>
// CHECK: llvm.store {{.*}} : vector<8xi32>, !llvm.ptr<1>
// CHECK-LABEL: gpu.func @int8_1_kernel
// CHECK: nvvm.wmma.load {{.*}} {eltype = #nvvm.mma_type<u8>
// CHECK: nvvm.wmma.mma {{.*}} {eltypeA = #nvvm.mma_type<u8>, eltypeB = #nvvm.mma_type<s32>
func.func @int8(%a: memref<64x64xi8>, %b: memref<64x64xi8>, %c: memref<64x64xi32>,
                %ua: memref<64x64xui8>, %ub: memref<64x64xui8>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32) alpha(3.0)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<64x64xi8>, memref<64x64xi8>, memref<64x64xi32>
  tgemm.matmul %ua, %ub, %c layout(row, col) acc(i32)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<64x64xui8>, memref<64x64xui8>, memref<64x64xi32>
  return
}

// -----

// s4 -> s32 on the experimental m8n8k32 shape, through the LLVM intrinsics;
// each lane writes 2 of an 8x8 fragment's 64 results.
// CHECK-LABEL: gpu.func @int4_kernel
// CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m8n8k32.load.a.row.stride.s4"({{.*}}) : (!llvm.ptr<3>, i32) -> i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m8n8k32.load.b.col.stride.s4"({{.*}}) : (!llvm.ptr<3>, i32) -> i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m8n8k32.mma.row.col.s4"({{.*}}) : (i32, i32, i32, i32) -> !llvm.struct<(i32, i32)>
// CHECK: llvm.call_intrinsic "llvm.nvvm.wmma.m8n8k32.store.d.row.stride.s32"({{.*}}) : (!llvm.ptr<3>, i32, i32, i32) -> ()
// CHECK: llvm.store {{.*}} : vector<2xi32>, !llvm.ptr<1>
func.func @int4(%a: memref<64x128xi4>, %b: memref<64x128xi4>, %c: memref<64x64xi32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32)
      config(<block = [32, 32, 64], warps = [1, 1], stages = 2>)
      : memref<64x128xi4>, memref<64x128xi4>, memref<64x64xi32>
  return
}
