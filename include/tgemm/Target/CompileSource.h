//===- CompileSource.h - MLIR text to PTX, cubin and manifest ---*- C++ -*-===//
//
// One call from `tgemm.matmul` source text to what a runtime loads: parse,
// run the tgemm pipeline, and collect each kernel module's PTX (and, when
// asked, its cubin) and the launch manifest. Nothing escapes as a crash or
// on stderr: every diagnostic, formatted as tgemm-opt prints it (file, line,
// column, the source line), comes back in the result.
//
// The interface uses standard types only, so that code built with other
// compiler settings than LLVM's (the Python extension needs exceptions)
// includes no LLVM or MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TARGET_COMPILESOURCE_H
#define TGEMM_TARGET_COMPILESOURCE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tgemm {

/// The pipeline's options (mlir::tgemm::PipelineOptions, docs in
/// README.md) plus what to produce.
struct CompileOptions {
  /// wmma, ptx or wgmma; empty: the chip's fastest family that every
  /// matmul is legal for (tgemm-attach-target; sm_90a: wgmma, then ptx).
  std::string lowering = "ptx";
  std::string chip = "sm_90";
  int64_t stages = 0; // 0: keep each config's
  bool asyncCopy = true;
  bool ldmatrix = true;
  std::string swizzle = "xor";
  int64_t padding = 16;
  /// wgmma's schedule switches; unset: the selected schedule's.
  std::optional<bool> warpSpecialize, tma, setmaxnreg;
  /// A persistent grid (every family); unset: the selected schedule's.
  std::optional<bool> persistent;
  /// wgmma with TMA: blocks per cluster; unset: the selected schedule's.
  std::optional<int64_t> cluster;
  /// wgmma with TMA: store C with the copy engine; unset: the selected
  /// schedule's.
  std::optional<bool> tmaStore;
  /// wgmma: transpose MN-major 8-bit and tf32 operands with a kernel before
  /// the GEMM; unset: the selected schedule's.
  std::optional<bool> transposeKernel;
  /// Every family: copy operands whose rows the source places less than
  /// 16-byte aligned with a kernel before the GEMM; unset: the selection's.
  std::optional<bool> alignKernel;
  unsigned optLevel = 3;
  /// Also assemble a cubin per kernel module with ptxas.
  bool emitCubin = false;
  /// The ptxas to use; empty: CUDA_HOME, /usr/local/cuda, then PATH.
  std::string ptxas;
  /// The file name diagnostics give for the source.
  std::string sourceName = "<source>";
};

/// One compiled kernel module.
struct CompiledArtifact {
  std::string module; // the gpu.module's name
  std::string chip;   // sm_XX
  std::string ptx;
  std::string cubin; // bytes; empty unless CompileOptions::emitCubin
};

struct CompileResult {
  bool success = false;
  /// Every diagnostic (errors, warnings, remarks) in the order emitted.
  std::string diagnostics;
  std::vector<CompiledArtifact> modules;
  /// docs/manifest.md's JSON, for every kernel in the source.
  std::string manifestJson;
};

/// Compiles the MLIR text `source` through the tgemm pipeline. Thread-safe:
/// each call has its own MLIR context.
CompileResult compileSource(const std::string &source,
                            const CompileOptions &options);

} // namespace tgemm

#endif // TGEMM_TARGET_COMPILESOURCE_H
