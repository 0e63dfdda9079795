//===- Json.cpp - A small JSON reader and writer --------------------------===//

#include "tgemm/runtime/Json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tgemm::runtime {

JsonValue JsonValue::makeBool(bool value) {
  JsonValue v;
  v.valueKind = Kind::Bool;
  v.boolValue = value;
  return v;
}

JsonValue JsonValue::makeNumber(double value, bool isInteger,
                                int64_t integer) {
  JsonValue v;
  v.valueKind = Kind::Number;
  v.numberValue = value;
  v.integral = isInteger;
  v.integerValue = integer;
  return v;
}

JsonValue JsonValue::makeString(std::string value) {
  JsonValue v;
  v.valueKind = Kind::String;
  v.stringValue = std::move(value);
  return v;
}

JsonValue JsonValue::makeArray(std::vector<JsonValue> elements) {
  JsonValue v;
  v.valueKind = Kind::Array;
  v.elements = std::move(elements);
  return v;
}

JsonValue JsonValue::makeObject(std::vector<Member> members) {
  JsonValue v;
  v.valueKind = Kind::Object;
  v.members = std::move(members);
  return v;
}

JsonValue JsonValue::makeInteger(int64_t value) {
  return makeNumber(static_cast<double>(value), true, value);
}

JsonValue JsonValue::makeReal(double value) {
  return makeNumber(value, false, 0);
}

const JsonValue *JsonValue::find(std::string_view key) const {
  for (const Member &m : members)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

const char *describeJsonKind(JsonValue::Kind kind) {
  switch (kind) {
  case JsonValue::Kind::Null:
    return "null";
  case JsonValue::Kind::Bool:
    return "a boolean";
  case JsonValue::Kind::Number:
    return "a number";
  case JsonValue::Kind::String:
    return "a string";
  case JsonValue::Kind::Array:
    return "an array";
  case JsonValue::Kind::Object:
    return "an object";
  }
  return "a value";
}

namespace {

class JsonParser {
public:
  explicit JsonParser(std::string_view text) : text(text) {}

  JsonValue parseDocument() {
    skipWhitespace();
    if (atEnd())
      error("empty document; expected a JSON value");
    JsonValue value = parseValue(0);
    skipWhitespace();
    if (!atEnd())
      error("unexpected '" + printable(peek()) + "' after the JSON value");
    return value;
  }

private:
  std::string_view text;
  size_t pos = 0;

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return text[pos]; }

  static std::string printable(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f)
      return std::string(1, c);
    static const char *digits = "0123456789abcdef";
    return std::string("\\x") + digits[u >> 4] + digits[u & 15];
  }

  [[noreturn]] void error(const std::string &message) const {
    int line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw JsonSyntaxError(message, line, column);
  }

  void skipWhitespace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' ||
                        peek() == '\r'))
      ++pos;
  }

  void expectLiteral(std::string_view literal) {
    if (text.substr(pos, literal.size()) != literal)
      error("invalid literal; expected '" + std::string(literal) + "'");
    pos += literal.size();
  }

  JsonValue parseValue(int depth) {
    if (atEnd())
      error("unexpected end of input; expected a value");
    char c = peek();
    switch (c) {
    case '{':
      return parseObject(depth + 1);
    case '[':
      return parseArray(depth + 1);
    case '"':
      return JsonValue::makeString(parseString());
    case 't':
      expectLiteral("true");
      return JsonValue::makeBool(true);
    case 'f':
      expectLiteral("false");
      return JsonValue::makeBool(false);
    case 'n':
      expectLiteral("null");
      return JsonValue();
    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        return parseNumber();
      error("unexpected '" + printable(c) + "'; expected a value");
    }
  }

  JsonValue parseObject(int depth) {
    if (depth > kMaxJsonDepth)
      error("nesting deeper than " + std::to_string(kMaxJsonDepth));
    ++pos; // '{'
    std::vector<JsonValue::Member> members;
    skipWhitespace();
    if (!atEnd() && peek() == '}') {
      ++pos;
      return JsonValue::makeObject(std::move(members));
    }
    while (true) {
      skipWhitespace();
      if (atEnd() || peek() != '"')
        error(atEnd() ? "unexpected end of input; expected a member name"
                      : "expected a member name in double quotes");
      size_t keyPos = pos;
      std::string key = parseString();
      for (const JsonValue::Member &m : members) {
        if (m.first == key) {
          pos = keyPos;
          error("duplicate key '" + key + "'");
        }
      }
      skipWhitespace();
      if (atEnd() || peek() != ':')
        error("expected ':' after member name '" + key + "'");
      ++pos;
      skipWhitespace();
      JsonValue value = parseValue(depth);
      members.emplace_back(std::move(key), std::move(value));
      skipWhitespace();
      if (atEnd())
        error("unexpected end of input; expected ',' or '}'");
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == '}') {
        ++pos;
        return JsonValue::makeObject(std::move(members));
      }
      error("expected ',' or '}' after an object member");
    }
  }

  JsonValue parseArray(int depth) {
    if (depth > kMaxJsonDepth)
      error("nesting deeper than " + std::to_string(kMaxJsonDepth));
    ++pos; // '['
    std::vector<JsonValue> elements;
    skipWhitespace();
    if (!atEnd() && peek() == ']') {
      ++pos;
      return JsonValue::makeArray(std::move(elements));
    }
    while (true) {
      skipWhitespace();
      elements.push_back(parseValue(depth));
      skipWhitespace();
      if (atEnd())
        error("unexpected end of input; expected ',' or ']'");
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == ']') {
        ++pos;
        return JsonValue::makeArray(std::move(elements));
      }
      error("expected ',' or ']' after an array element");
    }
  }

  static void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  uint32_t parseHex4() {
    if (pos + 4 > text.size())
      error("unexpected end of input in a \\u escape");
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= c - '0';
      else if (c >= 'a' && c <= 'f')
        value |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        value |= c - 'A' + 10;
      else
        error("invalid hex digit in a \\u escape");
    }
    return value;
  }

  std::string parseString() {
    ++pos; // '"'
    std::string out;
    while (true) {
      if (atEnd())
        error("unterminated string");
      char c = text[pos];
      if (c == '"') {
        ++pos;
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        error("control character in a string; write it as an escape");
      if (c != '\\') {
        out += c;
        ++pos;
        continue;
      }
      ++pos;
      if (atEnd())
        error("unterminated escape in a string");
      char e = text[pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp = parseHex4();
        if (cp >= 0xd800 && cp < 0xdc00) {
          // A high surrogate must be followed by a low one.
          if (text.substr(pos, 2) != "\\u")
            error("unpaired surrogate in a \\u escape");
          pos += 2;
          uint32_t low = parseHex4();
          if (low < 0xdc00 || low >= 0xe000)
            error("unpaired surrogate in a \\u escape");
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        } else if (cp >= 0xdc00 && cp < 0xe000) {
          error("unpaired surrogate in a \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos;
        error("invalid escape '\\" + printable(e) + "' in a string");
      }
    }
  }

  static bool isDigit(char c) { return c >= '0' && c <= '9'; }

  JsonValue parseNumber() {
    size_t start = pos;
    bool integral = true;
    if (peek() == '-')
      ++pos;
    if (atEnd() || !isDigit(peek()))
      error("invalid number: expected a digit");
    if (peek() == '0') {
      ++pos;
      if (!atEnd() && isDigit(peek()))
        error("invalid number: leading zero");
    } else {
      while (!atEnd() && isDigit(peek()))
        ++pos;
    }
    if (!atEnd() && peek() == '.') {
      integral = false;
      ++pos;
      if (atEnd() || !isDigit(peek()))
        error("invalid number: expected a digit after '.'");
      while (!atEnd() && isDigit(peek()))
        ++pos;
    }
    if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
      integral = false;
      ++pos;
      if (!atEnd() && (peek() == '+' || peek() == '-'))
        ++pos;
      if (atEnd() || !isDigit(peek()))
        error("invalid number: expected a digit in the exponent");
      while (!atEnd() && isDigit(peek()))
        ++pos;
    }
    std::string literal(text.substr(start, pos - start));
    errno = 0;
    double value = std::strtod(literal.c_str(), nullptr);
    if (errno == ERANGE && std::isinf(value)) {
      pos = start;
      error("number out of range: " + literal);
    }
    int64_t integer = 0;
    if (integral) {
      errno = 0;
      long long parsed = std::strtoll(literal.c_str(), nullptr, 10);
      if (errno == ERANGE)
        integral = false; // still a valid number, just not an int64
      else
        integer = parsed;
    }
    return JsonValue::makeNumber(value, integral, integer);
  }
};

} // namespace

namespace {
void writeString(std::string &out, const std::string &s) {
  static const char hex[] = "0123456789abcdef";
  out += '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c < 0x20) {
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
      } else {
        out += ch;
      }
    }
  }
  out += '"';
}

void writeNumber(std::string &out, const JsonValue &v) {
  if (v.isInteger()) {
    out += std::to_string(v.getInteger());
    return;
  }
  double d = v.getNumber();
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  // The shortest of 15, 16 or 17 significant digits that reads back as d.
  char buffer[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, d);
    if (std::strtod(buffer, nullptr) == d)
      break;
  }
  out += buffer;
}

void writeValue(std::string &out, const JsonValue &v, int indent, int depth) {
  auto newline = [&](int level) {
    if (indent == 0)
      return;
    out += '\n';
    out.append(static_cast<size_t>(indent * level), ' ');
  };
  switch (v.kind()) {
  case JsonValue::Kind::Null:
    out += "null";
    return;
  case JsonValue::Kind::Bool:
    out += v.getBool() ? "true" : "false";
    return;
  case JsonValue::Kind::Number:
    writeNumber(out, v);
    return;
  case JsonValue::Kind::String:
    writeString(out, v.getString());
    return;
  case JsonValue::Kind::Array: {
    const std::vector<JsonValue> &items = v.getArray();
    if (items.empty()) {
      out += "[]";
      return;
    }
    out += '[';
    for (size_t i = 0; i < items.size(); ++i) {
      out += i ? "," : "";
      newline(depth + 1);
      writeValue(out, items[i], indent, depth + 1);
    }
    newline(depth);
    out += ']';
    return;
  }
  case JsonValue::Kind::Object: {
    const std::vector<JsonValue::Member> &members = v.getObject();
    if (members.empty()) {
      out += "{}";
      return;
    }
    out += '{';
    for (size_t i = 0; i < members.size(); ++i) {
      out += i ? "," : "";
      newline(depth + 1);
      writeString(out, members[i].first);
      out += indent ? ": " : ":";
      writeValue(out, members[i].second, indent, depth + 1);
    }
    newline(depth);
    out += '}';
    return;
  }
  }
}
} // namespace

std::string writeJson(const JsonValue &value, int indent) noexcept {
  std::string out;
  writeValue(out, value, indent < 0 ? 0 : indent, 0);
  return out;
}

JsonValue parseJson(std::string_view text) {
  return JsonParser(text).parseDocument();
}

} // namespace tgemm::runtime
