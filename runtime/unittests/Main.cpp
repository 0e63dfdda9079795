//===- Main.cpp - Runs the runtime's unit tests ---------------------------===//
//
// tgemm-runtime-tests [SUBSTRING]: runs every test (or those whose name
// contains SUBSTRING), prints one line per failure and a summary, and exits
// non-zero if any test failed. Needs no GPU.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace tgemm::test {

namespace {
int failures = 0;
const char *currentTest = "";
} // namespace

std::vector<TestCase> &registry() {
  static std::vector<TestCase> tests;
  return tests;
}

void recordFailure(const char *file, int line, const std::string &message) {
  ++failures;
  std::cout << "FAIL " << currentTest << " (" << file << ":" << line
            << "): " << message << "\n";
}

std::string exampleManifest() {
  return R"({
  "version": 2,
  "kernels": [
    {
      "name": "gemm_f16_f32_kernel",
      "module": "gemm_f16_f32_module",
      "lowering": "wmma",
      "chip": "sm_90",
      "problem": {"m": 4096, "n": 4096, "k": 4096},
      "a": {"type": "f16", "layout": "row"},
      "b": {"type": "f16", "layout": "col"},
      "c": {"type": "f32", "layout": "row"},
      "acc": "f32",
      "alpha": 1.0,
      "beta": 0.0,
      "config": {"block": [128, 128, 32], "warps": [2, 2], "stages": 3},
      "grid": [{"dim": "n", "tile": 128}, {"dim": "m", "tile": 128}, {"value": 1}],
      "block": [128, 1, 1],
      "dynamic_shared_memory": 61440,
      "requires": [{"dim": "m", "multiple_of": 128},
                   {"dim": "n", "multiple_of": 128},
                   {"dim": "k", "multiple_of": 32}],
      "args": [
        {"name": "a", "kind": "memref", "type": "f16", "rank": 2},
        {"name": "b", "kind": "memref", "type": "f16", "rank": 2},
        {"name": "c", "kind": "memref", "type": "f32", "rank": 2}
      ]
    }
  ]
}
)";
}

std::string epilogueManifest() {
  std::string text = exampleManifest();
  auto replace = [&](const std::string &from, const std::string &to) {
    text = replaceOnce(text, from, to, __FILE__, __LINE__);
  };
  replace(R"("version": 2)", R"("version": 4)");
  replace(R"({"name": "c", "kind": "memref", "type": "f32", "rank": 2}
      ])",
          R"({"name": "c", "kind": "memref", "type": "f32", "rank": 2},
        {"name": "epilogue0", "kind": "memref", "type": "f32", "rank": 1},
        {"name": "epilogue1", "kind": "memref", "type": "f16", "rank": 1},
        {"name": "epilogue2", "kind": "memref", "type": "bf16", "rank": 2}
      ],
      "epilogue": [
        {"op": "scale", "broadcast": "col", "arg": "epilogue0"},
        {"op": "bias", "broadcast": "row", "arg": "epilogue1"},
        {"op": "residual", "arg": "epilogue2"},
        {"op": "gelu_tanh"}
      ])");
  return text;
}

runtime::KernelManifest dynamicEpilogueKernel() {
  std::string text = replaceOnce(epilogueManifest(),
                                 R"({"m": 4096, "n": 4096, "k": 4096})",
                                 R"({"m": null, "n": null, "k": null})",
                                 __FILE__, __LINE__);
  return runtime::parseManifest(text, "m.json").kernels[0];
}

std::string batchedManifest() {
  std::string text = exampleManifest();
  auto replace = [&](const std::string &from, const std::string &to) {
    text = replaceOnce(text, from, to, __FILE__, __LINE__);
  };
  replace(R"("problem": {"m": 4096, "n": 4096, "k": 4096})",
          R"("problem": {"m": null, "n": null, "k": null, "batch": null})");
  replace(R"({"value": 1}])", R"({"dim": "batch", "tile": 1}])");
  replace(R"("requires": [{"dim": "m", "multiple_of": 128},
                   {"dim": "n", "multiple_of": 128},
                   {"dim": "k", "multiple_of": 32}])",
          R"("requires": [])");
  for (const char *arg : {"a", "b", "c"}) {
    std::string from = std::string(R"({"name": ")") + arg +
                       R"(", "kind": "memref", "type": ")" +
                       (*arg == 'c' ? "f32" : "f16") + R"(", "rank": )";
    replace(from + "2}", from + R"(3, "strided": true})");
  }
  return text;
}

std::string transposeManifest() {
  return R"({
  "version": 7,
  "kernels": [
    {
      "name": "gemm_s8_kernel",
      "module": "gemm_s8_module",
      "lowering": "wgmma",
      "chip": "sm_90a",
      "problem": {"m": null, "n": null, "k": null},
      "a": {"type": "s8", "layout": "row"},
      "b": {"type": "s8", "layout": "row"},
      "c": {"type": "s32", "layout": "row"},
      "acc": "s32",
      "alpha": 1.0,
      "beta": 0.0,
      "config": {"block": [128, 128, 64], "warps": [2, 1], "stages": 4},
      "grid": [{"dim": "n", "tile": 128}, {"dim": "m", "tile": 128}, {"value": 1}],
      "block": [384, 1, 1],
      "dynamic_shared_memory": 131072,
      "requires": [],
      "args": [
        {"name": "a", "kind": "memref", "type": "s8", "rank": 2, "strided": true},
        {"name": "b", "kind": "memref", "type": "s8", "rank": 2, "strided": true},
        {"name": "c", "kind": "memref", "type": "s32", "rank": 2, "strided": true}
      ],
      "tensor_maps": [
        {"operand": "a", "box": [128, 64], "swizzle": 64, "passing": "param"},
        {"operand": "b", "box": [128, 64], "swizzle": 64, "passing": "param"}
      ],
      "transposes": [{"operand": "b", "kernel": "gemm_s8_kernel_transpose_b", "tile": [64, 64], "block": [256, 1, 1]}]
    }
  ]
}
)";
}

runtime::KernelManifest transposeKernel() {
  return runtime::parseManifest(transposeManifest(), "t.json").kernels[0];
}

std::string replaceOnce(const std::string &text, const std::string &from,
                        const std::string &to, const char *file, int line) {
  size_t at = text.find(from);
  if (at == std::string::npos) {
    recordFailure(file, line, "the text has no '" + from + "' to replace");
    return text;
  }
  return text.substr(0, at) + to + text.substr(at + from.size());
}

std::string writeTempFile(const std::string &name,
                          const std::string &contents) {
  static int counter = 0;
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("tgemm-runtime-tests-" +
                               std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path path =
      dir / (std::to_string(counter++) + "-" + name);
  std::ofstream(path, std::ios::binary) << contents;
  return path.string();
}

} // namespace tgemm::test

int main(int argc, char **argv) {
  using namespace tgemm::test;
  std::string filter = argc > 1 ? argv[1] : "";
  int run = 0;
  for (const TestCase &test : registry()) {
    if (std::string(test.name).find(filter) == std::string::npos)
      continue;
    currentTest = test.name;
    int before = failures;
    try {
      test.body();
    } catch (const std::exception &e) {
      recordFailure(__FILE__, __LINE__,
                    std::string("unexpected exception: ") + e.what());
    }
    ++run;
    if (failures == before)
      std::cout << "ok   " << test.name << "\n";
  }
  std::error_code ignored;
  std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                                  ("tgemm-runtime-tests-" +
                                   std::to_string(getpid())),
                              ignored);
  std::cout << run << " tests, " << failures << " failures\n";
  return failures == 0 && run > 0 ? 0 : 1;
}
