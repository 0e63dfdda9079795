// RUN: tgemm-opt %s | tgemm-opt | FileCheck %s
// RUN: tgemm-opt %s --mlir-print-op-generic | tgemm-opt | FileCheck %s

// The tgemm attributes round-trip on their own, outside tgemm.matmul, in
// the form the generic printer uses.

// The raster group is printed only when it is not the default 1.
// CHECK-LABEL: func @attrs
// CHECK-SAME: tgemm.config = #tgemm.config<block = [256, 128, 64], warps = [4, 2], stages = 6>
// CHECK-SAME: tgemm.config_default = #tgemm.config<block = [64, 64, 32], warps = [2, 2], stages = 2>
// CHECK-SAME: tgemm.config_raster = #tgemm.config<block = [128, 256, 32], warps = [2, 4], stages = 4, raster = 8>
// CHECK-SAME: tgemm.config_split = #tgemm.config<block = [64, 128, 64], warps = [2, 2], stages = 4, split_k = 4>
// CHECK-SAME: tgemm.config_split_raster = #tgemm.config<block = [64, 128, 64], warps = [2, 2], stages = 4, raster = 2, split_k = 3>
// CHECK-SAME: tgemm.layouts = [#tgemm<layout row>, #tgemm<layout col>]
func.func @attrs() attributes {
    tgemm.config = #tgemm.config<block = [256, 128, 64], warps = [4, 2], stages = 6>,
    tgemm.config_default = #tgemm.config<block = [64, 64, 32], warps = [2, 2], stages = 2, raster = 1>,
    tgemm.config_raster = #tgemm.config<block = [128, 256, 32], warps = [2, 4], stages = 4, raster = 8>,
    tgemm.config_split = #tgemm.config<block = [64, 128, 64], warps = [2, 2], stages = 4, split_k = 4, raster = 1>,
    tgemm.config_split_raster = #tgemm.config<block = [64, 128, 64], warps = [2, 2], stages = 4, split_k = 3, raster = 2>,
    tgemm.layouts = [#tgemm<layout row>, #tgemm<layout col>]} {
  return
}

// The generic form of tgemm.matmul spells every attribute out; parsing it
// gives back the custom form.
// CHECK-LABEL: func @generic
// CHECK: tgemm.matmul %{{.*}}, %{{.*}}, %{{.*}} layout(col, row) acc(f32) beta(1.000000e+00)
// CHECK-SAME: config(<block = [64, 64, 32], warps = [2, 2], stages = 2>)
func.func @generic(%a: memref<32x64xf16>, %b: memref<32x128xf16>, %c: memref<64x128xf32>) {
  "tgemm.matmul"(%a, %b, %c) <{acc = f32, beta = 1.0 : f64,
      config = #tgemm.config<block = [64, 64, 32], warps = [2, 2], stages = 2>,
      layout_a = #tgemm<layout col>, layout_b = #tgemm<layout row>}>
      : (memref<32x64xf16>, memref<32x128xf16>, memref<64x128xf32>) -> ()
  return
}
