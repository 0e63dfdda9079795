//===- ElementType.cpp - Element types, layouts and GEMM signatures -------===//

#include "tgemm/runtime/ElementType.h"

#include "tgemm/runtime/Json.h"

namespace tgemm::runtime {

namespace {
struct TypeInfo {
  ElementType type;
  const char *name;
  const char *mlir;
  int bits;
  bool integer;
  bool float8;
};
constexpr TypeInfo kTypes[] = {
#define TGEMM_ELEMENT_TYPE(Enum, name, mlir, bits, integer, float8)            \
  {ElementType::Enum, name, mlir, bits, integer, float8},
#include "tgemm/runtime/ElementTypes.def"
};

const TypeInfo &info(ElementType type) {
  for (const TypeInfo &entry : kTypes)
    if (entry.type == type)
      return entry;
  return kTypes[0]; // unreachable: every enumerator has a row
}
} // namespace

const std::vector<ElementType> &allElementTypes() {
  static const std::vector<ElementType> types = [] {
    std::vector<ElementType> out;
    for (const TypeInfo &entry : kTypes)
      out.push_back(entry.type);
    return out;
  }();
  return types;
}

const char *elementTypeName(ElementType type) { return info(type).name; }

std::optional<ElementType> parseElementType(std::string_view name) {
  for (const TypeInfo &entry : kTypes)
    if (name == entry.name)
      return entry.type;
  return std::nullopt;
}

const char *allElementTypeNames() {
  static const std::string names = [] {
    std::string out;
    for (const TypeInfo &entry : kTypes)
      out += std::string(out.empty() ? "" : ", ") + entry.name;
    return out;
  }();
  return names.c_str();
}

const char *mlirTypeName(ElementType type) { return info(type).mlir; }

int elementBits(ElementType type) { return info(type).bits; }

bool isIntegerType(ElementType type) { return info(type).integer; }

bool isFloat8Type(ElementType type) { return info(type).float8; }

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

bool isLegalOutput(ElementType acc, ElementType c) {
  using ET = ElementType;
  switch (acc) {
  case ET::F32:
    return c == ET::F32 || c == ET::F16 || c == ET::BF16;
  case ET::F16:
    return c == ET::F16 || c == ET::F32;
  case ET::S32:
    // A float C dequantizes: the epilogue converts the accumulator to f32.
    return c == ET::S32 || c == ET::F32 || c == ET::F16 || c == ET::BF16;
  default:
    return false;
  }
}

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
    if (!isLegalOutput(acc, c))
      return reject("fp8 operands give C in f32, f16 or bf16");
    return true;
  }
  if (a != b)
    return reject("A and B must have the same element type (except for "
                  "mixed e4m3/e5m2)");
  switch (a) {
  case ET::F16:
    if ((acc == ET::F32 || acc == ET::F16) && isLegalOutput(acc, c))
      return true;
    return reject("f16 operands: acc f32 gives C in f32, f16 or bf16; acc "
                  "f16 gives C in f16 or f32");
  case ET::BF16:
  case ET::TF32:
  case ET::F32:
    if (acc == ET::F32 && isLegalOutput(acc, c))
      return true;
    return reject(std::string(elementTypeName(a)) +
                  " operands accumulate in f32 and give C in f32, f16 or "
                  "bf16");
  case ET::S8:
  case ET::U8:
  case ET::S4:
    // A float C dequantizes: alpha * float(acc) + beta * float(C), then
    // any epilogue steps, rounded to C's type.
    if (acc == ET::S32 && isLegalOutput(acc, c))
      return true;
    return reject("integer operands accumulate in s32 and give C in s32, "
                  "f32, f16 or bf16");
  case ET::S32:
    return reject("s32 is not an operand type of A or B");
  default:
    return reject("unknown operand type");
  }
}

const std::string &elementTypesJson() {
  static const std::string text = [] {
    auto compiles = [](ElementType a, ElementType c) {
      for (ElementType acc : allElementTypes()) {
        GemmSpec spec;
        spec.a.type = spec.b.type = a;
        spec.acc = acc;
        spec.c.type = c;
        if (isSupportedCombination(spec, nullptr))
          return true;
      }
      return false;
    };
    std::vector<JsonValue> types;
    for (const TypeInfo &entry : kTypes) {
      bool operand = false, result = false;
      for (ElementType other : allElementTypes()) {
        // An f32 A/B operand is computed, and named, as tf32.
        operand |= entry.type != ElementType::F32 && compiles(entry.type, other);
        result |= compiles(other, entry.type);
      }
      types.push_back(JsonValue::makeObject(
          {{"name", JsonValue::makeString(entry.name)},
           {"mlir", JsonValue::makeString(entry.mlir)},
           {"bits", JsonValue::makeInteger(entry.bits)},
           {"integer", JsonValue::makeBool(entry.integer)},
           {"float8", JsonValue::makeBool(entry.float8)},
           {"operand", JsonValue::makeBool(operand)},
           {"result", JsonValue::makeBool(result)}}));
    }
    return writeJson(JsonValue::makeArray(std::move(types)), 0);
  }();
  return text;
}

} // namespace tgemm::runtime
