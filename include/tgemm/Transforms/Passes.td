//===- Passes.td - tgemm transformation passes -------------*- tablegen -*-===//

#ifndef TGEMM_TRANSFORMS_PASSES_TD
#define TGEMM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TGemmCheckTarget : Pass<"tgemm-check-target"> {
  let summary = "Check every tgemm.matmul against one chip and lowering";
  let description = [{
    The `tgemm.matmul` verifier only knows what holds on every chip. Once a
    chip and a lowering are chosen, this pass checks what depends on them and
    reports each violation with the op's location:

    - the lowering's instruction family has an instruction for the precision
      (e.g. WMMA has no fp8);
    - the chip has that instruction (fp8 `mma.sync` needs sm_89 or newer);
    - the config's shared-memory stage ring fits the chip's per-block limit.

    ```
    tgemm-opt --tgemm-check-target="chip=sm_86 lowering=ptx" gemm.mlir
    ```

    `lowering=any` accepts an op if either family can compile it.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip (sm_80, sm_86, sm_89, sm_90)">,
    Option<"lowering", "lowering", "std::string", /*default=*/"\"any\"",
           "Instruction family: wmma, ptx, or any">,
  ];
}

#endif // TGEMM_TRANSFORMS_PASSES_TD
