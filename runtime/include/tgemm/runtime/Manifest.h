//===- Manifest.h - The launch manifest (docs/manifest.md) ----------------===//
//
// The compiler describes each kernel it emits in a JSON manifest; this is
// its one schema: the in-memory form, its writer and its reader. The
// compiler fills a KernelManifest and writes it with writeManifest; the
// runtime, the C API and the Python extension read it back with
// parseManifest. The reader validates every field and
// refuses what it does not understand (unknown version, field, element type
// or combination), with a message that names the file, the field path and
// what was expected:
//
//   manifest.json: kernels[0].grid[1]: expected {"dim","tile"} or {"value"}
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_MANIFEST_H
#define TGEMM_RUNTIME_MANIFEST_H

#include "tgemm/runtime/ElementType.h"
#include "tgemm/runtime/Epilogue.h"
#include "tgemm/runtime/Json.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tgemm::runtime {

/// The manifest version this runtime writes. Version 2 added "tensor_maps":
/// a version-1 kernel takes fewer parameters than a version-2 one may, so
/// the reader refuses version 1 instead of guessing. Version 3 added split
/// K (`config.split_k`, a grid extent's `times` and the workspace
/// parameter); a version-2 manifest has none of them and still reads.
/// Version 4 added fused epilogues (`epilogue` and its operands among
/// `args`, after C); a version-2 or 3 manifest has none and still reads.
/// Version 5 added persistent kernels (`persistent`); a version-2, 3 or 4
/// manifest has none and still reads. Version 6 added clusters (`cluster`
/// and grid x's `times`); an older manifest has none and still reads.
/// Version 7 added transposed operand copies (`transposes`, and the
/// workspace parameter of a kernel that has them); an older manifest has
/// none and still reads. Version 8 added aligned operand copies
/// (`aligned_copies`); an older manifest has none and still reads.
constexpr int kManifestVersion = 8;
/// The oldest version this runtime reads.
constexpr int kOldestManifestVersion = 2;
/// The most parts split K takes (`#tgemm.config`'s limit).
constexpr int64_t kMaxSplitK = 256;
/// The most blocks per cluster the manifest takes (the portable cluster
/// size of CUDA's launch).
constexpr int64_t kMaxClusterBlocks = 8;

/// One launch dimension: a constant, or a problem size divided by a tile.
struct GridExtent {
  bool isTiled = false;
  Dim dim = Dim::M;  // when tiled
  int64_t tile = 1;  // when tiled
  int64_t value = 1; // when constant
  /// Blocks per unit of the extent (split K's parts on grid z): the extent
  /// is `times` x ceil(dim / tile), or `times` x value.
  int64_t times = 1;
};

/// "`dim` must be a multiple of `multipleOf`".
struct Requirement {
  Dim dim = Dim::M;
  int64_t multipleOf = 1;
};

/// A kernel parameter group: a rank-R memref expands to 3 + 2R parameters.
struct KernelArg {
  std::string name;
  Operand operand = Operand::A; // which matrix `name` refers to
  /// An operand of the epilogue ("epilogue0", "epilogue1", ...: after a, b
  /// and c, in the order the steps read them), not a matrix of the GEMM:
  /// `operand` is then meaningless. Its shape follows from the step that
  /// reads it (Epilogue.h); it is always packed (`strided` false). A
  /// vector (bias, scale) has rank 1; a residual has C's rank.
  bool epilogue = false;
  ElementType type = ElementType::F16;
  /// 2: one matrix [rows, cols]; 3: a batch of them [batch, rows, cols].
  int rank = 2;
  /// Compiled from a strided view: takes any leading dimension (row stride,
  /// and batch stride when batched) and offset in its descriptor. Otherwise
  /// the rows must be packed (stride[rank-2] = cols) and the offset 0.
  bool strided = false;
};

/// How a kernel takes its tensor maps (every map of a kernel alike).
enum class MapPassing {
  /// By value ("param"): one 128-byte `__grid_constant__` parameter per
  /// map, the CUtensorMap the runtime encoded for the operand's storage,
  /// then one 32-bit parameter: 1 when the runtime made every map, 0 when
  /// it could not describe an operand (the kernel then copies every operand
  /// with cp.async, and the maps are zeros).
  Param,
  /// By address ("global"): one 64-bit parameter per map, the device
  /// address of the CUtensorMap, or 0 when that storage cannot be described
  /// (the kernel then copies with cp.async).
  Global,
};

/// "param" or "global".
const char *mapPassingName(MapPassing passing);

/// A TMA descriptor the kernel takes after its memref parameters.
struct TensorMapArg {
  Operand operand = Operand::A; // the matrix it describes (a or b; c read too)
  /// [rows, cols] of the tile of the stored matrix one copy moves, in
  /// elements.
  std::array<int64_t, 2> box = {0, 0};
  /// Shared-memory swizzle span in bytes: 0 (none), 32, 64 or 128.
  int64_t swizzle = 128;
  MapPassing passing = MapPassing::Param;
};

struct TileConfig {
  std::array<int64_t, 3> block = {0, 0, 0};
  std::array<int64_t, 2> warps = {0, 0};
  int64_t stages = 0;
  int64_t raster = 1; // block rasterization group (1: row-major)
  /// Parts K is split into: with more than 1, the kernel takes a workspace
  /// after its memrefs (workspaceBytes, in Problem.h).
  int64_t splitK = 1;
};

/// An operand the GEMM kernel reads from a copy in its workspace, which a
/// kernel of the same module writes before each launch: transposed
/// (`transposes`, version 7) or as stored with its rows 16 bytes apart
/// (`aligned_copies`, version 8).
struct OperandTranspose {
  Operand operand = Operand::B; // a or b
  /// The transposing (aligning) kernel, a function of the same module.
  std::string kernel;
  /// [rows, cols] of the stored operand one block of it copies.
  std::array<int64_t, 2> tile = {64, 64};
  /// Threads of its block (block = [threads, 1, 1]).
  int64_t threads = 256;
  /// Whether the copy is transposed (`transposes`) or as stored with its
  /// rows 16 bytes apart (`aligned_copies`, version 8).
  bool transpose = true;
};

struct KernelManifest {
  std::string name;
  std::string module;
  /// "wmma" or "ptx"; empty while the kernel is not lowered yet.
  std::string lowering;
  /// "sm_90", "sm_90a"; empty while the kernel is not compiled yet.
  std::string chip;
  int chipVersion = 0;    // 90
  bool archSpecific = false; // the "a" suffix: runs on exactly that chip
  /// M, N, K when the source memref was static; nullopt when dynamic.
  std::array<std::optional<int64_t>, 3> problem;
  /// Whether the kernel computes a batch of GEMMs (`problem.batch` present):
  /// then every argument is rank 3. `batch` is the static batch size, or
  /// nullopt when it is dynamic (or the kernel is not batched).
  bool batched = false;
  std::optional<int64_t> batch;
  GemmSpec gemm;
  TileConfig config;
  std::array<GridExtent, 3> grid;
  std::array<int64_t, 3> block = {1, 1, 1};
  int64_t dynamicSharedMemory = 0;
  std::vector<Requirement> requirements;
  std::vector<KernelArg> args;
  /// The fused epilogue's steps, in order (Epilogue.h); empty: C =
  /// alpha * acc + beta * C only.
  std::vector<EpilogueStep> epilogue;
  /// One 64-bit parameter each after the memrefs of `args`.
  std::vector<TensorMapArg> tensorMaps;
  /// A persistent kernel (version 5): its blocks loop over C's tiles.
  /// Block (x, y) starts at tile blockIdx.y * gridDim.x + blockIdx.x and
  /// strides by gridDim.x * gridDim.y over the tilesM * tilesN tiles of its
  /// matrix; grid z is as for any kernel (batch x split K's parts). It is
  /// correct under any grid. `grid` still lists the tiles (x over N, y over
  /// M); the runtime launches min(tiles, resident blocks / grid z) blocks
  /// along x, 1 along y, and grid z as listed, where tiles = grid x * grid
  /// y and resident blocks is how many blocks of the kernel fit on the
  /// device at once (CompiledKernel::residentBlocks).
  bool persistent = false;
  /// Blocks per cluster along grid x (version 6), 1 without clusters. The
  /// kernel says the same (.reqnctapercluster), and grid x lists `cluster`
  /// blocks per tile column (its `times`), grid y the bands of `cluster`
  /// tile-rows; a persistent kernel's launch grid is whole clusters.
  int64_t cluster = 1;
  /// Operands read from copies in the workspace: transposed (version 7) or
  /// aligned (`transpose` false, version 8), at most one per operand, A's
  /// first among each kind. Before each launch of the GEMM kernel, each
  /// entry's kernel copies the caller's operand, stored the other way or
  /// as stored with rows 16 bytes apart, into the workspace (transposedCopy,
  /// in Problem.h), and the GEMM kernel reads that copy instead: its
  /// descriptor and tensor map describe the copy.
  std::vector<OperandTranspose> transposes;
};

/// The entry of `kernel.transposes` for `operand`, or null when the kernel
/// reads that operand where the caller stores it.
const OperandTranspose *findTranspose(const KernelManifest &kernel,
                                      Operand operand);

/// The argument of `kernel` that passes matrix `operand` (A, B or C; not
/// an epilogue operand), or null when the manifest has none.
const KernelArg *findOperandArg(const KernelManifest &kernel, Operand operand);

/// findOperandArg, failing with ErrorKind::Input when there is none.
const KernelArg &operandArg(const KernelManifest &kernel, Operand operand);

struct Manifest {
  int version = kManifestVersion;
  std::vector<KernelManifest> kernels;
};

/// Parses and validates manifest text. `fileName` prefixes every message.
/// Throws Error(Input) (Error(Unsupported) for a type combination tgemm does
/// not compile).
Manifest parseManifest(std::string_view text, const std::string &fileName);

/// Reads and parses a manifest file. Throws Error(Input) if it is missing.
Manifest readManifestFile(const std::string &path);

/// The kernel named `name`, or the only kernel when `name` is empty. Throws
/// Error(Input) naming the kernels there are.
const KernelManifest &selectKernel(const Manifest &manifest,
                                   const std::string &name,
                                   const std::string &fileName);

/// The manifest as JSON, fields in docs/manifest.md's order. An empty
/// `lowering` or `chip` (a kernel not yet lowered or compiled) is written as
/// null, which parseManifest refuses. Never throws.
JsonValue kernelManifestToJson(const KernelManifest &kernel) noexcept;
JsonValue manifestToJson(const Manifest &manifest) noexcept;
/// writeJson(manifestToJson(manifest)) and a newline.
std::string writeManifest(const Manifest &manifest) noexcept;

/// For producers built without exceptions (the compiler): parseManifest's
/// checks, reporting the first failure in `error` ("<fileName>: <path>:
/// <message>") instead of throwing.
bool tryParseManifest(std::string_view text, const std::string &fileName,
                      Manifest &out, std::string &error) noexcept;

/// One kernel entry that is still being built: every check of
/// parseManifest, except that `lowering` and `chip` may be null. Reports
/// the first failure in `error` ("<path>: <message>").
bool readPartialKernelManifest(const JsonValue &entry, KernelManifest &out,
                               std::string &error) noexcept;

/// Reads a whole file into `contents`; false (with `error` set to the
/// reason) if it cannot be read.
bool readFile(const std::string &path, std::string &contents,
              std::string &error);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_MANIFEST_H
