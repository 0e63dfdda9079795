// RUN: not tgemm-opt %s --tgemm-attach-target="chip=sm_70" --tgemm-check-target 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tgemm-opt %s --tgemm-attach-target="family=wgmma" --tgemm-check-target 2>&1 | FileCheck %s --check-prefix=LOWERING

// Bad pass options are reported once, before any op is looked at.
// CHIP: error: unknown chip 'sm_70'; known chips: sm_80, sm_86, sm_89, sm_90
// LOWERING: error: unknown lowering 'wgmma'; expected wmma, ptx or any
func.func @empty() {
  return
}
