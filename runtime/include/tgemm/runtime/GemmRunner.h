//===- GemmRunner.h - Run, check and time one compiled GEMM ---------------===//
//
// The whole job of tgemm-run and of the C API's run call: make the inputs,
// launch the kernel once and compare its C with the reference's, then time
// the kernel and the library anchor the same way, on the same stream.
//
// The kernel reads and writes its operands as resolveStorage lays them out
// (padded rows, an offset, a batch); the reference and the anchor read
// packed copies of the same matrices. Padding is filled with random bytes,
// and with --check C's padding must come back unchanged. A kernel with a
// fused epilogue gets its operands (bias, scale, residual) made from the
// seed too (Inputs.h); the reference applies the same steps, and the anchor
// stays the plain library GEMM. A kernel that reads an operand from a
// transposed copy (`transposes`) is launched, and timed, with its
// transposing kernels: they are part of each launch; the reference reads
// the operands as made.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_GEMMRUNNER_H
#define TGEMM_RUNTIME_GEMMRUNNER_H

#include "tgemm/runtime/Compare.h"
#include "tgemm/runtime/Device.h"
#include "tgemm/runtime/KernelArgs.h"
#include "tgemm/runtime/Manifest.h"
#include "tgemm/runtime/Problem.h"
#include "tgemm/runtime/Reference.h"
#include "tgemm/runtime/Timing.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tgemm::runtime {

/// Throws Error(Unsupported) if a kernel compiled for the manifest's chip
/// cannot run on `device`.
void checkChip(const KernelManifest &kernel, const DeviceInfo &device);

/// The grid a persistent kernel is launched with, for the listed grid
/// `dims.grid` (its tiles, x over N and y over M, and z) on a device where
/// `residentBlocks` of its blocks fit at once: x = min(tiles, max(1,
/// residentBlocks / grid z)), tiles = grid x * grid y; y = 1; z unchanged.
/// With clusters of `cluster` blocks, x is whole clusters: rounded down to a
/// multiple of `cluster`, at least one cluster (tiles is one already: grid
/// x lists `cluster` blocks per tile column).
std::array<uint32_t, 3> persistentLaunchGrid(const LaunchDims &dims,
                                             int64_t residentBlocks,
                                             int64_t cluster = 1);

/// A kernel loaded on a device, its launch limits checked, with the
/// transposing kernels of its `transposes` (functions of the same module,
/// each block of whose threads must fit). A persistent kernel
/// (KernelManifest::persistent) must fit at least one block on a
/// multiprocessor (Error(Unsupported) otherwise).
class CompiledKernel {
public:
  CompiledKernel(const Device &device, const KernelManifest &kernel,
                 const KernelBinary &binary);

  /// Launches the transposing kernels (args.transposes(), in order), then
  /// the GEMM kernel with `dims` (computeLaunch's), or for a persistent
  /// kernel with launchGrid(dims), all on `stream`. Throws Error(Device) if
  /// the driver refuses a launch, Error(Input) if `args` were made for
  /// another kernel's transposes.
  void launch(const LaunchDims &dims, KernelArgs &args, CUstream stream);
  /// The grid launch() launches for `dims`: dims.grid, or for a persistent
  /// kernel persistentLaunchGrid(dims, residentBlocks()), its x at most the
  /// block limit where one is set.
  std::array<uint32_t, 3> launchGrid(const LaunchDims &dims) const;
  const KernelManifest &manifest() const { return kernel; }
  int registersPerThread() const { return registers; }
  /// How many blocks of a persistent kernel can be resident on the device
  /// at once (blocks per multiprocessor x multiprocessors; for a clustered
  /// kernel, the clusters that fit at once x their blocks); 0 for a kernel
  /// that is not persistent.
  int64_t residentBlocks() const { return resident; }
  /// Launches a persistent kernel with at most `blocks` blocks per grid
  /// layer (its grid x), so that a small problem still gives each block
  /// several tiles (tgemm-run --persistent-blocks); a clustered kernel's
  /// limit is rounded down to whole clusters (one at least). 0: no limit.
  void setPersistentBlockLimit(int64_t blocks) { blockLimit = blocks; }

private:
  KernelManifest kernel;
  LoadedModule module;
  CUfunction function = nullptr;
  /// One per entry of the manifest's `transposes`.
  std::vector<CUfunction> transposeFunctions;
  int registers = 0;
  int64_t resident = 0;
  int64_t blockLimit = 0;
};

struct RunOptions {
  int warmup = 5;
  int reps = 50;
  bool check = false;
  /// Time the library anchor next to the kernel.
  bool timeAnchor = true;
  /// Time a device-to-device copy that moves as many bytes as the GEMM's
  /// operands hold (the shape's memory roofline, --copy).
  bool timeCopy = false;
  bool flushL2 = true;
  uint64_t seed = 1;
  /// Leading dimensions and offsets of A, B and C (--lda, --offset-a, ...).
  StorageRequests storage;
};

struct RunReport {
  std::string kernel, lowering, chip, device;
  GemmSpec gemm;
  /// The fused epilogue's steps, "scale(col),bias(col),gelu_tanh"; empty
  /// when the kernel has none.
  std::string epilogue;
  GemmShape shape;
  /// How the kernel's A, B and C lay in memory (leading dimensions,
  /// offsets).
  OperandStorages storage;

  bool kernelTimed = false;
  /// Each launch's time, its transposing kernels' (if any) included.
  TimingStats kernelTime;

  bool anchorTimed = false;
  std::string anchorName, anchorLayout, anchorNote;
  TimingStats anchorTime;

  /// Bytes of A, B and C, and of the epilogue's operands, each once: what
  /// the GEMM moves at the least.
  int64_t bytes = 0;
  /// A copy of bytes / 2 to another buffer: it reads and writes `bytes`.
  bool copyTimed = false;
  TimingStats copyTime;

  bool checked = false;
  std::string checkedAgainst;
  CompareResult comparison;

  /// "TFLOP/s", or "TOP/s" for integer GEMMs.
  const char *rateUnit() const;
  /// 2*batch*M*N*K / median time, in units of 1e12 per second (0 if not
  /// timed).
  double kernelRate() const;
  double anchorRate() const;
  /// Kernel rate / anchor rate (0 if either is missing).
  double ratio() const;
  /// `bytes` per kernel time and per copy time, in GB/s (0 if not timed).
  double kernelBandwidth() const;
  double copyBandwidth() const;
};

class GemmRunner {
public:
  /// `kernel` may be null: then only the anchor is timed (--cublas-only).
  GemmRunner(const Device &device, const KernelManifest &manifest,
             CompiledKernel *kernel);
  ~GemmRunner();

  /// Throws Error(Usage or Unsupported) for storage requests the kernel
  /// cannot take (resolveStorage), before anything is allocated.
  RunReport run(const GemmShape &shape, const RunOptions &options);

private:
  const Device &device;
  KernelManifest manifest;
  CompiledKernel *kernel;
  BlasLibraries libraries;
};

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_GEMMRUNNER_H
