// RUN: not tgemm-opt %s --tgemm-attach-target="chip=sm_70" --tgemm-check-target 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tgemm-opt %s --tgemm-attach-target="family=tensor" --tgemm-check-target 2>&1 | FileCheck %s --check-prefix=LOWERING

// Bad pass options are reported once, before any op is looked at, with
// the option's name; a matmul without a target is an error.
// RUN: not tgemm-opt %s --tgemm-check-target 2>&1 | FileCheck %s --check-prefix=NOTARGET
// NOTARGET: error: 'tgemm.matmul' op has no target: set the module's tgemm.target (--tgemm-attach-target, as --tgemm-pipeline does)
// CHIP: error: option 'chip': unknown chip 'sm_70'; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a
// LOWERING: error: option 'family': unknown instruction family 'tensor'; expected wmma, ptx or wgmma
func.func @gemm(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
  tgemm.matmul %a, %b, %c layout(row, col) acc(f32)
      : memref<256x256xf16>, memref<256x256xf16>, memref<256x256xf32>
  return
}
