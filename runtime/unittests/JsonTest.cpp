//===- JsonTest.cpp - The JSON reader -------------------------------------===//

#include "TestSupport.h"

#include "tgemm/runtime/Json.h"

#include <cmath>
#include <cstdint>

using namespace tgemm::runtime;

namespace {

/// Parses `text`, expecting a syntax error at line:column whose message
/// contains `message`.
void expectSyntaxError(const std::string &text, int line, int column,
                       const std::string &message, int sourceLine) {
  try {
    parseJson(text);
    tgemm::test::recordFailure(__FILE__, sourceLine,
                               "no syntax error for: " + text);
  } catch (const JsonSyntaxError &e) {
    std::string what = e.what();
    if (e.line() != line || e.column() != column ||
        what.find(message) == std::string::npos)
      tgemm::test::recordFailure(
          __FILE__, sourceLine,
          "for " + text + ": got " + std::to_string(e.line()) + ":" +
              std::to_string(e.column()) + " '" + what + "', expected " +
              std::to_string(line) + ":" + std::to_string(column) + " '" +
              message + "'");
  }
}
#define EXPECT_SYNTAX_ERROR(text, line, column, message)                       \
  expectSyntaxError(text, line, column, message, __LINE__)

} // namespace

TEST(jsonScalars) {
  EXPECT_TRUE(parseJson("null").isNull());
  EXPECT_TRUE(parseJson(" true ").getBool());
  EXPECT_TRUE(!parseJson("false").getBool());
  JsonValue i = parseJson("-42");
  EXPECT_TRUE(i.isInteger());
  EXPECT_EQ(i.getInteger(), -42);
  JsonValue d = parseJson("1.5e3");
  EXPECT_TRUE(d.isNumber() && !d.isInteger());
  EXPECT_EQ(d.getNumber(), 1500.0);
  EXPECT_TRUE(!parseJson("1.0").isInteger());
  EXPECT_EQ(parseJson("9223372036854775807").getInteger(), INT64_MAX);
  // Beyond int64: still a number, no longer an integer.
  JsonValue big = parseJson("9223372036854775808");
  EXPECT_TRUE(big.isNumber() && !big.isInteger());
  EXPECT_EQ(parseJson("0").getInteger(), 0);
}

TEST(jsonStrings) {
  EXPECT_EQ(parseJson(R"("a\"b\\c\/d\n\t")").getString(),
            std::string("a\"b\\c/d\n\t"));
  EXPECT_EQ(parseJson(R"("\u00e9")").getString(), std::string("\xc3\xa9"));
  EXPECT_EQ(parseJson(R"("\ud83d\ude00")").getString(),
            std::string("\xf0\x9f\x98\x80"));
  EXPECT_EQ(parseJson("\"caf\xc3\xa9\"").getString(),
            std::string("caf\xc3\xa9"));
}

TEST(jsonContainers) {
  JsonValue v = parseJson(R"({"a": [1, 2, {"b": null}], "c": {}})");
  EXPECT_TRUE(v.isObject());
  EXPECT_EQ(v.getObject().size(), size_t(2));
  EXPECT_EQ(v.getObject()[0].first, std::string("a"));
  const JsonValue *a = v.find("a");
  EXPECT_TRUE(a && a->isArray() && a->getArray().size() == 3);
  EXPECT_TRUE(a->getArray()[2].find("b")->isNull());
  EXPECT_TRUE(v.find("c")->isObject());
  EXPECT_TRUE(v.find("missing") == nullptr);
  EXPECT_TRUE(parseJson("[]").getArray().empty());
}

TEST(jsonSyntaxErrors) {
  EXPECT_SYNTAX_ERROR("", 1, 1, "empty document");
  EXPECT_SYNTAX_ERROR("  \n ", 2, 2, "empty document");
  EXPECT_SYNTAX_ERROR("[1, 2,]", 1, 7, "expected a value");
  EXPECT_SYNTAX_ERROR("{\"a\" 1}", 1, 6, "expected ':'");
  EXPECT_SYNTAX_ERROR("{\"a\": 1,}", 1, 9, "expected a member name");
  EXPECT_SYNTAX_ERROR("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'");
  EXPECT_SYNTAX_ERROR("[1 2]", 1, 4, "expected ',' or ']'");
  EXPECT_SYNTAX_ERROR("\"abc", 1, 5, "unterminated string");
  EXPECT_SYNTAX_ERROR("\"a\\x\"", 1, 4, "invalid escape '\\x'");
  EXPECT_SYNTAX_ERROR("\"a\nb\"", 1, 3, "control character");
  EXPECT_SYNTAX_ERROR("\"\\ud800\"", 1, 8, "unpaired surrogate");
  EXPECT_SYNTAX_ERROR("\"\\u12g4\"", 1, 7, "invalid hex digit");
  EXPECT_SYNTAX_ERROR("012", 1, 2, "leading zero");
  EXPECT_SYNTAX_ERROR("1.", 1, 3, "expected a digit after '.'");
  EXPECT_SYNTAX_ERROR("1e+", 1, 4, "exponent");
  EXPECT_SYNTAX_ERROR("-", 1, 2, "expected a digit");
  EXPECT_SYNTAX_ERROR("1e999", 1, 1, "out of range");
  EXPECT_SYNTAX_ERROR("tru", 1, 1, "invalid literal");
  EXPECT_SYNTAX_ERROR("nul", 1, 1, "invalid literal");
  EXPECT_SYNTAX_ERROR("{} x", 1, 4, "after the JSON value");
  EXPECT_SYNTAX_ERROR("@", 1, 1, "unexpected '@'");
  EXPECT_SYNTAX_ERROR("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key 'a'");
  EXPECT_SYNTAX_ERROR("[\x01]", 1, 2, "unexpected '\\x01'");
  EXPECT_SYNTAX_ERROR("{\n  \"a\": [1,\n  2", 3, 4, "unexpected end");
}

TEST(jsonDepthLimit) {
  std::string ok(kMaxJsonDepth, '['), tooDeep(kMaxJsonDepth + 1, '[');
  ok += std::string(kMaxJsonDepth, ']');
  tooDeep += std::string(kMaxJsonDepth + 1, ']');
  EXPECT_TRUE(parseJson(ok).isArray());
  EXPECT_SYNTAX_ERROR(tooDeep, 1, kMaxJsonDepth + 1, "nesting deeper");
  // A hostile depth is rejected, not a stack overflow.
  EXPECT_SYNTAX_ERROR(std::string(1000000, '['), 1, kMaxJsonDepth + 1,
                      "nesting deeper");
}

TEST(jsonSurvivesMutations) {
  // Every mutant either parses or raises JsonSyntaxError; nothing else.
  std::string base = tgemm::test::exampleManifest();
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  static const char alphabet[] = "{}[]\",:0123456789.eE+-tfn\\u \n\x01\xff";
  int parsed = 0, rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = base;
    int edits = 1 + next() % 4;
    for (int e = 0; e < edits && !text.empty(); ++e) {
      size_t at = next() % text.size();
      switch (next() % 3) {
      case 0:
        text[at] = alphabet[next() % (sizeof(alphabet) - 1)];
        break;
      case 1:
        text.erase(at, 1 + next() % 8);
        break;
      default:
        text.insert(at, 1, alphabet[next() % (sizeof(alphabet) - 1)]);
      }
    }
    try {
      parseJson(text);
      ++parsed;
    } catch (const JsonSyntaxError &) {
      ++rejected;
    }
  }
  EXPECT_EQ(parsed + rejected, 3000);
  EXPECT_TRUE(rejected > 0);
}

TEST(jsonWriterRoundTrips) {
  std::string text = R"({"s": "a\"b\\c\n\u0001", "i": -9007199254740993,
    "x": 0.1, "y": 1e300, "z": -2.5, "t": true, "f": false, "n": null,
    "a": [], "o": {}, "nested": [[1, {"k": [2]}]]})";
  JsonValue value = parseJson(text);
  for (int indent : {0, 2}) {
    std::string written = writeJson(value, indent);
    JsonValue again = parseJson(written);
    // Writing what was read back gives the same text: nothing was lost.
    EXPECT_EQ(writeJson(again, indent), written);
    EXPECT_EQ(again.find("s")->getString(), std::string("a\"b\\c\n\x01"));
    EXPECT_EQ(again.find("i")->getInteger(), INT64_C(-9007199254740993));
    EXPECT_EQ(again.find("x")->getNumber(), 0.1);
    EXPECT_EQ(again.find("y")->getNumber(), 1e300);
    EXPECT_TRUE(again.find("n")->isNull());
  }
  EXPECT_EQ(writeJson(parseJson(R"({"a": [1, 2], "b": {}})"), 0),
            std::string(R"({"a":[1,2],"b":{}})"));
  EXPECT_EQ(writeJson(parseJson(R"({"a": [1]})"), 2),
            std::string("{\n  \"a\": [\n    1\n  ]\n}"));
  // The fewest digits that read back: 0.1, not 0.10000000000000001.
  EXPECT_EQ(writeJson(JsonValue::makeReal(0.1)), std::string("0.1"));
  EXPECT_EQ(writeJson(JsonValue::makeReal(0.5)), std::string("0.5"));
}

TEST(jsonWriterHasNoNaN) {
  // JSON has no NaN or infinity: they are written as null.
  EXPECT_EQ(writeJson(JsonValue::makeReal(std::nan(""))), std::string("null"));
  EXPECT_EQ(writeJson(JsonValue::makeReal(-HUGE_VAL)), std::string("null"));
}
