//===- ElementType.cpp - Element types, layouts and GEMM signatures -------===//

#include "tgemm/runtime/ElementType.h"

namespace tgemm::runtime {

namespace {
struct TypeInfo {
  ElementType type;
  const char *name;
  int bits;
};
constexpr TypeInfo kTypes[] = {
    {ElementType::F16, "f16", 16},   {ElementType::BF16, "bf16", 16},
    {ElementType::F32, "f32", 32},   {ElementType::TF32, "tf32", 32},
    {ElementType::S8, "s8", 8},      {ElementType::U8, "u8", 8},
    {ElementType::S4, "s4", 4},      {ElementType::E4M3, "e4m3", 8},
    {ElementType::E5M2, "e5m2", 8},  {ElementType::S32, "s32", 32},
};
} // namespace

const char *elementTypeName(ElementType type) {
  for (const TypeInfo &info : kTypes)
    if (info.type == type)
      return info.name;
  return "?";
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (const TypeInfo &info : kTypes)
    if (name == info.name)
      return info.type;
  return std::nullopt;
}

const char *allElementTypeNames() {
  return "f16, bf16, f32, tf32, s8, u8, s4, e4m3, e5m2, s32";
}

int elementBits(ElementType type) {
  for (const TypeInfo &info : kTypes)
    if (info.type == type)
      return info.bits;
  return 8;
}

bool isIntegerType(ElementType type) {
  return type == ElementType::S8 || type == ElementType::U8 ||
         type == ElementType::S4 || type == ElementType::S32;
}

bool isFloat8Type(ElementType type) {
  return type == ElementType::E4M3 || type == ElementType::E5M2;
}

int64_t storageBytes(ElementType type, int64_t elements) {
  return (elements * elementBits(type) + 7) / 8;
}

const char *layoutName(Layout layout) {
  return layout == Layout::Row ? "row" : "col";
}

std::optional<Layout> parseLayout(std::string_view name) {
  if (name == "row")
    return Layout::Row;
  if (name == "col")
    return Layout::Col;
  return std::nullopt;
}

const char *dimName(Dim dim) {
  switch (dim) {
  case Dim::M:
    return "m";
  case Dim::N:
    return "n";
  case Dim::K:
    return "k";
  case Dim::Batch:
    return "batch";
  }
  return "?";
}

std::optional<Dim> parseDim(std::string_view name) {
  if (name == "m")
    return Dim::M;
  if (name == "n")
    return Dim::N;
  if (name == "k")
    return Dim::K;
  if (name == "batch")
    return Dim::Batch;
  return std::nullopt;
}

const char *operandName(Operand operand) {
  switch (operand) {
  case Operand::A:
    return "a";
  case Operand::B:
    return "b";
  case Operand::C:
    return "c";
  }
  return "?";
}

std::string GemmSpec::signature() const {
  std::string s = elementTypeName(a.type);
  s += "*";
  s += elementTypeName(b.type);
  s += "->";
  s += elementTypeName(c.type);
  s += " (acc ";
  s += elementTypeName(acc);
  s += ")";
  return s;
}

namespace {
bool isFloatOutput(ElementType t) {
  return t == ElementType::F32 || t == ElementType::F16 ||
         t == ElementType::BF16;
}
} // namespace

bool isSupportedCombination(const GemmSpec &spec, std::string *why) {
  using ET = ElementType;
  ET a = spec.a.type, b = spec.b.type, acc = spec.acc, c = spec.c.type;
  auto reject = [&](const std::string &reason) {
    if (why)
      *why = reason;
    return false;
  };

  // The README's table of tgemm.matmul types.
  if (isFloat8Type(a) || isFloat8Type(b)) {
    if (!isFloat8Type(a) || !isFloat8Type(b))
      return reject("e4m3/e5m2 operands must both be fp8");
    if (acc != ET::F32)
      return reject("fp8 operands accumulate in f32");
    if (!isFloatOutput(c))
      return reject("fp8 operands give C in f32, f16 or bf16");
    return true;
  }
  if (a != b)
    return reject("A and B must have the same element type (except for "
                  "mixed e4m3/e5m2)");
  switch (a) {
  case ET::F16:
    if (acc == ET::F32 && isFloatOutput(c))
      return true;
    if (acc == ET::F16 && (c == ET::F16 || c == ET::F32))
      return true;
    return reject("f16 operands: acc f32 gives C in f32, f16 or bf16; acc "
                  "f16 gives C in f16 or f32");
  case ET::BF16:
  case ET::TF32:
  case ET::F32:
    if (acc == ET::F32 && isFloatOutput(c))
      return true;
    return reject(std::string(elementTypeName(a)) +
                  " operands accumulate in f32 and give C in f32, f16 or "
                  "bf16");
  case ET::S8:
  case ET::U8:
  case ET::S4:
    if (acc == ET::S32 && c == ET::S32)
      return true;
    return reject("integer operands accumulate in s32 and give C in s32");
  case ET::S32:
    return reject("s32 is not an operand type of A or B");
  default:
    return reject("unknown operand type");
  }
}

} // namespace tgemm::runtime
