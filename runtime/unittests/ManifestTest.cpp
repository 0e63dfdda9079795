//===- ManifestTest.cpp - Reading and validating manifests ----------------===//

#include "TestSupport.h"

#include "tgemm/runtime/Manifest.h"

#include <cmath>

using namespace tgemm::runtime;
using tgemm::test::exampleManifest;

namespace {
Manifest parse(const std::string &text) {
  return parseManifest(text, "manifest.json");
}
} // namespace

TEST(manifestExampleParses) {
  // A version-2 manifest reads as this runtime's version (it adds nothing
  // a version-2 kernel lacks).
  Manifest m = parse(exampleManifest());
  EXPECT_EQ(m.version, kManifestVersion);
  EXPECT_EQ(m.kernels[0].config.splitK, int64_t(1));
  EXPECT_TRUE(m.kernels[0].tensorMaps.empty());
  EXPECT_EQ(m.kernels.size(), size_t(1));
  const KernelManifest &k = m.kernels[0];
  EXPECT_EQ(k.name, std::string("gemm_f16_f32_kernel"));
  EXPECT_EQ(k.module, std::string("gemm_f16_f32_module"));
  EXPECT_EQ(k.lowering, std::string("wmma"));
  EXPECT_EQ(k.chip, std::string("sm_90"));
  EXPECT_EQ(k.chipVersion, 90);
  EXPECT_TRUE(!k.archSpecific);
  EXPECT_EQ(*k.problem[0], 4096);
  EXPECT_TRUE(k.gemm.a.type == ElementType::F16);
  EXPECT_TRUE(k.gemm.a.layout == Layout::Row);
  EXPECT_TRUE(k.gemm.b.layout == Layout::Col);
  EXPECT_TRUE(k.gemm.c.type == ElementType::F32);
  EXPECT_TRUE(k.gemm.acc == ElementType::F32);
  EXPECT_EQ(k.gemm.alpha, 1.0);
  EXPECT_EQ(k.gemm.beta, 0.0);
  EXPECT_EQ(k.config.block[2], 32);
  EXPECT_EQ(k.config.warps[1], 2);
  EXPECT_EQ(k.config.stages, 3);
  EXPECT_TRUE(k.grid[0].isTiled && k.grid[0].dim == Dim::N);
  EXPECT_EQ(k.grid[0].tile, 128);
  EXPECT_TRUE(k.grid[1].isTiled && k.grid[1].dim == Dim::M);
  EXPECT_TRUE(!k.grid[2].isTiled);
  EXPECT_EQ(k.grid[2].value, 1);
  EXPECT_EQ(k.block[0], 128);
  EXPECT_EQ(k.dynamicSharedMemory, 61440);
  EXPECT_EQ(k.requirements.size(), size_t(3));
  EXPECT_TRUE(k.requirements[2].dim == Dim::K);
  EXPECT_EQ(k.requirements[2].multipleOf, 32);
  EXPECT_EQ(k.args.size(), size_t(3));
  EXPECT_TRUE(k.args[1].operand == Operand::B);
}

TEST(manifestAcceptsVariants) {
  std::string base = exampleManifest();
  // Dynamic sizes.
  Manifest dynamic = parse(REPLACE(base, R"("m": 4096)", R"("m": null)"));
  EXPECT_TRUE(!dynamic.kernels[0].problem[0].has_value());
  // An arch-specific chip.
  Manifest arch = parse(REPLACE(base, "sm_90", "sm_90a"));
  EXPECT_TRUE(arch.kernels[0].archSpecific);
  EXPECT_EQ(arch.kernels[0].chipVersion, 90);
  // Integral alpha written without a fraction.
  EXPECT_EQ(parse(REPLACE(base, R"("alpha": 1.0)", R"("alpha": 2)"))
                .kernels[0]
                .gemm.alpha,
            2.0);
  // Arguments in another order.
  std::string reordered = REPLACE(
      base, R"({"name": "a", "kind": "memref", "type": "f16", "rank": 2},)",
      "");
  reordered = REPLACE(
      reordered, R"({"name": "c", "kind": "memref", "type": "f32", "rank": 2})",
      R"({"name": "c", "kind": "memref", "type": "f32", "rank": 2},
         {"name": "a", "kind": "memref", "type": "f16", "rank": 2})");
  Manifest r = parse(reordered);
  EXPECT_TRUE(r.kernels[0].args[0].operand == Operand::B);
  EXPECT_TRUE(r.kernels[0].args[2].operand == Operand::A);
  // TF32 operands: their memrefs are f32.
  std::string tf32 = REPLACE(base, R"("a": {"type": "f16")",
                             R"("a": {"type": "tf32")");
  tf32 = REPLACE(tf32, R"("b": {"type": "f16")", R"("b": {"type": "tf32")");
  tf32 = REPLACE(tf32, R"("name": "a", "kind": "memref", "type": "f16")",
                 R"("name": "a", "kind": "memref", "type": "f32")");
  tf32 = REPLACE(tf32, R"("name": "b", "kind": "memref", "type": "f16")",
                 R"("name": "b", "kind": "memref", "type": "tf32")");
  EXPECT_TRUE(parse(tf32).kernels[0].gemm.a.type == ElementType::TF32);
  // An empty requires list.
  std::string noRequires = base;
  size_t from = noRequires.find("[{\"dim\": \"m\", \"multiple_of\"");
  size_t to = noRequires.find("],", from);
  noRequires = noRequires.substr(0, from) + "[" + noRequires.substr(to);
  EXPECT_TRUE(parse(noRequires).kernels[0].requirements.empty());
}

namespace {

struct BadManifest {
  const char *from, *to;
  ErrorKind kind;
  const char *message;
};

// Each replaces one piece of the example manifest and names the message
// the reader must give.
const BadManifest kBadManifests[] = {
    {R"("version": 2)", R"("version": 9)", ErrorKind::Input,
     "manifest.json: version: unsupported manifest version 9; this runtime "
     "reads versions 2 to 8"},
    {R"("version": 2)", R"("version": 0)", ErrorKind::Input,
     "manifest.json: version: unsupported manifest version 0; this runtime "
     "reads versions 2 to 8"},
    {R"("version": 2)", R"("version": 1)", ErrorKind::Input,
     "manifest.json: version: manifest version 1 is older than this "
     "runtime's 8 (version 2 adds \"tensor_maps\"): recompile the kernel "
     "with this tgemm"},
    {R"("version": 2,)", "", ErrorKind::Input,
     "manifest.json: missing field 'version'"},
    {R"("version": 2)", R"("version": "2")", ErrorKind::Input,
     "version: expected an integer, got \"2\""},
    {R"("version": 2,)", R"("version": 2, "extra": true,)", ErrorKind::Input,
     "manifest.json: unknown field 'extra' (expected version, kernels)"},
    {R"("acc": "f32",)", "", ErrorKind::Input,
     "manifest.json: kernels[0]: missing field 'acc'"},
    {R"("acc": "f32",)", R"("acc": "f32", "bias": "f32",)", ErrorKind::Input,
     "kernels[0]: unknown field 'bias'"},
    {R"("name": "gemm_f16_f32_kernel")", R"("name": "")", ErrorKind::Input,
     "kernels[0].name: expected a non-empty name"},
    {R"("name": "gemm_f16_f32_kernel")", R"("name": "two words")",
     ErrorKind::Input, "contains whitespace"},
    {R"("name": "gemm_f16_f32_kernel")", R"("name": 7)", ErrorKind::Input,
     "kernels[0].name: expected a string, got 7"},
    {R"("lowering": "wmma")", R"("lowering": "tensor")", ErrorKind::Input,
     "kernels[0].lowering: unknown lowering 'tensor' (expected wmma, ptx or "
     "wgmma)"},
    {R"("chip": "sm_90")", R"("chip": "gfx90a")", ErrorKind::Input,
     "kernels[0].chip: invalid chip 'gfx90a'"},
    {R"("chip": "sm_90")", R"("chip": "sm_9")", ErrorKind::Input,
     "invalid chip 'sm_9'"},
    {R"("chip": "sm_90")", R"("chip": "sm_90b")", ErrorKind::Input,
     "invalid chip 'sm_90b'"},
    {R"("m": 4096)", R"("m": 0)", ErrorKind::Input,
     "kernels[0].problem.m: expected a positive integer or null, got 0"},
    {R"("m": 4096, )", "", ErrorKind::Input,
     "kernels[0].problem: missing field 'm'"},
    {R"("a": {"type": "f16")", R"("a": {"type": "f64")", ErrorKind::Input,
     "kernels[0].a.type: unknown element type 'f64' (expected one of f16, "
     "bf16"},
    {R"("a": {"type": "f16", "layout": "row"})",
     R"("a": {"type": "f16", "layout": "diag"})", ErrorKind::Input,
     "kernels[0].a.layout: unknown layout 'diag' (expected row or col)"},
    {R"("b": {"type": "f16", "layout": "col"})", R"("b": "f16")",
     ErrorKind::Input, "kernels[0].b: expected an object, got \"f16\""},
    {R"("c": {"type": "f32", "layout": "row"})",
     R"("c": {"type": "f32", "layout": "col"})", ErrorKind::Input,
     "kernels[0].c.layout: C must be row-major"},
    {R"("acc": "f32")", R"("acc": "bf16")", ErrorKind::Input,
     "accumulator type bf16 is not one of f32, f16, s32"},
    {R"("acc": "f32")", R"("acc": "s32")", ErrorKind::Unsupported,
     "kernels[0]: unsupported type combination f16*f16->f32 (acc s32)"},
    {R"("c": {"type": "f32")", R"("c": {"type": "s32")", ErrorKind::Unsupported,
     "unsupported type combination"},
    {R"("alpha": 1.0)", R"("alpha": "1")", ErrorKind::Input,
     "kernels[0].alpha: expected a number, got \"1\""},
    {R"("beta": 0.0,)", "", ErrorKind::Input, "missing field 'beta'"},
    {R"("stages": 3)", R"("stages": 0)", ErrorKind::Input,
     "kernels[0].config.stages: expected an integer >= 1, got 0"},
    {R"("warps": [2, 2])", R"("warps": [2, 2, 1])", ErrorKind::Input,
     "kernels[0].config.warps: expected an array of 2 integers, got an "
     "array of 3"},
    {R"({"dim": "m", "tile": 128}, {"value": 1}])",
     R"({"dim": "m"}, {"value": 1}])", ErrorKind::Input,
     "manifest.json: kernels[0].grid[1]: expected {\"dim\",\"tile\"} or "
     "{\"value\"}"},
    {R"({"value": 1}])", R"({"value": 1, "dim": "m"}])", ErrorKind::Input,
     "kernels[0].grid[2]: expected {\"dim\",\"tile\"} or {\"value\"}"},
    {R"({"value": 1}])", R"(1])", ErrorKind::Input,
     "kernels[0].grid[2]: expected {\"dim\",\"tile\"} or {\"value\"}"},
    {R"({"value": 1}])", R"({"value": 0}])", ErrorKind::Input,
     "kernels[0].grid[2].value: expected an integer >= 1, got 0"},
    {R"(, {"value": 1}])", "]", ErrorKind::Input,
     "kernels[0].grid: expected an array of 3 entries (x, y, z), got an "
     "array of 2"},
    {R"({"dim": "n", "tile": 128})", R"({"dim": "x", "tile": 128})",
     ErrorKind::Input,
     "kernels[0].grid[0].dim: unknown dimension 'x' (expected m, n or k, "
     "or batch in a batched kernel)"},
    {R"({"value": 1}])", R"({"dim": "batch", "tile": 1}])", ErrorKind::Input,
     "kernels[0].grid[2].dim: dimension 'batch' in a kernel that is not "
     "batched (its problem has no \"batch\")"},
    {R"({"dim": "n", "tile": 128})", R"({"dim": "n", "tile": 0})",
     ErrorKind::Input, "kernels[0].grid[0].tile: expected an integer >= 1"},
    {R"("block": [128, 1, 1])", R"("block": [128, 1])", ErrorKind::Input,
     "kernels[0].block: expected an array of 3 integers"},
    {R"("block": [128, 1, 1])", R"("block": [2048, 1, 1])", ErrorKind::Input,
     "kernels[0].block: a block of more than 1024 threads cannot launch"},
    {R"("block": [128, 1, 1])", R"("block": [128, 1.5, 1])", ErrorKind::Input,
     "kernels[0].block[1]: expected an integer, got 1.5"},
    {R"("dynamic_shared_memory": 61440)", R"("dynamic_shared_memory": -1)",
     ErrorKind::Input,
     "kernels[0].dynamic_shared_memory: expected an integer >= 0, got -1"},
    {R"("dynamic_shared_memory": 61440)", R"("dynamic_shared_memory": "big")",
     ErrorKind::Input, "expected an integer, got \"big\""},
    {R"({"dim": "k", "multiple_of": 32})", R"({"dim": "k", "multiple_of": 0})",
     ErrorKind::Input,
     "kernels[0].requires[2].multiple_of: expected an integer >= 1"},
    {R"({"dim": "k", "multiple_of": 32})", R"({"dim": "q", "multiple_of": 32})",
     ErrorKind::Input, "kernels[0].requires[2].dim: unknown dimension 'q'"},
    {R"({"dim": "k", "multiple_of": 32})",
     R"({"dim": "batch", "multiple_of": 2})", ErrorKind::Input,
     "kernels[0].requires[2].dim: dimension 'batch' in a kernel that is not "
     "batched"},
    {R"({"dim": "k", "multiple_of": 32})", R"({"dim": "k", "at_least": 32})",
     ErrorKind::Input, "kernels[0].requires[2]: unknown field 'at_least'"},
    {R"("requires": [{"dim": "m", "multiple_of": 128},
                   {"dim": "n", "multiple_of": 128},
                   {"dim": "k", "multiple_of": 32}])",
     R"("requires": {})", ErrorKind::Input,
     "kernels[0].requires: expected an array, got an object"},
    {R"(,
        {"name": "c", "kind": "memref", "type": "f32", "rank": 2})",
     "", ErrorKind::Input, "kernels[0].args: no argument for operand 'c'"},
    {R"("name": "c", "kind": "memref")", R"("name": "a", "kind": "memref")",
     ErrorKind::Input, "kernels[0].args[2].name: argument 'a' appears twice"},
    {R"("name": "c", "kind": "memref")", R"("name": "d", "kind": "memref")",
     ErrorKind::Input,
     "kernels[0].args[2].name: unknown argument 'd' (expected a, b or c, or "
     "epilogue0, epilogue1, ... for the epilogue's operands)"},
    {R"("name": "a", "kind": "memref")", R"("name": "a", "kind": "scalar")",
     ErrorKind::Input,
     "kernels[0].args[0].kind: unsupported argument kind 'scalar'"},
    {R"("type": "f32", "rank": 2})", R"("type": "f32", "rank": 4})",
     ErrorKind::Input,
     "kernels[0].args[2].rank: a rank-4 memref is not "
     "supported; A, B and C are rank 2 (rank 3 in a batched "
     "kernel)"},
    {R"("type": "f32", "rank": 2})", R"("type": "f32", "rank": 1})",
     ErrorKind::Input,
     "kernels[0].args[2].rank: a rank-1 memref is not "
     "supported"},
    // Mixed ranks.
    {R"("type": "f32", "rank": 2})", R"("type": "f32", "rank": 3})",
     ErrorKind::Input,
     "kernels[0].args[2].rank: argument 'c' has rank 3 but "
     "argument 'a' has rank 2; A, B and C have the same "
     "rank"},
    {R"("type": "f16", "rank": 2})", R"("type": "f16", "rank": 3})",
     ErrorKind::Input,
     "kernels[0].args[0].rank: argument 'a' has rank 3 but "
     "the kernel is not batched (its problem has no "
     "\"batch\")"},
    {R"("type": "f32", "rank": 2})",
     R"("type": "f32", "rank": 2, "strided": 1})", ErrorKind::Input,
     "kernels[0].args[2].strided: expected true or false, got 1"},
    {R"("type": "f32", "rank": 2})",
     R"("type": "f32", "rank": 2, "strided": "yes"})", ErrorKind::Input,
     "kernels[0].args[2].strided: expected true or false, got \"yes\""},
    {R"("type": "f32", "rank": 2})",
     R"("type": "f32", "rank": 2, "strided": null})", ErrorKind::Input,
     "kernels[0].args[2].strided: expected true or false, got null"},
    {R"("k": 4096})", R"("k": 4096, "batch": 0})", ErrorKind::Input,
     "kernels[0].problem.batch: expected a positive integer or null, got 0"},
    {R"("k": 4096})", R"("k": 4096, "batch": "8"})", ErrorKind::Input,
     "kernels[0].problem.batch: expected a positive integer or null, got "
     "\"8\""},
    {R"("k": 4096})", R"("k": 4096, "batch": 2.5})", ErrorKind::Input,
     "kernels[0].problem.batch: expected a positive integer or null, got "
     "2.5"},
    {R"("k": 4096})", R"("k": 4096, "batch": 8})", ErrorKind::Input,
     "kernels[0].args[0].rank: argument 'a' has rank 2 but the kernel is "
     "batched; its arguments are rank 3 ([batch, rows, cols])"},
    {R"("k": 4096})", R"("k": 4096, "b": 8})", ErrorKind::Input,
     "kernels[0].problem: unknown field 'b' (expected m, n, k, batch)"},
    {R"("name": "a", "kind": "memref", "type": "f16")",
     R"("name": "a", "kind": "memref", "type": "bf16")", ErrorKind::Input,
     "kernels[0].args[0].type: argument 'a' has type bf16 but operand a is "
     "f16"},
    {R"("rank": 2})", R"("rank": 2, "space": 1})", ErrorKind::Input,
     "kernels[0].args[0]: unknown field 'space'"},
    {R"("kernels": [)", R"("kernels": {"a": [)", ErrorKind::Input,
     "invalid JSON"},
    {R"("block": [128, 1, 1],)", R"("block": [128, 1, 1])", ErrorKind::Input,
     "manifest.json:19:7: invalid JSON: expected ',' or '}' after an object "
     "member"},
};

} // namespace

TEST(manifestRejectsEachBadField) {
  for (const BadManifest &bad : kBadManifests) {
    std::string text = REPLACE(exampleManifest(), bad.from, bad.to);
    EXPECT_ERROR(parse(text), bad.kind, bad.message);
  }
}

TEST(manifestBatchedAndStrided) {
  Manifest m = parse(tgemm::test::batchedManifest());
  const KernelManifest &k = m.kernels[0];
  EXPECT_TRUE(k.batched && !k.batch.has_value());
  EXPECT_TRUE(k.grid[2].isTiled && k.grid[2].dim == Dim::Batch);
  EXPECT_EQ(k.grid[2].tile, 1);
  for (const KernelArg &arg : k.args) {
    EXPECT_EQ(arg.rank, 3);
    EXPECT_TRUE(arg.strided);
  }
  // A static batch, a batch requirement, and "strided": false.
  std::string text = REPLACE(tgemm::test::batchedManifest(),
                             R"("batch": null)", R"("batch": 8)");
  text = REPLACE(text, R"("requires": [])",
                 R"("requires": [{"dim": "batch", "multiple_of": 2}])");
  text = REPLACE(text, R"("type": "f16", "rank": 3, "strided": true)",
                 R"("type": "f16", "rank": 3, "strided": false)");
  Manifest fixed = parse(text);
  EXPECT_EQ(*fixed.kernels[0].batch, 8);
  EXPECT_TRUE(fixed.kernels[0].requirements[0].dim == Dim::Batch);
  EXPECT_TRUE(!fixed.kernels[0].args[0].strided);
  EXPECT_TRUE(fixed.kernels[0].args[1].strided);
  // Not batched: "strided" is optional and defaults to false.
  Manifest plain = parse(REPLACE(exampleManifest(),
                                 R"("type": "f16", "rank": 2})",
                                 R"("type": "f16", "rank": 2, "strided": true})"));
  EXPECT_TRUE(!plain.kernels[0].batched);
  EXPECT_TRUE(plain.kernels[0].args[0].strided);
  EXPECT_TRUE(!plain.kernels[0].args[1].strided);
}

TEST(manifestRejectsBadBatches) {
  const BadManifest bad[] = {
      {R"("batch": null)", R"("batch": -1)", ErrorKind::Input,
       "kernels[0].problem.batch: expected a positive integer or null, got "
       "-1"},
      {R"("batch": null)", R"("batch": 9223372036854775808)", ErrorKind::Input,
       "kernels[0].problem.batch: expected a positive integer or null"},
      {R"("type": "f16", "rank": 3, "strided": true},
        {"name": "b")",
       R"("type": "f16", "rank": 2, "strided": true},
        {"name": "b")",
       ErrorKind::Input,
       "kernels[0].args[0].rank: argument 'a' has rank 2 but the kernel is "
       "batched; its arguments are rank 3 ([batch, rows, cols])"},
      {R"("type": "f32", "rank": 3)", R"("type": "f32", "rank": 2)",
       ErrorKind::Input,
       "kernels[0].args[2].rank: argument 'c' has rank 2 but argument 'a' "
       "has rank 3; A, B and C have the same rank"},
      {R"("type": "f32", "rank": 3)", R"("type": "f32", "rank": 4294967299)",
       ErrorKind::Input,
       "kernels[0].args[2].rank: a rank-4294967299 memref is not supported"},
      {R"("strided": true})", R"("strided": 0})", ErrorKind::Input,
       "kernels[0].args[0].strided: expected true or false, got 0"},
      {R"({"dim": "batch", "tile": 1})", R"({"dim": "batch", "tile": 0})",
       ErrorKind::Input,
       "kernels[0].grid[2].tile: expected an integer >= 1, got 0"},
  };
  for (const BadManifest &b : bad) {
    std::string text = REPLACE(tgemm::test::batchedManifest(), b.from, b.to);
    EXPECT_ERROR(parse(text), b.kind, b.message);
  }
  // Every argument rank 3, but no batch.
  std::string unbatched = REPLACE(tgemm::test::batchedManifest(),
                                  R"(, "batch": null)", "");
  EXPECT_ERROR(parse(unbatched), ErrorKind::Input,
               "kernels[0].grid[2].dim: dimension 'batch' in a kernel that "
               "is not batched");
  unbatched = REPLACE(unbatched, R"({"dim": "batch", "tile": 1}])",
                      R"({"value": 1}])");
  EXPECT_ERROR(parse(unbatched), ErrorKind::Input,
               "kernels[0].args[0].rank: argument 'a' has rank 3 but the "
               "kernel is not batched");
}

TEST(manifestRejectsOtherDocuments) {
  EXPECT_ERROR(parse("[]"), ErrorKind::Input,
               "manifest.json: expected a JSON object at the top, got an "
               "array");
  EXPECT_ERROR(parse(""), ErrorKind::Input,
               "manifest.json:1:1: invalid JSON: empty document");
  EXPECT_ERROR(parse("{\"version\": 2}"), ErrorKind::Input,
               "missing field 'kernels'");
  EXPECT_ERROR(parse("{\"version\": 2, \"kernels\": []}"), ErrorKind::Input,
               "manifest.json: kernels: the manifest lists no kernels");
  EXPECT_ERROR(parse("{\"version\": 2, \"kernels\": {}}"), ErrorKind::Input,
               "manifest.json: kernels: expected an array, got an object");
  EXPECT_ERROR(parse("\x7f" "ELF\x02\x01"), ErrorKind::Input, "invalid JSON");
}

TEST(manifestRejectsDuplicateKernels) {
  std::string text = exampleManifest();
  size_t begin = text.find("    {\n      \"name\"");
  size_t end = text.rfind("    }") + 5;
  std::string kernel = text.substr(begin, end - begin);
  text.insert(end, ",\n" + kernel);
  EXPECT_ERROR(parse(text), ErrorKind::Input,
               "kernels[1].name: kernel 'gemm_f16_f32_kernel' is already "
               "described by kernels[0]");
}

TEST(manifestIntegerEpilogue) {
  std::string s8 = exampleManifest();
  for (const char *operand : {"a", "b"}) {
    s8 = REPLACE(s8, std::string("\"") + operand + R"(": {"type": "f16")",
                 std::string("\"") + operand + R"(": {"type": "s8")");
    s8 = REPLACE(s8, std::string(R"("name": ")") + operand +
                         R"(", "kind": "memref", "type": "f16")",
                 std::string(R"("name": ")") + operand +
                     R"(", "kind": "memref", "type": "s8")");
  }
  s8 = REPLACE(s8, R"("c": {"type": "f32")", R"("c": {"type": "s32")");
  s8 = REPLACE(s8, R"("name": "c", "kind": "memref", "type": "f32")",
               R"("name": "c", "kind": "memref", "type": "s32")");
  s8 = REPLACE(s8, R"("acc": "f32")", R"("acc": "s32")");
  EXPECT_TRUE(parse(s8).kernels[0].gemm.isInteger());
  EXPECT_ERROR(parse(REPLACE(s8, R"("alpha": 1.0)", R"("alpha": 1.5)")),
               ErrorKind::Input,
               "kernels[0].alpha: expected an integer for an s32 C, got "
               "1.5");
  EXPECT_ERROR(parse(REPLACE(s8, R"("beta": 0.0)", R"("beta": 1e10)")),
               ErrorKind::Input, "kernels[0].beta: expected an integer");
}

TEST(manifestSelectKernel) {
  std::string text = exampleManifest();
  size_t begin = text.find("    {\n      \"name\"");
  size_t end = text.rfind("    }") + 5;
  std::string second = text.substr(begin, end - begin);
  second = REPLACE(second, "gemm_f16_f32_kernel", "other_kernel");
  text.insert(end, ",\n" + second);
  Manifest m = parse(text);
  EXPECT_EQ(selectKernel(m, "other_kernel", "m.json").name,
            std::string("other_kernel"));
  EXPECT_ERROR(selectKernel(m, "", "m.json"), ErrorKind::Usage,
               "m.json describes 2 kernels (gemm_f16_f32_kernel, "
               "other_kernel); choose one with --kernel NAME");
  EXPECT_ERROR(selectKernel(m, "x", "m.json"), ErrorKind::Input,
               "m.json has no kernel 'x'; it has: gemm_f16_f32_kernel, "
               "other_kernel");
  Manifest one = parse(exampleManifest());
  EXPECT_EQ(selectKernel(one, "", "m.json").name,
            std::string("gemm_f16_f32_kernel"));
}

TEST(manifestFiles) {
  std::string path =
      tgemm::test::writeTempFile("good.json", exampleManifest());
  EXPECT_EQ(readManifestFile(path).kernels.size(), size_t(1));
  EXPECT_ERROR(readManifestFile("/nonexistent/k.json"), ErrorKind::Input,
               "cannot read manifest '/nonexistent/k.json': No such file or "
               "directory");
  std::string bad = tgemm::test::writeTempFile("bad.json", "{\n\"version\":");
  EXPECT_ERROR(readManifestFile(bad), ErrorKind::Input,
               bad + ":2:11: invalid JSON: unexpected end of input");
}

TEST(manifestSurvivesMutations) {
  // Mutants of a valid manifest are accepted or refused with an Error;
  // nothing else escapes.
  std::string base = exampleManifest();
  uint64_t state = 99;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  static const char *tokens[] = {"0",  "-1", "null", "\"\"", "[]",  "{}",
                                 "1.5", "\"x\"", "true", ",",   "]",   "}"};
  int accepted = 0, refused = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = base;
    size_t at = next() % text.size();
    size_t len = next() % 12;
    text.replace(at, len, tokens[next() % 12]);
    try {
      parse(text);
      ++accepted;
    } catch (const Error &) {
      ++refused;
    }
  }
  EXPECT_EQ(accepted + refused, 3000);
  EXPECT_TRUE(refused > 2000);
}

TEST(manifestWriterRoundTrips) {
  // Written and read back, every manifest the reader accepts is the same
  // manifest: one schema, in both directions.
  std::string base = exampleManifest();
  for (const std::string &text :
       {base, REPLACE(base, R"("m": 4096)", R"("m": null)"),
        REPLACE(base, R"("alpha": 1.0)", R"("alpha": 0.1)"),
        REPLACE(base, "sm_90", "sm_90a")}) {
    Manifest m = parse(text);
    std::string written = writeManifest(m);
    Manifest again = parse(written);
    EXPECT_EQ(writeManifest(again), written);
    const KernelManifest &a = m.kernels[0], &b = again.kernels[0];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.chip, a.chip);
    EXPECT_TRUE(b.archSpecific == a.archSpecific);
    EXPECT_TRUE(b.problem == a.problem);
    EXPECT_EQ(b.gemm.alpha, a.gemm.alpha);
    EXPECT_EQ(b.gemm.signature(), a.gemm.signature());
    EXPECT_EQ(b.dynamicSharedMemory, a.dynamicSharedMemory);
    EXPECT_EQ(b.requirements.size(), a.requirements.size());
    EXPECT_EQ(b.args.size(), a.args.size());
    EXPECT_TRUE(b.grid[0].tile == a.grid[0].tile &&
                b.grid[2].value == a.grid[2].value);
  }
}

TEST(manifestPartialEntries) {
  // A kernel still being built (not lowered, not compiled) has a null
  // lowering and chip: the partial reader takes it, parseManifest does not.
  Manifest m = parse(exampleManifest());
  KernelManifest k = m.kernels[0];
  k.lowering.clear();
  k.chip.clear();
  JsonValue entry = kernelManifestToJson(k);
  KernelManifest partial;
  std::string error;
  EXPECT_TRUE(readPartialKernelManifest(entry, partial, error));
  EXPECT_TRUE(partial.lowering.empty() && partial.chip.empty());
  Manifest unfinished;
  unfinished.kernels.push_back(k);
  Manifest out;
  EXPECT_TRUE(!tryParseManifest(writeManifest(unfinished), "m.json", out,
                                error));
  EXPECT_TRUE(error.find("m.json: kernels[0].lowering: expected a string, "
                         "got null") != std::string::npos);
  // The partial reader checks everything else.
  k.lowering = "tensor";
  EXPECT_TRUE(!readPartialKernelManifest(kernelManifestToJson(k), partial,
                                         error));
  EXPECT_TRUE(error.find("lowering: unknown lowering 'tensor'") !=
              std::string::npos);
  // A non-finite alpha has no JSON spelling: written as null, refused.
  k.lowering = "ptx";
  k.chip = "sm_90";
  k.gemm.alpha = std::nan("");
  unfinished.kernels[0] = k;
  EXPECT_TRUE(!tryParseManifest(writeManifest(unfinished), "m.json", out,
                                error));
  EXPECT_TRUE(error.find("alpha: expected a number, got null") !=
              std::string::npos);
}

namespace {
/// The example manifest with `maps` as its kernel's "tensor_maps".
std::string withTensorMaps(const std::string &maps,
                           std::string text = exampleManifest()) {
  // The end of "args", the kernel's last field.
  const char *argsEnd = "\n      ]\n    }";
  return REPLACE(text, argsEnd,
                 "\n      ],\n      \"tensor_maps\": " + maps + "\n    }");
}

const char *kTwoMaps =
    R"([{"operand": "a", "box": [128, 64], "swizzle": 128, "passing": "global"},
        {"operand": "b", "box": [256, 32], "swizzle": 64, "passing": "global"}])";
} // namespace

TEST(manifestTensorMaps) {
  const KernelManifest k = parse(withTensorMaps(kTwoMaps)).kernels[0];
  EXPECT_EQ(k.tensorMaps.size(), size_t(2));
  EXPECT_TRUE(k.tensorMaps[0].operand == Operand::A);
  EXPECT_EQ(k.tensorMaps[0].box[0], 128);
  EXPECT_EQ(k.tensorMaps[0].box[1], 64);
  EXPECT_EQ(k.tensorMaps[0].swizzle, 128);
  EXPECT_TRUE(k.tensorMaps[1].operand == Operand::B);
  EXPECT_EQ(k.tensorMaps[1].box[0], 256);
  EXPECT_EQ(k.tensorMaps[1].swizzle, 64);
  // Empty is the same as absent.
  EXPECT_TRUE(parse(withTensorMaps("[]")).kernels[0].tensorMaps.empty());
  // In the order given, not the order of args; C is accepted (an f32 box
  // row of 32 elements is the 128-byte span), and so is no swizzle with a
  // box row wider than 128 bytes.
  Manifest other = parse(withTensorMaps(
      R"([{"operand": "c", "box": [8, 32], "swizzle": 128, "passing": "global"},
          {"operand": "a", "box": [64, 256], "swizzle": 0, "passing": "global"}])"));
  EXPECT_TRUE(other.kernels[0].tensorMaps[0].operand == Operand::C);
  EXPECT_TRUE(other.kernels[0].tensorMaps[1].operand == Operand::A);
  EXPECT_EQ(other.kernels[0].tensorMaps[1].swizzle, 0);
}

TEST(manifestTensorMapsRoundTrip) {
  Manifest m = parse(withTensorMaps(kTwoMaps));
  std::string written = writeManifest(m);
  EXPECT_TRUE(written.find("\"tensor_maps\"") != std::string::npos);
  EXPECT_TRUE(written.find("\"passing\": \"global\"") != std::string::npos);
  EXPECT_TRUE(m.kernels[0].tensorMaps[0].passing == MapPassing::Global);
  // By value, what the compiler writes: read and written back as "param".
  Manifest byValue = parse(withTensorMaps(
      R"([{"operand": "a", "box": [128, 64], "swizzle": 128, "passing": "param"}])"));
  EXPECT_TRUE(byValue.kernels[0].tensorMaps[0].passing == MapPassing::Param);
  EXPECT_TRUE(writeManifest(byValue).find("\"passing\": \"param\"") !=
              std::string::npos);
  Manifest again = parse(written);
  EXPECT_EQ(writeManifest(again), written);
  const KernelManifest &a = m.kernels[0], &b = again.kernels[0];
  EXPECT_EQ(b.tensorMaps.size(), a.tensorMaps.size());
  for (size_t i = 0; i < a.tensorMaps.size() && i < b.tensorMaps.size();
       ++i) {
    EXPECT_TRUE(b.tensorMaps[i].operand == a.tensorMaps[i].operand);
    EXPECT_TRUE(b.tensorMaps[i].box == a.tensorMaps[i].box);
    EXPECT_EQ(b.tensorMaps[i].swizzle, a.tensorMaps[i].swizzle);
  }
  // A kernel without tensor maps is written without the field.
  std::string plain = writeManifest(parse(withTensorMaps("[]")));
  EXPECT_TRUE(plain.find("tensor_maps") == std::string::npos);
  EXPECT_TRUE(plain.find("\"version\": 8") != std::string::npos);
  // The partial reader (a kernel not yet compiled) takes them too.
  KernelManifest k = a;
  k.lowering.clear();
  k.chip.clear();
  KernelManifest partial;
  std::string error;
  EXPECT_TRUE(readPartialKernelManifest(kernelManifestToJson(k), partial,
                                        error));
  EXPECT_EQ(partial.tensorMaps.size(), size_t(2));
  EXPECT_TRUE(partial.tensorMaps[1].operand == Operand::B);
  k.tensorMaps[1].swizzle = 16;
  EXPECT_TRUE(!readPartialKernelManifest(kernelManifestToJson(k), partial,
                                         error));
  EXPECT_TRUE(error.find("tensor_maps[1].swizzle: unsupported swizzle 16") !=
              std::string::npos);
}

TEST(manifestRejectsBadTensorMaps) {
  const char *good =
      R"({"operand": "a", "box": [128, 64], "swizzle": 128, "passing": "global"})";
  const std::string twice = std::string(good) + ", " + good;
  const BadManifest bad[] = {
      {good, R"({"operand": "d", "box": [128, 64], "swizzle": 128, "passing": "global"})",
       ErrorKind::Input,
       "manifest.json: kernels[0].tensor_maps[0].operand: unknown operand "
       "'d' (expected a, b or c, an argument of the kernel)"},
      {good, R"({"operand": 1, "box": [128, 64], "swizzle": 128, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].operand: expected a string, got 1"},
      {good, R"({"box": [128, 64], "swizzle": 128, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0]: missing field 'operand'"},
      {good, R"({"operand": "a", "box": [0, 64], "swizzle": 128, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].box[0]: expected an integer >= 1, got 0"},
      {good, R"({"operand": "a", "box": [512, 64], "swizzle": 128, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].box[0]: expected an integer <= 256 (the "
       "largest TMA box extent), got 512"},
      {good, R"({"operand": "a", "box": [128, 64.5], "swizzle": 128, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].box[1]: expected an integer, got 64.5"},
      {good, R"({"operand": "a", "box": [128], "swizzle": 128, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].box: expected an array of 2 integers, got "
       "an array of 1"},
      {good, R"({"operand": "a", "box": [128, 64], "swizzle": 16, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].swizzle: unsupported swizzle 16 (expected "
       "0, 32, 64 or 128 bytes)"},
      {good, R"({"operand": "a", "box": [128, 64], "swizzle": -32, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].swizzle: expected an integer >= 0, got -32"},
      {good, R"({"operand": "a", "box": [128, 64], "swizzle": 128, "passing": "shared"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].passing: unsupported passing 'shared' "
       "(expected param: the descriptor itself, a __grid_constant__ "
       "parameter; or global: its device address)"},
      {good, R"({"operand": "a", "box": [128, 64], "swizzle": 128})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0]: missing field 'passing'"},
      {good, R"({"operand": "a", "box": [128, 64], "swizzle": 128, "passing": "global", "l2": 256})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0]: unknown field 'l2' (expected operand, "
       "box, swizzle, passing)"},
      // f16: 128 elements are 256 bytes, wider than the swizzle span.
      {good, R"({"operand": "a", "box": [64, 128], "swizzle": 128, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].box[1]: a box row of 128 f16 elements is "
       "256 bytes, more than the 128-byte swizzle span it must fit in"},
      {good, R"({"operand": "a", "box": [128, 32], "swizzle": 32, "passing": "global"})",
       ErrorKind::Input,
       "a box row of 32 f16 elements is 64 bytes, more than the 32-byte "
       "swizzle span"},
      {good, R"({"operand": "a", "box": [128, 4], "swizzle": 0, "passing": "global"})",
       ErrorKind::Input,
       "kernels[0].tensor_maps[0].box[1]: a box row of 4 f16 elements is 8 "
       "bytes, not a multiple of 16 (TMA moves 16-byte chunks)"},
      {good, twice.c_str(), ErrorKind::Input,
       "kernels[0].tensor_maps[1].operand: a tensor map for operand 'a' "
       "appears twice (also kernels[0].tensor_maps[0])"},
      {good, "7", ErrorKind::Input,
       "kernels[0].tensor_maps[0]: expected an object, got 7"},
  };
  for (const BadManifest &b : bad) {
    std::string text = REPLACE(withTensorMaps(std::string("[") + good + "]"),
                               b.from, b.to);
    EXPECT_ERROR(parse(text), b.kind, b.message);
  }
  // Every map of a kernel is passed alike.
  EXPECT_ERROR(
      parse(withTensorMaps(
          R"([{"operand": "a", "box": [128, 64], "swizzle": 128, "passing": "param"},
              {"operand": "b", "box": [128, 64], "swizzle": 128, "passing": "global"}])")),
      ErrorKind::Input,
      "kernels[0].tensor_maps[1].passing: passing 'global' differs from "
      "kernels[0].tensor_maps[0]'s 'param': a kernel takes all its maps "
      "alike");
  EXPECT_ERROR(parse(withTensorMaps(R"({"operand": "a"})")), ErrorKind::Input,
               "kernels[0].tensor_maps: expected an array, got an object");
  EXPECT_ERROR(parse(withTensorMaps("null")), ErrorKind::Input,
               "kernels[0].tensor_maps: expected an array, got null");
}

TEST(manifestTensorMapsOfByteTypes) {
  // s8 (and the other 8-bit types) move as bytes: 128 of them fill the
  // 128-byte span. s4 has no tensor map at all.
  auto integerManifest = [](const char *type) {
    std::string text = exampleManifest();
    for (const char *operand : {"a", "b"}) {
      text = REPLACE(text, std::string("\"") + operand + R"(": {"type": "f16")",
                     std::string("\"") + operand + R"(": {"type": ")" + type +
                         "\"");
      text = REPLACE(text, std::string(R"("name": ")") + operand +
                               R"(", "kind": "memref", "type": "f16")",
                     std::string(R"("name": ")") + operand +
                         R"(", "kind": "memref", "type": ")" + type + "\"");
    }
    text = REPLACE(text, R"("c": {"type": "f32")", R"("c": {"type": "s32")");
    text = REPLACE(text, R"("name": "c", "kind": "memref", "type": "f32")",
                   R"("name": "c", "kind": "memref", "type": "s32")");
    return REPLACE(text, R"("acc": "f32")", R"("acc": "s32")");
  };
  const char *bytes128 =
      R"([{"operand": "b", "box": [128, 128], "swizzle": 128, "passing": "global"}])";
  Manifest s8 = parse(withTensorMaps(bytes128, integerManifest("s8")));
  EXPECT_EQ(s8.kernels[0].tensorMaps.size(), size_t(1));
  EXPECT_EQ(s8.kernels[0].tensorMaps.at(0).box[1], 128);
  EXPECT_ERROR(
      parse(withTensorMaps(
          R"([{"operand": "b", "box": [128, 256], "swizzle": 128, "passing": "global"}])",
          integerManifest("s8"))),
      ErrorKind::Input,
      "a box row of 256 s8 elements is 256 bytes, more than the 128-byte "
      "swizzle span");
  EXPECT_ERROR(
      parse(withTensorMaps(bytes128, integerManifest("s4"))),
      ErrorKind::Input,
      "kernels[0].tensor_maps[0].operand: operand 'b' is s4, which a tensor "
      "map cannot describe (TMA moves whole bytes)");
}

TEST(manifestEpilogueReads) {
  Manifest m = parse(tgemm::test::epilogueManifest());
  const KernelManifest &k = m.kernels[0];
  EXPECT_EQ(m.version, kManifestVersion);
  EXPECT_EQ(k.args.size(), size_t(6));
  EXPECT_TRUE(!k.args[2].epilogue && k.args[2].operand == Operand::C);
  EXPECT_TRUE(k.args[3].epilogue && k.args[3].rank == 1 &&
              k.args[3].type == ElementType::F32);
  EXPECT_TRUE(k.args[4].epilogue && k.args[4].type == ElementType::F16);
  EXPECT_TRUE(k.args[5].epilogue && k.args[5].rank == 2 &&
              k.args[5].type == ElementType::BF16);
  EXPECT_EQ(k.epilogue.size(), size_t(4));
  EXPECT_TRUE(k.epilogue[0].op == EpilogueOp::Scale &&
              k.epilogue[0].broadcast == Broadcast::Col &&
              k.epilogue[0].arg == 3);
  EXPECT_TRUE(k.epilogue[1].op == EpilogueOp::Bias &&
              k.epilogue[1].broadcast == Broadcast::Row &&
              k.epilogue[1].arg == 4);
  EXPECT_TRUE(k.epilogue[2].op == EpilogueOp::Residual &&
              k.epilogue[2].arg == 5);
  EXPECT_TRUE(k.epilogue[3].op == EpilogueOp::GeluTanh &&
              k.epilogue[3].arg == -1);
  // Activations alone need no operands; an empty list is no epilogue.
  std::string base = exampleManifest();
  std::string activations =
      REPLACE(base, R"({"name": "c", "kind": "memref", "type": "f32", "rank": 2}
      ])",
              R"({"name": "c", "kind": "memref", "type": "f32", "rank": 2}
      ],
      "epilogue": [{"op": "relu"}, {"op": "gelu_erf"}, {"op": "silu"}])");
  activations = REPLACE(activations, R"("version": 2)", R"("version": 4)");
  EXPECT_EQ(parse(activations).kernels[0].epilogue.size(), size_t(3));
  std::string empty =
      REPLACE(base, R"("args": [)", R"("epilogue": [], "args": [)");
  EXPECT_TRUE(parse(empty).kernels[0].epilogue.empty());
}

TEST(manifestEpilogueRoundTrip) {
  Manifest m = parse(tgemm::test::epilogueManifest());
  std::string written = writeManifest(m);
  JsonValue kernel = kernelManifestToJson(m.kernels[0]);
  const JsonValue *steps = kernel.find("epilogue");
  EXPECT_TRUE(steps && steps->isArray() && steps->getArray().size() == 4);
  if (steps && steps->isArray() && steps->getArray().size() == 4) {
    const JsonValue &scale = steps->getArray()[0];
    EXPECT_EQ(scale.find("op")->getString(), std::string("scale"));
    EXPECT_EQ(scale.find("broadcast")->getString(), std::string("col"));
    EXPECT_EQ(scale.find("arg")->getString(), std::string("epilogue0"));
    const JsonValue &residual = steps->getArray()[2];
    EXPECT_TRUE(!residual.find("broadcast"));
    EXPECT_EQ(residual.find("arg")->getString(), std::string("epilogue2"));
    const JsonValue &gelu = steps->getArray()[3];
    EXPECT_EQ(gelu.getObject().size(), size_t(1)); // the op alone
  }
  // Epilogue operands are written without "strided" (always packed).
  const JsonValue &args = *kernel.find("args");
  EXPECT_TRUE(args.getArray()[2].find("strided"));
  EXPECT_TRUE(!args.getArray()[5].find("strided"));
  EXPECT_EQ(args.getArray()[5].find("name")->getString(),
            std::string("epilogue2"));
  Manifest again = parse(written);
  EXPECT_EQ(writeManifest(again), written);
  const KernelManifest &a = m.kernels[0], &b = again.kernels[0];
  EXPECT_TRUE(a.epilogue == b.epilogue);
  for (size_t i = 0; i < a.args.size(); ++i)
    EXPECT_TRUE(a.args[i].epilogue == b.args[i].epilogue &&
                a.args[i].type == b.args[i].type &&
                a.args[i].rank == b.args[i].rank);
  // A kernel without steps is written without the field.
  EXPECT_TRUE(writeManifest(parse(exampleManifest())).find("epilogue") ==
              std::string::npos);
  // The partial reader (a kernel still being built) reads them too.
  KernelManifest k = a;
  k.lowering.clear();
  KernelManifest partial;
  std::string error;
  EXPECT_TRUE(
      readPartialKernelManifest(kernelManifestToJson(k), partial, error));
  EXPECT_TRUE(partial.epilogue == a.epilogue);
}

TEST(manifestEpilogueBatchedResidual) {
  std::string text = tgemm::test::batchedManifest();
  text = REPLACE(text, R"("version": 2)", R"("version": 4)");
  text = REPLACE(text, R"("rank": 3, "strided": true}
      ])",
                 R"("rank": 3, "strided": true},
        {"name": "epilogue0", "kind": "memref", "type": "f16", "rank": 3},
        {"name": "epilogue1", "kind": "memref", "type": "f16", "rank": 1}
      ],
      "epilogue": [{"op": "residual", "arg": "epilogue0"},
                   {"op": "bias", "broadcast": "scalar", "arg": "epilogue1"}])");
  const KernelManifest k = parse(text).kernels[0];
  EXPECT_EQ(k.epilogue.size(), size_t(2));
  EXPECT_TRUE(k.epilogue[1].broadcast == Broadcast::Scalar);
  EXPECT_ERROR(parse(REPLACE(text, R"("type": "f16", "rank": 3},)",
                             R"("type": "f16", "rank": 2},)")),
               ErrorKind::Input,
               "kernels[0].args[3].rank: epilogue argument 'epilogue0' is "
               "read by residual, a matrix of C's shape: rank 3, got 2");
}

namespace {
/// The epilogue manifest with `from` replaced by `to`.
std::string epilogueWith(const std::string &from, const std::string &to) {
  return REPLACE(tgemm::test::epilogueManifest(), from, to);
}
} // namespace

TEST(manifestRejectsBadEpilogues) {
  const char *scale =
      R"({"op": "scale", "broadcast": "col", "arg": "epilogue0"})";
  const char *e0 =
      R"({"name": "epilogue0", "kind": "memref", "type": "f32", "rank": 1})";
  struct Case {
    std::string from, to, message;
    ErrorKind kind = ErrorKind::Input;
  };
  const Case cases[] = {
      {R"({"op": "gelu_tanh"})", R"({"op": "gelu"})",
       "manifest.json: kernels[0].epilogue[3].op: unknown epilogue op "
       "'gelu' (expected one of bias, scale, residual, relu, gelu_tanh, "
       "gelu_erf, silu)"},
      {R"({"op": "gelu_tanh"})", R"({"op": 3})",
       "kernels[0].epilogue[3].op: expected a string, got 3"},
      {R"({"op": "gelu_tanh"})", R"({"arg": "epilogue0"})",
       "kernels[0].epilogue[3]: missing field 'op'"},
      {R"({"op": "gelu_tanh"})", R"({"op": "relu", "alpha": 0.1})",
       "kernels[0].epilogue[3]: unknown field 'alpha' (expected op, "
       "broadcast, arg)"},
      {scale, R"({"op": "scale", "arg": "epilogue0"})",
       "kernels[0].epilogue[0]: missing field 'broadcast': scale says how "
       "its vector is indexed (row: M elements, col: N, scalar: 1)"},
      {scale, R"({"op": "scale", "broadcast": "diag", "arg": "epilogue0"})",
       "kernels[0].epilogue[0].broadcast: unknown broadcast 'diag' "
       "(expected row, col or scalar)"},
      {R"({"op": "residual", "arg": "epilogue2"})",
       R"({"op": "residual", "broadcast": "row", "arg": "epilogue2"})",
       "kernels[0].epilogue[2].broadcast: residual takes no broadcast (only "
       "bias and scale do)"},
      {R"({"op": "gelu_tanh"})", R"({"op": "gelu_tanh", "broadcast": "col"})",
       "kernels[0].epilogue[3].broadcast: gelu_tanh takes no broadcast"},
      {scale, R"({"op": "scale", "broadcast": "col"})",
       "kernels[0].epilogue[0]: missing field 'arg': scale names the "
       "epilogue argument it reads (epilogue0, epilogue1, epilogue2)"},
      {R"({"op": "residual", "arg": "epilogue2"})", R"({"op": "residual"})",
       "kernels[0].epilogue[2]: missing field 'arg': residual names the "
       "epilogue argument it reads"},
      {R"({"op": "gelu_tanh"})", R"({"op": "gelu_tanh", "arg": "epilogue0"})",
       "kernels[0].epilogue[3].arg: gelu_tanh reads no operand (only bias, "
       "scale and residual do)"},
      {scale, R"({"op": "scale", "broadcast": "col", "arg": "epilogue7"})",
       "kernels[0].epilogue[0].arg: 'epilogue7' names no argument of the "
       "kernel (its epilogue arguments: epilogue0, epilogue1, epilogue2)"},
      {scale, R"({"op": "scale", "broadcast": "col", "arg": "c"})",
       "kernels[0].epilogue[0].arg: 'c' is a matrix of the GEMM; scale "
       "reads an epilogue argument (epilogue0, epilogue1, epilogue2)"},
      {scale, R"({"op": "scale", "broadcast": "col", "arg": 0})",
       "kernels[0].epilogue[0].arg: expected a string, got 0"},
      {R"({"op": "bias", "broadcast": "row", "arg": "epilogue1"})",
       R"({"op": "bias", "broadcast": "row", "arg": "epilogue0"})",
       "kernels[0].epilogue[1].arg: epilogue argument 'epilogue0' is "
       "already read by an earlier step; each is read by exactly one"},
      {scale, R"({"op": "scale", "broadcast": "col", "arg": "epilogue1"})",
       "kernels[0].epilogue[0].arg: 'epilogue1' is out of order: the steps "
       "read the epilogue arguments in args order, so this step reads "
       "'epilogue0'"},
      {R"({"op": "residual", "arg": "epilogue2"},)", "",
       "kernels[0].args[5]: epilogue argument 'epilogue2' is read by no "
       "step of the kernel's \"epilogue\""},
      {e0,
       R"({"name": "epilogue0", "kind": "memref", "type": "f32", "rank": 2})",
       "kernels[0].args[3].rank: epilogue argument 'epilogue0' is read by "
       "scale(col), a vector: rank 1, got 2"},
      {R"("type": "bf16", "rank": 2})", R"("type": "bf16", "rank": 1})",
       "kernels[0].args[5].rank: epilogue argument 'epilogue2' is read by "
       "residual, a matrix of C's shape: rank 2, got 1"},
      {e0,
       R"({"name": "epilogue0", "kind": "memref", "type": "f32", "rank": 4})",
       "kernels[0].args[3].rank: a rank-4 epilogue operand is not "
       "supported; a bias or scale vector is rank 1, a residual has C's "
       "rank (2, or 3 when batched)"},
      {e0,
       R"({"name": "epilogue0", "kind": "memref", "type": "s8", "rank": 1})",
       "kernels[0].args[3].type: epilogue argument 'epilogue0' has type s8; "
       "an epilogue operand is f32, f16 or bf16"},
      {e0,
       R"({"name": "epilogue0", "kind": "memref", "type": "tf32", "rank": 1})",
       "epilogue operand is f32, f16 or bf16"},
      {e0,
       R"({"name": "epilogue0", "kind": "memref", "type": "f32", "rank": 1, "strided": true})",
       "kernels[0].args[3].strided: epilogue argument 'epilogue0' is "
       "strided; an epilogue operand is always packed"},
      {e0,
       R"({"name": "epilogue1", "kind": "memref", "type": "f32", "rank": 1})",
       "kernels[0].args[3].name: epilogue argument 'epilogue1' is out of "
       "order: the epilogue's operands are numbered from 0 in args order, "
       "so this one is 'epilogue0'"},
      {R"({"name": "c", "kind": "memref", "type": "f32", "rank": 2},
        )",
       "",
       "kernels[0].args[2].name: epilogue argument 'epilogue0' comes "
       "before argument 'c'; the epilogue's operands follow a, b and c"},
      {R"("epilogue": [)", R"("epilogue": {"steps": [)", "invalid JSON"},
      {R"("version": 4)", R"("version": 3)",
       "kernels[0].epilogue: fused epilogue steps need manifest version 4; "
       "this manifest is version 3"},
      // A tensor map describes a matrix of the GEMM, never an epilogue
      // operand.
      {R"("gelu_tanh"}
      ])",
       R"("gelu_tanh"}
      ],
      "tensor_maps": [{"operand": "epilogue0", "box": [1, 64], "swizzle": 0, "passing": "param"}])",
       "kernels[0].tensor_maps[0].operand: unknown operand 'epilogue0' "
       "(expected a, b or c, an argument of the kernel)"},
  };
  for (const Case &bad : cases)
    EXPECT_ERROR(parse(epilogueWith(bad.from, bad.to)), bad.kind, bad.message);
  // Not an array.
  std::string notArray = REPLACE(exampleManifest(), R"("args": [)",
                                 R"("epilogue": {}, "args": [)");
  EXPECT_ERROR(parse(notArray), ErrorKind::Input,
               "kernels[0].epilogue: expected an array of steps, got an "
               "object");
}

TEST(manifestEpilogueIntegerC) {
  // s8 * s8 with an s32 accumulator.
  std::string s8 = tgemm::test::epilogueManifest();
  for (const char *operand : {"a", "b"}) {
    s8 = REPLACE(s8, std::string("\"") + operand + R"(": {"type": "f16")",
                 std::string("\"") + operand + R"(": {"type": "s8")");
    s8 = REPLACE(s8,
                 std::string(R"("name": ")") + operand +
                     R"(", "kind": "memref", "type": "f16")",
                 std::string(R"("name": ")") + operand +
                     R"(", "kind": "memref", "type": "s8")");
  }
  s8 = REPLACE(s8, R"("acc": "f32")", R"("acc": "s32")");
  // A float C dequantizes: steps and a real alpha are fine.
  std::string dequantized = REPLACE(s8, R"("alpha": 1.0)", R"("alpha": 0.25)");
  const KernelManifest k = parse(dequantized).kernels[0];
  EXPECT_TRUE(k.gemm.isInteger() && k.gemm.c.type == ElementType::F32);
  EXPECT_EQ(k.gemm.alpha, 0.25);
  EXPECT_EQ(k.epilogue.size(), size_t(4));
  // An s32 C takes no steps.
  std::string s32 =
      REPLACE(s8, R"("c": {"type": "f32")", R"("c": {"type": "s32")");
  s32 = REPLACE(s32, R"("name": "c", "kind": "memref", "type": "f32")",
                R"("name": "c", "kind": "memref", "type": "s32")");
  EXPECT_ERROR(parse(s32), ErrorKind::Input,
               "kernels[0].epilogue: an s32 C takes no epilogue steps (they "
               "compute in f32): an s32 accumulator gives C in f32, f16 or "
               "bf16 to dequantize and apply them");
  // Every float C of an integer GEMM is a supported combination; s8 still
  // is not (no kernel writes an 8-bit C).
  for (const char *c : {"f16", "bf16", "f32", "s32"}) {
    GemmSpec spec;
    spec.a.type = spec.b.type = ElementType::S8;
    spec.acc = ElementType::S32;
    spec.c.type = *parseElementType(c);
    EXPECT_TRUE(isSupportedCombination(spec, nullptr));
  }
  GemmSpec bad;
  bad.a.type = bad.b.type = ElementType::U8;
  bad.acc = ElementType::S32;
  bad.c.type = ElementType::S8;
  std::string why;
  EXPECT_TRUE(!isSupportedCombination(bad, &why));
  EXPECT_EQ(why, std::string("integer operands accumulate in s32 and give C "
                             "in s32, f32, f16 or bf16"));
}

namespace {
/// The example kernel as a persistent one, in a manifest of `version`.
std::string persistentManifest(const std::string &value = "true",
                               int version = 5) {
  std::string text = REPLACE(exampleManifest(), R"("version": 2)",
                             "\"version\": " + std::to_string(version));
  return REPLACE(text, R"("block": [128, 1, 1],)",
                 "\"persistent\": " + value + ",\n      \"block\": [128, 1, 1],");
}
} // namespace

TEST(manifestPersistent) {
  const KernelManifest k = parse(persistentManifest()).kernels[0];
  EXPECT_TRUE(k.persistent);
  // The grid still lists the tiles.
  EXPECT_TRUE(k.grid[0].isTiled && k.grid[0].dim == Dim::N);
  EXPECT_TRUE(k.grid[1].isTiled && k.grid[1].dim == Dim::M);
  // Absent: not persistent, in any version; false is false in any version.
  EXPECT_TRUE(!parse(exampleManifest()).kernels[0].persistent);
  EXPECT_TRUE(!parse(REPLACE(exampleManifest(), R"("version": 2)",
                             R"("version": 5)"))
                   .kernels[0]
                   .persistent);
  EXPECT_TRUE(!parse(persistentManifest("false", 4)).kernels[0].persistent);
  EXPECT_TRUE(!parse(persistentManifest("false", 5)).kernels[0].persistent);
}

TEST(manifestRejectsBadPersistent) {
  EXPECT_ERROR(parse(persistentManifest("1")), ErrorKind::Input,
               "manifest.json: kernels[0].persistent: expected true or "
               "false, got 1");
  EXPECT_ERROR(parse(persistentManifest("\"yes\"")), ErrorKind::Input,
               "kernels[0].persistent: expected true or false, got \"yes\"");
  EXPECT_ERROR(parse(persistentManifest("null")), ErrorKind::Input,
               "kernels[0].persistent: expected true or false, got null");
  for (int version : {2, 3, 4})
    EXPECT_ERROR(parse(persistentManifest("true", version)), ErrorKind::Input,
                 "manifest.json: kernels[0].persistent: persistent kernels "
                 "need manifest version 5; this manifest is version " +
                     std::to_string(version));
  // The field is known: an unknown one still lists it.
  EXPECT_ERROR(parse(REPLACE(exampleManifest(), R"("acc": "f32",)",
                             R"("acc": "f32", "persistant": true,)")),
               ErrorKind::Input,
               "kernels[0]: unknown field 'persistant' (expected name, "
               "module, lowering, chip, problem, a, b, c, acc, alpha, beta, "
               "config, grid, block, dynamic_shared_memory, requires, args, "
               "epilogue, tensor_maps, persistent, cluster, transposes, "
               "aligned_copies)");
}

namespace {
/// The example kernel in clusters of `cluster` blocks along x (grid x
/// `times`), in a manifest of `version`.
std::string clusterManifest(const std::string &cluster = "2",
                            const std::string &times = "2",
                            int version = 6) {
  std::string text = REPLACE(exampleManifest(), R"("version": 2)",
                             "\"version\": " + std::to_string(version));
  text = REPLACE(text, R"({"dim": "n", "tile": 128})",
                 "{\"dim\": \"n\", \"tile\": 128, \"times\": " + times +
                     "}");
  return REPLACE(text, R"("block": [128, 1, 1],)",
                 "\"cluster\": " + cluster +
                     ",\n      \"block\": [128, 1, 1],");
}
} // namespace

TEST(manifestCluster) {
  const KernelManifest k = parse(clusterManifest()).kernels[0];
  EXPECT_EQ(k.cluster, 2);
  EXPECT_EQ(k.grid[0].times, 2);
  // Grid x lists 2 blocks per tile column.
  LaunchDims dims = computeLaunch(k, GemmShape{512, 512, 64});
  EXPECT_EQ(dims.grid[0], 8u);
  // Absent: 1, in any version.
  EXPECT_EQ(parse(exampleManifest()).kernels[0].cluster, 1);
  EXPECT_EQ(parse(clusterManifest("1", "1", 5)).kernels[0].cluster, 1);
}

TEST(manifestRejectsBadCluster) {
  EXPECT_ERROR(parse(clusterManifest("0")), ErrorKind::Input,
               "manifest.json: kernels[0].cluster: expected an integer >= 1, "
               "got 0");
  EXPECT_ERROR(parse(clusterManifest("16", "16")), ErrorKind::Input,
               "kernels[0].cluster: at most 8 blocks per cluster, got 16");
  EXPECT_ERROR(parse(clusterManifest("true")), ErrorKind::Input,
               "kernels[0].cluster: expected an integer, got a boolean");
  for (int version : {2, 3, 4, 5})
    EXPECT_ERROR(parse(clusterManifest("2", "2", version)), ErrorKind::Input,
                 "manifest.json: kernels[0].cluster: clusters need manifest "
                 "version 6; this manifest is version " +
                     std::to_string(version));
  // Grid x lists the cluster's blocks per tile column, and grid y never
  // repeats.
  EXPECT_ERROR(parse(clusterManifest("2", "1")), ErrorKind::Input,
               "kernels[0].grid[0]: cluster is 2, so grid x must have times "
               "2, got 1");
  EXPECT_ERROR(
      parse(REPLACE(clusterManifest(), R"({"dim": "m", "tile": 128})",
                    R"({"dim": "m", "tile": 128, "times": 2})")),
      ErrorKind::Input,
      "kernels[0].grid[1].times: grid y does not repeat (only split K's "
      "parts in grid z and a cluster's blocks in grid x do)");
}

TEST(manifestClusterRoundTrip) {
  Manifest m = parse(clusterManifest());
  std::string written = writeManifest(m);
  EXPECT_TRUE(written.find("\"cluster\": 2") != std::string::npos);
  Manifest again = parse(written);
  EXPECT_EQ(again.kernels[0].cluster, 2);
  EXPECT_EQ(writeManifest(again), written);
  // Without clusters: written without the field, as before.
  EXPECT_TRUE(writeManifest(parse(exampleManifest())).find("cluster") ==
              std::string::npos);
}

TEST(manifestPersistentRoundTrip) {
  Manifest m = parse(persistentManifest());
  std::string written = writeManifest(m);
  EXPECT_TRUE(written.find("\"persistent\": true") != std::string::npos);
  EXPECT_TRUE(written.find("\"version\": 8") != std::string::npos);
  JsonValue kernel = kernelManifestToJson(m.kernels[0]);
  const JsonValue *persistent = kernel.find("persistent");
  EXPECT_TRUE(persistent && persistent->isBool() && persistent->getBool());
  Manifest again = parse(written);
  EXPECT_TRUE(again.kernels[0].persistent);
  EXPECT_EQ(writeManifest(again), written);
  // Not persistent: written without the field, as before.
  Manifest plain = parse(persistentManifest("false"));
  EXPECT_TRUE(writeManifest(plain).find("persistent") == std::string::npos);
  EXPECT_TRUE(!kernelManifestToJson(plain.kernels[0]).find("persistent"));
  EXPECT_TRUE(writeManifest(parse(exampleManifest())).find("persistent") ==
              std::string::npos);
  // The partial reader (a kernel still being built) reads it too.
  KernelManifest k = m.kernels[0];
  k.lowering.clear();
  k.chip.clear();
  KernelManifest partial;
  std::string error;
  EXPECT_TRUE(
      readPartialKernelManifest(kernelManifestToJson(k), partial, error));
  EXPECT_TRUE(partial.persistent);
  k.persistent = false;
  EXPECT_TRUE(
      readPartialKernelManifest(kernelManifestToJson(k), partial, error));
  EXPECT_TRUE(!partial.persistent);
  Manifest badManifest;
  badManifest.kernels.push_back(m.kernels[0]);
  std::string badText =
      REPLACE(writeManifest(badManifest), "\"persistent\": true",
              "\"persistent\": 0");
  JsonValue badEntry = parseJson(badText).find("kernels")->getArray()[0];
  EXPECT_TRUE(!readPartialKernelManifest(badEntry, partial, error));
  EXPECT_TRUE(error.find("persistent: expected true or false, got 0") !=
              std::string::npos);
}

namespace {
/// The transposing kernel's entry of TestSupport's transpose manifest.
const char *kTransposeEntry =
    R"({"operand": "b", "kernel": "gemm_s8_kernel_transpose_b", "tile": [64, 64], "block": [256, 1, 1]})";

/// The transpose manifest with its "transposes" list replaced by `list`.
std::string withTransposes(const std::string &list) {
  return REPLACE(tgemm::test::transposeManifest(),
                 std::string("[") + kTransposeEntry + "]", list);
}
} // namespace

TEST(manifestTransposes) {
  const KernelManifest k = parse(tgemm::test::transposeManifest()).kernels[0];
  EXPECT_EQ(k.transposes.size(), size_t(1));
  const OperandTranspose &t = k.transposes[0];
  EXPECT_TRUE(t.operand == Operand::B);
  EXPECT_EQ(t.kernel, std::string("gemm_s8_kernel_transpose_b"));
  EXPECT_EQ(t.tile[0], 64);
  EXPECT_EQ(t.tile[1], 64);
  EXPECT_EQ(t.threads, 256);
  EXPECT_TRUE(findTranspose(k, Operand::B) == &k.transposes[0]);
  EXPECT_TRUE(findTranspose(k, Operand::A) == nullptr);
  // Both operands, A's first, with their own tiles and blocks.
  // (A column-major: stored K x M.)
  const KernelManifest both =
      parse(
          REPLACE(
              withTransposes(
                  R"([{"operand": "a", "kernel": "t_a", "tile": [32, 128], "block": [128, 1, 1]},
                    {"operand": "b", "kernel": "t_b", "tile": [64, 64], "block": [1024, 1, 1]}])"),
              R"("a": {"type": "s8", "layout": "row"})",
              R"("a": {"type": "s8", "layout": "col"})"))
          .kernels[0];
  EXPECT_EQ(both.transposes.size(), size_t(2));
  EXPECT_TRUE(both.transposes[0].operand == Operand::A);
  EXPECT_EQ(both.transposes[0].tile[0], 32);
  EXPECT_EQ(both.transposes[0].tile[1], 128);
  EXPECT_EQ(both.transposes[0].threads, 128);
  EXPECT_EQ(both.transposes[1].kernel, std::string("t_b"));
  EXPECT_EQ(both.transposes[1].threads, 1024);
  EXPECT_TRUE(findTranspose(both, Operand::A) == &both.transposes[0]);
  // An empty list, or none: every operand is read where it is stored, in
  // any version.
  EXPECT_TRUE(parse(withTransposes("[]")).kernels[0].transposes.empty());
  EXPECT_TRUE(
      parse(REPLACE(withTransposes("[]"), R"("version": 7)", R"("version": 6)"))
          .kernels[0]
          .transposes.empty());
  EXPECT_TRUE(parse(exampleManifest()).kernels[0].transposes.empty());
}

TEST(manifestTransposesRoundTrip) {
  Manifest m = parse(tgemm::test::transposeManifest());
  std::string written = writeManifest(m);
  EXPECT_TRUE(written.find("\"version\": 8") != std::string::npos);
  // After "cluster" would be (the kernel has none), the last field.
  JsonValue kernel = kernelManifestToJson(m.kernels[0]);
  EXPECT_EQ(kernel.getObject().back().first, std::string("transposes"));
  EXPECT_EQ(writeJson(kernel.getObject().back().second),
            writeJson(parseJson(std::string("[") + kTransposeEntry + "]")));
  Manifest again = parse(written);
  EXPECT_EQ(again.kernels[0].transposes.size(), size_t(1));
  EXPECT_EQ(again.kernels[0].transposes[0].kernel,
            std::string("gemm_s8_kernel_transpose_b"));
  EXPECT_EQ(writeManifest(again), written);
  // Two, in a kernel in clusters: after "cluster".
  KernelManifest k = m.kernels[0];
  k.gemm.a.layout = Layout::Col;
  k.transposes.insert(k.transposes.begin(), OperandTranspose());
  k.transposes[0].operand = Operand::A;
  k.transposes[0].kernel = "t_a";
  k.transposes[0].tile = {16, 256};
  k.transposes[0].threads = 512;
  k.cluster = 2;
  k.grid[0].times = 2;
  Manifest two;
  two.kernels.push_back(k);
  std::string twoText = writeManifest(two);
  EXPECT_TRUE(twoText.find("\"cluster\": 2") < twoText.find("\"transposes\""));
  const KernelManifest read = parse(twoText).kernels[0];
  EXPECT_EQ(read.transposes.size(), size_t(2));
  EXPECT_TRUE(read.transposes[0].operand == Operand::A);
  EXPECT_TRUE(read.transposes[0].tile == (std::array<int64_t, 2>{16, 256}));
  EXPECT_EQ(read.transposes[0].threads, 512);
  EXPECT_TRUE(read.transposes[1].operand == Operand::B);
  // Without transposes: written without the field, as before.
  EXPECT_TRUE(writeManifest(parse(withTransposes("[]"))).find("transposes") ==
              std::string::npos);
  EXPECT_TRUE(writeManifest(parse(exampleManifest())).find("transposes") ==
              std::string::npos);
  // The partial reader (a kernel still being built) reads them too.
  KernelManifest unbuilt = m.kernels[0];
  unbuilt.lowering.clear();
  unbuilt.chip.clear();
  KernelManifest partial;
  std::string error;
  EXPECT_TRUE(
      readPartialKernelManifest(kernelManifestToJson(unbuilt), partial, error));
  EXPECT_EQ(partial.transposes.size(), size_t(1));
  unbuilt.transposes[0].kernel.clear();
  EXPECT_TRUE(!readPartialKernelManifest(kernelManifestToJson(unbuilt), partial,
                                         error));
  EXPECT_TRUE(error.find("transposes[0].kernel: expected a non-empty name") !=
              std::string::npos);
}

namespace {
/// The transpose manifest (version 8) with its entry moved to
/// "aligned_copies" as `list`, and A and B of a layout the kernel reads as
/// stored.
std::string withAlignedCopies(const std::string &list) {
  std::string text =
      REPLACE(REPLACE(tgemm::test::transposeManifest(), R"("version": 7)",
                      R"("version": 8)"),
              std::string("\"transposes\": [") + kTransposeEntry + "]",
              "\"aligned_copies\": " + list);
  return REPLACE(text, R"("b": {"type": "s8", "layout": "row"})",
                 R"("b": {"type": "s8", "layout": "col"})");
}
} // namespace

TEST(manifestAlignedCopies) {
  const KernelManifest k =
      parse(
          withAlignedCopies(
              R"([{"operand": "a", "kernel": "al_a", "tile": [16, 256], "block": [256, 1, 1]},
                    {"operand": "b", "kernel": "al_b", "tile": [16, 256], "block": [256, 1, 1]}])"))
          .kernels[0];
  EXPECT_EQ(k.transposes.size(), size_t(2));
  EXPECT_TRUE(k.transposes[0].operand == Operand::A);
  EXPECT_TRUE(!k.transposes[0].transpose);
  EXPECT_TRUE(!k.transposes[1].transpose);
  EXPECT_EQ(k.transposes[1].kernel, std::string("al_b"));
  EXPECT_TRUE(findTranspose(k, Operand::B) == &k.transposes[1]);
  // Written back under "aligned_copies", and read again alike.
  Manifest m;
  m.kernels.push_back(k);
  std::string written = writeManifest(m);
  EXPECT_TRUE(written.find("\"aligned_copies\"") != std::string::npos);
  EXPECT_TRUE(written.find("\"transposes\"") == std::string::npos);
  EXPECT_EQ(writeManifest(parse(written)), written);
  // Beside a transposed copy of the other operand (B row-major s8).
  KernelManifest both = parse(tgemm::test::transposeManifest()).kernels[0];
  OperandTranspose a = both.transposes[0];
  a.operand = Operand::A;
  a.kernel = "al_a";
  a.transpose = false;
  both.transposes.push_back(a);
  Manifest two;
  two.kernels.push_back(both);
  const KernelManifest read = parse(writeManifest(two)).kernels[0];
  EXPECT_EQ(read.transposes.size(), size_t(2));
  EXPECT_TRUE(read.transposes[0].transpose);
  EXPECT_TRUE(read.transposes[1].operand == Operand::A);
  EXPECT_TRUE(!read.transposes[1].transpose);
}

TEST(manifestRejectsBadAlignedCopies) {
  const std::string p = "manifest.json: kernels[0].aligned_copies";
  EXPECT_ERROR(
      parse(withAlignedCopies(
          R"([{"operand": "b", "kernel": "t", "tile": [16, 256], "block": [256, 1, 1]},
              {"operand": "a", "kernel": "u", "tile": [16, 256], "block": [256, 1, 1]}])")),
      ErrorKind::Input,
      p + "[1].operand: operand 'a' comes after kernels[0].aligned_copies"
          "[0]'s 'b'; A's copy is listed first");
  EXPECT_ERROR(
      parse(withAlignedCopies(
          R"([{"operand": "b", "kernel": "t", "tile": [16, 256], "block": [256, 1, 1]},
              {"operand": "b", "kernel": "u", "tile": [16, 256], "block": [256, 1, 1]}])")),
      ErrorKind::Input,
      p + "[1].operand: operand 'b' is copied twice (also "
          "kernels[0].aligned_copies[0])");
  EXPECT_ERROR(
      parse(withAlignedCopies(
          R"([{"operand": "c", "kernel": "t", "tile": [16, 256], "block": [256, 1, 1]}])")),
      ErrorKind::Input,
      p + "[0].operand: unknown operand 'c' (expected a or b: only A and B "
          "are read from aligned copies)");
  EXPECT_ERROR(
      parse(withAlignedCopies(
          R"([{"operand": "b", "kernel": "t", "tile": [16, 256], "block": [256, 2, 1]}])")),
      ErrorKind::Input,
      p + "[0].block: an aligning kernel's block is [threads, 1, 1], got "
          "[256, 2, 1]");
  // An operand in both lists.
  std::string inBoth =
      REPLACE(REPLACE(tgemm::test::transposeManifest(), R"("version": 7)",
                      R"("version": 8)"),
              std::string("\"transposes\": [") + kTransposeEntry + "]",
              std::string("\"transposes\": [") + kTransposeEntry +
                  "], \"aligned_copies\": [" + kTransposeEntry + "]");
  EXPECT_ERROR(parse(inBoth), ErrorKind::Input,
               p + "[0].operand: operand 'b' is also in transposes: a "
                   "transposed copy has its rows 16 bytes apart already");
  // Only version 8 has them.
  EXPECT_ERROR(
      parse(REPLACE(
          withAlignedCopies(
              R"([{"operand": "a", "kernel": "t", "tile": [16, 256], "block": [256, 1, 1]}])"),
          R"("version": 8)", R"("version": 7)")),
      ErrorKind::Input,
      p + ": aligned_copies need manifest version 8; this manifest is "
          "version 7");
}

TEST(manifestRejectsBadTransposes) {
  struct Bad {
    std::string list;
    const char *message;
  };
  const std::string p = "manifest.json: kernels[0].transposes";
  const Bad bad[] = {
      {R"({"operand": "b"})", ": expected an array, got an object"},
      {R"([{"operand": "c", "kernel": "t", "tile": [64, 64], "block": [256, 1, 1]}])",
       "[0].operand: unknown operand 'c' (expected a or b: only A and B are "
       "read from transposed copies)"},
      {R"([{"operand": "epilogue0", "kernel": "t", "tile": [64, 64], "block": [256, 1, 1]}])",
       "[0].operand: unknown operand 'epilogue0'"},
      {R"([{"operand": 1, "kernel": "t", "tile": [64, 64], "block": [256, 1, 1]}])",
       "[0].operand: expected a string, got 1"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64], "block": [256, 1, 1]},
           {"operand": "b", "kernel": "u", "tile": [64, 64], "block": [256, 1, 1]}])",
       "[1].operand: operand 'b' is transposed twice (also "
       "kernels[0].transposes[0])"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64], "block": [256, 1, 1]},
           {"operand": "a", "kernel": "u", "tile": [64, 64], "block": [256, 1, 1]}])",
       "[1].operand: operand 'a' comes after kernels[0].transposes[0]'s 'b'; "
       "A's transpose is listed first"},
      {R"([{"operand": "b", "kernel": "", "tile": [64, 64], "block": [256, 1, 1]}])",
       "[0].kernel: expected a non-empty name"},
      {R"([{"operand": "b", "kernel": 7, "tile": [64, 64], "block": [256, 1, 1]}])",
       "[0].kernel: expected a string, got 7"},
      {R"([{"operand": "b", "kernel": "gemm_s8_kernel", "tile": [64, 64], "block": [256, 1, 1]}])",
       "[0].kernel: 'gemm_s8_kernel' is the GEMM kernel itself; the "
       "transposing kernel is another function of its module"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64], "block": [256, 1, 1]}])",
       "[0].tile: expected an array of 2 integers, got an array of 1"},
      {R"([{"operand": "b", "kernel": "t", "tile": [0, 64], "block": [256, 1, 1]}])",
       "[0].tile[0]: expected an integer >= 1, got 0"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 6.5], "block": [256, 1, 1]}])",
       "[0].tile[1]: expected an integer, got 6.5"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64], "block": [256, 1]}])",
       "[0].block: expected an array of 3 integers, got an array of 2"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64], "block": [0, 1, 1]}])",
       "[0].block[0]: expected an integer >= 1, got 0"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64], "block": [2048, 1, 1]}])",
       "[0].block[0]: a block of more than 1024 threads cannot launch, got "
       "2048"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64], "block": [32, 8, 1]}])",
       "[0].block: a transposing kernel's block is [threads, 1, 1], got [32, "
       "8, 1]"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64], "block": [256, 1, 2]}])",
       "[0].block: a transposing kernel's block is [threads, 1, 1], got [256, "
       "1, 2]"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64]}])",
       "[0]: missing field 'block'"},
      {R"([{"kernel": "t", "tile": [64, 64], "block": [256, 1, 1]}])",
       "[0]: missing field 'operand'"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64], "block": [256, 1, 1], "threads": 256}])",
       "[0]: unknown field 'threads' (expected operand, kernel, tile, block)"},
      {R"(["b"])", "[0]: expected an object, got \"b\""},
      {R"([{"operand": "a", "kernel": "t", "tile": [64, 64], "block": [256, 1, 1]}])",
       "[0].operand: operand 'a' is stored K-major (layout row): the kernel "
       "reads it as stored, not from a copy"},
      {R"([{"operand": "b", "kernel": "t", "tile": [64, 64], "block": [384, 1, 1]}])",
       "[0].tile: a 64x64 tile is not a whole number of elements for each of "
       "the 384 threads"},
  };
  for (const Bad &b : bad)
    EXPECT_ERROR(parse(withTransposes(b.list)), ErrorKind::Input,
                 p + b.message);
  // Only version 7 has them; an older manifest with some is refused.
  for (int version : {2, 3, 4, 5, 6})
    EXPECT_ERROR(
        parse(REPLACE(tgemm::test::transposeManifest(), R"("version": 7)",
                      "\"version\": " + std::to_string(version))),
        ErrorKind::Input,
        "manifest.json: kernels[0].transposes: transposes need "
        "manifest version 7; this manifest is version " +
            std::to_string(version));
}
