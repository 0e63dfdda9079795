// RUN: tgemm-opt %s --split-input-file --verify-diagnostics --tgemm-tensor-maps-by-value | FileCheck %s

// The kernel's last arguments but one are its tensor maps (two here), then
// the i32 that says whether the runtime made them: each map becomes a
// 128-byte __grid_constant__ parameter, aligned to 64 bytes.
gpu.module @m {
  // CHECK-LABEL: llvm.func @k
  // CHECK-SAME: (%{{[a-z0-9]+}}: i64,
  // CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
  // CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
  // CHECK-SAME: %{{[a-z0-9]+}}: i32) attributes {nvvm.kernel} {
  llvm.func @k(%x: i64, %a: !llvm.ptr, %b: !llvm.ptr, %made: i32)
      attributes {nvvm.kernel, tgemm.tensor_map_params = 2 : i64} {
    llvm.return
  }
  // A kernel without the attribute is left alone.
  // CHECK-LABEL: llvm.func @plain(%{{.*}}: !llvm.ptr)
  llvm.func @plain(%p: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'llvm.func' op has 2 arguments, too few for 2 tensor maps and their flag}}
  llvm.func @k(%a: !llvm.ptr, %made: i32)
      attributes {nvvm.kernel, tgemm.tensor_map_params = 2 : i64} {
    llvm.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'llvm.func' op argument 0 should be a tensor map (!llvm.ptr), got 'i64'}}
  llvm.func @k(%a: i64, %b: !llvm.ptr, %made: i32)
      attributes {nvvm.kernel, tgemm.tensor_map_params = 2 : i64} {
    llvm.return
  }
}
