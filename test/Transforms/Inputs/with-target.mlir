module attributes {tgemm.target = #tgemm.target<chip = "sm_80", family = wmma>} {
  func.func @f() {
    return
  }
}
