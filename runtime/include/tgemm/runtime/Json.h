//===- Json.h - A small JSON reader and writer ----------------------------===//
//
// Reads RFC 8259 JSON into a tree of JsonValue, and writes one back.
// Self-contained because the GPU machine has no third-party libraries.
// Integers are kept exact (int64) next to their double value, so that
// manifest sizes never pass through a double. Object members keep their
// order; a duplicate key is an error.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_JSON_H
#define TGEMM_RUNTIME_JSON_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tgemm::runtime {

class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };
  using Member = std::pair<std::string, JsonValue>;

  JsonValue() = default;
  static JsonValue makeBool(bool value);
  static JsonValue makeNumber(double value, bool isInteger, int64_t integer);
  static JsonValue makeString(std::string value);
  static JsonValue makeArray(std::vector<JsonValue> elements);
  static JsonValue makeObject(std::vector<Member> members);
  /// Shorthands for building documents: an exact integer, and a number
  /// that is not one.
  static JsonValue makeInteger(int64_t value);
  static JsonValue makeReal(double value);

  Kind kind() const { return valueKind; }
  bool isNull() const { return valueKind == Kind::Null; }
  bool isBool() const { return valueKind == Kind::Bool; }
  bool isNumber() const { return valueKind == Kind::Number; }
  /// A number written without fraction or exponent that fits in int64.
  bool isInteger() const { return valueKind == Kind::Number && integral; }
  bool isString() const { return valueKind == Kind::String; }
  bool isArray() const { return valueKind == Kind::Array; }
  bool isObject() const { return valueKind == Kind::Object; }

  bool getBool() const { return boolValue; }
  double getNumber() const { return numberValue; }
  int64_t getInteger() const { return integerValue; }
  const std::string &getString() const { return stringValue; }
  const std::vector<JsonValue> &getArray() const { return elements; }
  const std::vector<Member> &getObject() const { return members; }

  /// The member named `key` of an object, or null if absent.
  const JsonValue *find(std::string_view key) const;

private:
  Kind valueKind = Kind::Null;
  bool boolValue = false;
  bool integral = false;
  double numberValue = 0;
  int64_t integerValue = 0;
  std::string stringValue;
  std::vector<JsonValue> elements;
  std::vector<Member> members;
};

/// "null", "a boolean", "a number", ... for messages.
const char *describeJsonKind(JsonValue::Kind kind);

/// A syntax error, with a 1-based line and column.
class JsonSyntaxError : public std::runtime_error {
public:
  JsonSyntaxError(const std::string &message, int line, int column)
      : std::runtime_error(message), errorLine(line), errorColumn(column) {}
  int line() const { return errorLine; }
  int column() const { return errorColumn; }

private:
  int errorLine;
  int errorColumn;
};

/// Arrays and objects nested deeper than this are rejected, so that hostile
/// input cannot exhaust the stack.
constexpr int kMaxJsonDepth = 64;

/// Parses one JSON document (surrounding whitespace allowed). Throws
/// JsonSyntaxError.
JsonValue parseJson(std::string_view text);

/// Writes `value` as JSON text, `indent` spaces per level (0: on one line),
/// members in their order. Integers are written exactly; other numbers with
/// the fewest digits that read back to the same double. JSON has no NaN or
/// infinity: a non-finite number is written as null, which a reader that
/// expects a number then refuses. Never throws (the compiler, built without
/// exceptions, calls it).
std::string writeJson(const JsonValue &value, int indent = 2) noexcept;

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_JSON_H
