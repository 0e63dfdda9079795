//===- PtxBuilder.h - One inline-PTX instruction at a time -------*- C++ -*-===//
//
// Every inline PTX the ptx lowering emits goes through this builder, so the
// asm string, its `$N` placeholders and the constraint list are assembled in
// one place:
//
//   PtxBuilder ptx(b, loc);
//   std::string d = ptx.outputs(f32, "=f", 4);      // "{$0, $1, $2, $3}"
//   std::string a = ptx.inputs(aRegs, "r");         // "{$4, ...}"
//   SmallVector<Value> out = ptx.emit("mma.sync.aligned.m16n8k16.row.col"
//       ".f32.f16.f16.f32 " + d + ", " + a + ", " + b + ", " + c + ";");
//
// Outputs are numbered before inputs, as in LLVM inline asm, so they must
// be added first.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_CONVERSION_PTXBUILDER_H
#define TGEMM_CONVERSION_PTXBUILDER_H

#include "mlir/IR/Builders.h"

namespace mlir::tgemm {

class PtxBuilder {
public:
  PtxBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  /// Adds one output register; returns its placeholder (`$N`).
  std::string output(Type type, StringRef constraint);
  /// Adds `count` output registers; returns `{$N, ...}`.
  std::string outputs(Type type, StringRef constraint, int count);
  /// Adds one input operand; returns its placeholder.
  std::string input(Value value, StringRef constraint);
  /// Adds input operands; returns `{$N, ...}`.
  std::string inputs(ValueRange values, StringRef constraint);

  /// Emits `llvm.inline_asm` with `instruction` and returns one value per
  /// output. Instructions that touch memory or synchronize keep
  /// `sideEffects`, so that nothing moves them across each other or across
  /// barriers.
  SmallVector<Value> emit(const Twine &instruction, bool sideEffects = true);

private:
  std::string placeholder() const;

  OpBuilder &b;
  Location loc;
  SmallVector<Type> outputTypes;
  SmallVector<Value> operands;
  SmallVector<std::string> constraints;
};

} // namespace mlir::tgemm

#endif // TGEMM_CONVERSION_PTXBUILDER_H
