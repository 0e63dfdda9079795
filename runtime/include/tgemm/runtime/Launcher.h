//===- Launcher.h - Launch a compiled GEMM on the caller's memory ---------===//
//
// The launch API: a kernel loaded once (KernelLauncher), then launched on
// device memory the caller owns, with sizes and strides, on the caller's
// stream. It allocates nothing, times nothing and never synchronizes: a
// launch may be captured in a CUDA graph. Every argument is checked against
// the manifest before anything reaches the driver (sizes, requirements,
// grid, strides, alignment), and each mistake is an Error that names the
// argument. Launches from several threads at once are safe: a launcher has
// no mutable state, and each launch makes the device's primary context
// current on its thread.
//
// A kernel that reads an operand from a transposed copy (`transposes`) has
// its transposing kernels launched before it on the same stream, each
// writing its copy into the caller's workspace; the caller's operands are
// only read.
//
// Kernels whose manifest has `tensor_maps` get their TMA descriptors
// encoded on the host for each launch and passed by value; where an operand
// cannot be described (rows or start not 16-byte aligned), the kernel copies
// with cp.async instead, which is always correct.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_LAUNCHER_H
#define TGEMM_RUNTIME_LAUNCHER_H

#include "tgemm/runtime/Device.h"
#include "tgemm/runtime/GemmRunner.h"
#include "tgemm/runtime/KernelArgs.h"
#include "tgemm/runtime/KernelBinary.h"
#include "tgemm/runtime/Manifest.h"
#include "tgemm/runtime/Problem.h"
#include "tgemm/runtime/TensorMaps.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace tgemm::runtime {

/// One operand as the caller holds it: the device address of its first
/// element (row 0, column 0 of matrix 0 of the stored matrix: A is M x K
/// when row-major, K x M when column-major, and so on), and its strides in
/// elements.
struct OperandView {
  uint64_t data = 0;
  /// Elements from one row to the next; 0: packed rows (the row length).
  int64_t ld = 0;
  /// Elements from one matrix of a batch to the next; 0: rows x ld.
  int64_t batchStride = 0;
};

struct LaunchRequest {
  /// Problem sizes; nullopt for a size the kernel has statically (given,
  /// they must match it). `batch` only for a batched kernel.
  std::optional<int64_t> m, n, k, batch;
  /// A, B and C, indexed by Operand.
  std::array<OperandView, 3> operands;
  /// The device addresses of the epilogue's operands, one per epilogue
  /// argument of the manifest in args order (epilogue0, epilogue1, ...),
  /// each packed as epilogueOperandShape says; empty for a kernel without
  /// them.
  std::vector<uint64_t> epilogue;
  /// The workspace of a kernel that splits K (config.splitK > 1) or reads
  /// an operand from a transposed copy (`transposes`): device memory of at
  /// least workspaceBytes(kernel, shape), 256-byte aligned, zeroed before
  /// the first launch that uses it and not shared by launches that may run
  /// at the same time (each launch leaves it ready for the next). Unused by
  /// other kernels.
  uint64_t workspace = 0;
  int64_t workspaceBytes = 0;
  CUstream stream = nullptr;
};

/// A request checked against a manifest, with everything a launch needs
/// that follows from it alone.
struct ResolvedLaunch {
  GemmShape shape;
  LaunchDims dims;
  /// Each operand as its data pointer lays it out (offset 0).
  OperandStorages storages;
  OperandAddresses addresses;
};

/// Checks `request` against `kernel` without a device: the sizes (as
/// resolveShape), the requirements, the grid, and per operand a non-null
/// address aligned to its element, a leading dimension of at least the row
/// length, batch strides that keep C's matrices apart, and packed rows for
/// an argument the manifest does not mark strided; one non-null address,
/// aligned to its element, per epilogue operand; for a kernel that splits
/// K or reads a transposed copy, a 256-byte aligned workspace of at least
/// workspaceBytes. Throws Error(Usage) or Error(Unsupported) naming the
/// argument.
ResolvedLaunch resolveLaunch(const KernelManifest &kernel,
                             const LaunchRequest &request);

/// A launch ready to go: its dimensions and parameters, tensor maps
/// included. Launching it again launches the same GEMM.
struct PreparedLaunch {
  ResolvedLaunch resolved;
  /// The encoded tensor maps (reasons() says why one was not made: the
  /// kernel then copies with cp.async); a kernel compiled to take them by
  /// address keeps them in device memory owned here.
  TensorMaps maps;
  KernelArgs args;
};

/// A compiled kernel loaded on a device, for launches on caller memory.
class KernelLauncher {
public:
  /// Loads `binary`'s kernel `kernel.name` on `device` (which must outlive
  /// the launcher), checking its chip and launch limits (CompiledKernel).
  KernelLauncher(const Device &device, const KernelManifest &kernel,
                 const KernelBinary &binary);

  /// Checks `request` (resolveLaunch), checks that each operand's address
  /// is device memory the driver knows, and encodes the tensor maps.
  PreparedLaunch prepare(const LaunchRequest &request) const;
  /// Launches `prepared` on `stream`: the transposing kernels, if any, then
  /// the GEMM kernel. Throws Error(Device) if the driver refuses a launch.
  void launch(PreparedLaunch &prepared, CUstream stream) const;
  /// prepare, then launch on the request's stream.
  void launch(const LaunchRequest &request) const;

  const KernelManifest &manifest() const { return compiled->manifest(); }
  CompiledKernel &kernel() const { return *compiled; }

private:
  const Device &device;
  std::unique_ptr<CompiledKernel> compiled;
};

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_LAUNCHER_H
