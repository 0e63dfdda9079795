// RUN: tgemm-opt %s --split-input-file --tgemm-tile --tgemm-lower-to-ptx | FileCheck %s

// tgemm-lower-to-ptx, per precision: cp.async copies with commit/wait
// groups, ldmatrix fragment loads, mma.sync with the instruction's shape and
// types, and the epilogue staged through shared memory into 16-byte stores.
// Each case is one warp with a 32x32 accumulator.

// f16 -> f32, 3 stages. Rings: 3 x 32 rows x 64 bytes = 6144 each, XOR
// swizzled (no padding): 12288 bytes; the epilogue slab (16 x (32 x 4 + 16))
// lives over the rings.
// CHECK-LABEL: func.func @f16_f32
// CHECK: %[[SMEM:.*]] = arith.constant 12288 : i32
// CHECK: gpu.launch_func {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK-SAME: lowering = "ptx"
// CHECK: gpu.func @f16_f32_kernel
// CHECK-NOT: tgemm.
// CHECK: arith.xori
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.cg.shared.global [$0], [$1], 16;", "r,l" {{.*}} : (i32, i64) -> ()
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", ""
// CHECK: scf.for {{.*}} -> (!llvm.array<32 x f32>, index, index)
// CHECK: "cp.async.wait_group 1;"
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: scf.if
// CHECK: "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p cp.async.cg.shared.global [$0], [$1], 16; }", "r,l,r"
// CHECK-NOT: scf.if
// CHECK: "cp.async.commit_group;"
// CHECK: "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r" {{.*}} : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"
// CHECK: scf.yield {{.*}} : !llvm.array<32 x f32>
// CHECK: "cp.async.wait_group 0;"
// CHECK-NEXT: gpu.barrier
// CHECK: llvm.store {{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.bar.warp.sync
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @f16_f32(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 3>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf32>
  return
}

// -----

// f16 accumulation in packed f16x2 registers; 16-bit operands stored the
// other way round go through ldmatrix.trans.
// CHECK-LABEL: gpu.func @f16_f16_kernel
// CHECK: "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];"
// CHECK: "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0, $1}, {$2, $3, $4, $5}, {$6, $7}, {$8, $9};", "=r,=r,r,r,r,r,r,r,r,r"
// CHECK: llvm.store {{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<1>
func.func @f16_f16(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  tgemm.matmul %a, %b, %c layout(col, row) acc(f16)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>
  return
}

// -----

// bf16 -> f32 -> bf16: 8 accumulators per 16-byte store of C.
// CHECK-LABEL: gpu.func @bf16_kernel
// CHECK: "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<1>
func.func @bf16(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xbf16>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xbf16>
  return
}

// -----

// TF32: m16n8k8, still a 32-byte k-step.
// CHECK-LABEL: gpu.func @tf32_kernel
// CHECK: "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
func.func @tf32(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 32, 16], warps = [1, 1], stages = 2>)
      : memref<64x64xf32>, memref<64x64xf32>, memref<64x64xf32>
  return
}

// -----

// 8-bit and 4-bit integers into i32, with an integer epilogue.
// CHECK-LABEL: gpu.func @ints_kernel
// CHECK: "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r"
// CHECK: arith.muli {{.*}} : vector<4xi32>
// CHECK-LABEL: gpu.func @ints_1_kernel
// CHECK: "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32
// CHECK-LABEL: gpu.func @ints_2_kernel
// CHECK: "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32
func.func @ints(%a: memref<64x64xi8>, %b: memref<64x64xi8>, %c: memref<64x64xi32>,
                %ua: memref<64x64xui8>, %ub: memref<64x64xui8>,
                %qa: memref<64x128xi4>, %qb: memref<64x128xi4>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(i32) alpha(2.0)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<64x64xi8>, memref<64x64xi8>, memref<64x64xi32>
  tgemm.matmul %ua, %ub, %c layout(row, col) acc(i32)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<64x64xui8>, memref<64x64xui8>, memref<64x64xi32>
  tgemm.matmul %qa, %qb, %c layout(row, col) acc(i32)
      config(<block = [32, 32, 64], warps = [1, 1], stages = 2>)
      : memref<64x128xi4>, memref<64x128xi4>, memref<64x64xi32>
  return
}

// -----

// fp8 (sm_89+): m16n8k32 with f32 accumulation; an odd number of
// n-fragments ends with an x2 ldmatrix.
// CHECK-LABEL: gpu.func @fp8_kernel
// CHECK: "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {$0, $1}, [$2];"
// CHECK: "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// CHECK-LABEL: gpu.func @fp8_1_kernel
// CHECK: "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32
func.func @fp8(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E4M3FN>, %c: memref<64x64xf32>,
               %a2: memref<64x64xf8E5M2>, %b2: memref<64x64xf8E5M2>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      config(<block = [32, 8, 32], warps = [1, 1], stages = 2>)
      : memref<64x64xf8E4M3FN>, memref<64x64xf8E4M3FN>, memref<64x64xf32>
  tgemm.matmul %a2, %b2, %c layout(row, col) acc(f32)
      config(<block = [32, 32, 32], warps = [1, 1], stages = 2>)
      : memref<64x64xf8E5M2>, memref<64x64xf8E5M2>, memref<64x64xf32>
  return
}
