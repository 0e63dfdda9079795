//===- PtxBuilder.cpp - One inline-PTX instruction at a time --------------===//

#include "tgemm/Conversion/PtxBuilder.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tgemm;

std::string PtxBuilder::placeholder() const {
  return "$" + std::to_string(constraints.size());
}

std::string PtxBuilder::output(Type type, StringRef constraint) {
  assert(operands.empty() && "outputs must be added before inputs");
  std::string name = placeholder();
  outputTypes.push_back(type);
  constraints.push_back(constraint.str());
  return name;
}

std::string PtxBuilder::outputs(Type type, StringRef constraint, int count) {
  SmallVector<std::string> names;
  for (int i = 0; i < count; ++i)
    names.push_back(output(type, constraint));
  return "{" + llvm::join(names, ", ") + "}";
}

std::string PtxBuilder::input(Value value, StringRef constraint) {
  std::string name = placeholder();
  operands.push_back(value);
  constraints.push_back(constraint.str());
  return name;
}

std::string PtxBuilder::inputs(ValueRange values, StringRef constraint) {
  SmallVector<std::string> names;
  for (Value v : values)
    names.push_back(input(v, constraint));
  return "{" + llvm::join(names, ", ") + "}";
}

SmallVector<Value> PtxBuilder::emit(const Twine &instruction,
                                    bool sideEffects) {
  Type result;
  if (outputTypes.size() == 1)
    result = outputTypes.front();
  else if (!outputTypes.empty())
    result = LLVM::LLVMStructType::getLiteral(b.getContext(), outputTypes);
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, result, operands, instruction.str(),
      llvm::join(constraints, ","), sideEffects, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  SmallVector<Value> values;
  if (outputTypes.size() == 1)
    values.push_back(asmOp.getResult(0));
  else
    for (unsigned i = 0; i < outputTypes.size(); ++i)
      values.push_back(
          LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return values;
}
