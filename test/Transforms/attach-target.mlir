// RUN: tgemm-opt %s --tgemm-attach-target | FileCheck %s --check-prefix=DEFAULT
// RUN: tgemm-opt %s --tgemm-attach-target="chip=sm_86 family=wmma" | FileCheck %s --check-prefix=GIVEN
// RUN: tgemm-opt %S/Inputs/with-target.mlir --tgemm-attach-target | FileCheck %s --check-prefix=KEPT
// RUN: tgemm-opt %S/Inputs/with-target.mlir --tgemm-attach-target="family=wmma" | FileCheck %s --check-prefix=KEPT
// RUN: not tgemm-opt %S/Inputs/with-target.mlir --tgemm-attach-target="chip=sm_90 family=ptx" 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: not tgemm-opt %s --tgemm-attach-target="chip=sm90" 2>&1 | FileCheck %s --check-prefix=CHIP

// The target is chosen once, on the module: by default sm_90 and ptx; a
// module that has one keeps it, and asking for another is an error that
// names both.
// DEFAULT: module attributes {tgemm.target = #tgemm.target<chip = "sm_90", family = ptx>}
// GIVEN: module attributes {tgemm.target = #tgemm.target<chip = "sm_86", family = wmma>}
// KEPT: module attributes {tgemm.target = #tgemm.target<chip = "sm_80", family = wmma>}
// CONFLICT: error: the module's target #tgemm.target<chip = "sm_80", family = wmma> differs from the requested chip 'sm_90' and family 'ptx'; remove one of them
// CHIP: error: option 'chip': unknown chip 'sm90'; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a
func.func @f() {
  return
}
