//===- Legality.h - Can this GEMM become a launchable kernel? ---*- C++ -*-===//
//
// The one place that answers "can this (problem, config, schedule, target)
// become a kernel that launches and computes the right thing?". The op
// verifier asks the chip-free part (checkProblem, checkConfig); the target
// check, config selection, every lowering and the tuner (through the Python
// extension) ask the rest (checkForTarget and the rules it is made of).
// Nothing downstream may fail on an input this module has accepted.
//
// The shared-memory plan lives here too: planSharedMemory is both what the
// check compares against the chip and what the lowerings lay out, so the
// launch's dynamic shared memory is the number that was checked.
//
// Plain C++ on top of the instruction-facts table (no MLIR): messages name
// the rule and the numbers, and the caller attaches them to a location.
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_TARGET_LEGALITY_H
#define TGEMM_TARGET_LEGALITY_H

#include "tgemm/Target/DefaultConfigs.h"
#include "tgemm/Target/InstructionFacts.h"
#include "tgemm/runtime/Epilogue.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tgemm {

/// A problem size that is only known at run time.
constexpr int64_t kDynamicSize = INT64_MIN;

/// What a `tgemm.matmul` computes, independent of how it is tiled.
struct Problem {
  ElemKind a, b, acc, c;
  bool rowA = true;  // A stored M x K (else K x M)
  bool rowB = false; // B stored K x N (else N x K)
  int64_t batch = 1, m = kDynamicSize, n = kDynamicSize, k = kDynamicSize;
  /// The leading dimension of A's and B's storage (elements between row
  /// starts) where the IR fixes it: a packed operand of static shape (its
  /// stored cols) or a static stride; kDynamicSize where the launch gives it.
  int64_t ldA = kDynamicSize, ldB = kDynamicSize;
  double alpha = 1.0, beta = 0.0;
  /// The fused epilogue's steps (runtime/Epilogue.h), in order, and the
  /// element type of each operand they read.
  std::vector<runtime::EpilogueStep> epilogue;
  std::vector<ElemKind> epilogueTypes;
};

/// How a shared-memory ring's rows are placed against bank conflicts.
enum class Swizzle {
  None, // rows back to back
  Pad,  // each row followed by `padding` bytes
  Xor,  // rows back to back; the 16-byte chunks of each 128-byte line are
        // permuted by XOR with the line (or, for rows of 128 bytes or more,
        // the row) index modulo 8
};
std::optional<Swizzle> parseSwizzle(llvm::StringRef name);
llvm::StringRef swizzleName(Swizzle swizzle);

/// What is wrong with a chip, family or swizzle name, as a message, or an
/// empty string for a valid (or, for chip and family, empty) one.
std::string chipNameError(llvm::StringRef name);
std::string familyNameError(llvm::StringRef name);
std::string swizzleNameError(llvm::StringRef name);

/// The fields of `#tgemm.schedule`: how the k-loop and the lowering order
/// and place the work of a tile config.
struct Schedule {
  bool refillAfterMma = false;
  bool interleaveCopies = false;
  bool prefetchFragments = false;
  bool asyncCopy = true;
  bool ldmatrix = true;
  Swizzle swizzle = Swizzle::Xor;
  int64_t padding = 16;
  /// wgmma: a producer warpgroup copies the tiles and the config's warps
  /// (its consumer warpgroups) multiply, ordered by mbarriers.
  bool warpSpecialize = false;
  /// wgmma, warp-specialized: the producer copies with TMA (bulk tensor
  /// copies completing on the barriers) where the runtime could describe
  /// both operands, else with cp.async.
  bool tma = false;
  /// wgmma, warp-specialized: the producer gives registers back and the
  /// consumers take them (setmaxnreg).
  bool setMaxRegisters = false;
  /// Every family: a persistent grid. The runtime launches as many blocks
  /// as can be resident and each loops over C's tiles (its first, then
  /// every grid's worth further). A warp-specialized producer runs ahead
  /// into the next tile while the consumers store the last one.
  bool persistent = false;
  /// wgmma with TMA: blocks per cluster (1 or kMaxCluster). The blocks of
  /// a cluster take C's tiles one above the other (the same B tile), and
  /// each copies its part of that B tile to every block of the cluster
  /// (TMA multicast).
  int64_t cluster = 1;
  /// wgmma with TMA: the consumers store C through shared memory with the
  /// copy engine (cp.async.bulk.tensor, a third tensor map) where the
  /// runtime made every map, else as without it.
  bool tmaStore = false;
  /// wgmma: operands it reads K-major only and that are stored MN-major
  /// are transposed by a kernel launched before the GEMM into the
  /// workspace; the GEMM reads the K-major copy (TransposePlan).
  bool transposeKernel = false;
  /// Every family: an operand whose rows the IR places less than 16 bytes
  /// apart in alignment (Problem::ldA, ldB) is first copied, as stored, by
  /// a kernel of its own into the workspace with rows 16 bytes apart, and
  /// the GEMM reads that copy (TMA, 16-byte cp.async) (TransposePlan).
  bool alignKernel = false;
};

/// The bulk store of C's tile (`tma_store`): each storing warp writes
/// boxes of 16 rows by one 128-byte line of C's elements, laid out with
/// the 128-byte swizzle, then one lane stores each box with the copy
/// engine.
constexpr int64_t kStoreBoxRows = 16;
constexpr int64_t kStoreBoxBytes = 128;
/// The box of C's tensor map for `cBits`-bit elements.
std::array<int64_t, 2> storeBox(int64_t cBits);
/// Whether a kernel of `config` can store `problem`'s C in boxes: one part
/// of K (a split kernel's parts go to the workspace), and warp tiles whose
/// rows of C are whole 128-byte lines.
bool tmaStoreFits(const Problem &problem, const TileConfig &config);

/// The largest cluster a schedule takes (blocks along M).
constexpr int64_t kMaxCluster = 2;

/// How a ring's tile is cut into `parts` for a multicast copy, each block
/// of the cluster copying one: whole panels of a paneled ring (`panels`
/// each), else bands of `rows` rows, each starting on a 1024-byte swizzle
/// atom (a multiple of 8 rows of 128 bytes). Nullopt where neither cut
/// exists.
struct MulticastSplit {
  int64_t panels = 0, rows = 0;
};
std::optional<MulticastSplit> multicastSplit(int64_t rows, int64_t rowBytes,
                                             int64_t panelBytes,
                                             int64_t parts);

/// Where a problem's operand rows lie: (rows, cols) of the stored tiles of
/// A and B for a block tile, as the tiling pass allocates them.
struct RingShapes {
  int64_t aRows, aCols, bRows, bCols;
};
RingShapes ringShapes(const Problem &p, const TileConfig &c);

/// The problem as `family`'s rings hold it: an operand whose copy
/// transposes it (OperandPath::TransposedCopy) is K-major there.
Problem ringProblem(const Problem &p, Family family);

/// How the operands `family` transposes into shared memory
/// (OperandPath::TransposedCopy) are copied under schedule `s`. With
/// `staged`, a warp-specialized producer's copy engine brings each k-tile
/// of them in as stored (MN-major) into a staging ring of kStagingSlots
/// slots, and the producer warpgroup transposes it into the K-major ring
/// (`tgemm.transpose_tile`); 8-bit operands with `tma` only. Otherwise
/// (tf32, or without TMA) their copies transpose from global memory
/// through registers (`tgemm.copy_tile ... transpose`) and the producer
/// copies with cp.async. With the schedule's `transposeKernel` they are
/// instead transposed before the GEMM by a kernel of their own
/// (`kernelA`, `kernelB`), into the launch's workspace, and the GEMM reads
/// those K-major copies: `a` and `b` are then false. With the schedule's
/// `alignKernel`, an operand read as stored whose rows do not start on 16
/// bytes (rowsMisaligned) is copied as stored by a kernel of its own
/// (`alignA`, `alignB`) into the workspace with rows on 16 bytes.
struct TransposePlan {
  bool a = false, b = false;
  bool staged = false;
  bool kernelA = false, kernelB = false;
  bool alignA = false, alignB = false;
  bool any() const { return a || b; }
  bool anyKernel() const { return kernelA || kernelB; }
  /// Whether a kernel launched before the GEMM writes a copy of A or B
  /// into the workspace (transposed or aligned).
  bool anyCopyKernel() const { return anyKernel() || alignA || alignB; }
};
/// The tile of the stored operand (rows x cols) one block of a copying
/// kernel (transposing or aligning) moves, and its threads.
struct CopyKernelShape {
  int64_t rows, cols, threads;
};
/// The transposing kernel's shape for `bits`-bit elements.
CopyKernelShape transposeKernelShape(int64_t bits);
/// Whether the rows of `p`'s A (`isA`) or B are fixed by the IR to start
/// at a multiple of fewer than 16 bytes (Problem::ldA, ldB): what neither
/// a tensor map nor a 16-byte cp.async can read.
bool rowsMisaligned(const Problem &p, bool isA);
/// The aligning kernel's tile of the stored operand and its threads, for
/// every element width: each thread copies rows x cols / threads = 16
/// elements, its loads all issued before its stores, one element each (the
/// source rows allow no wider access), lanes along a row of 256, so that a
/// warp's load or store is 32 consecutive elements (32-128 bytes).
constexpr CopyKernelShape kAlignKernelShape{16, 256, 256};
/// Whether `p`'s misaligned operands are better copied by the aligning
/// kernel (`alignKernel`) than read in place (the selection's
/// `align-kernel=auto`): where some operand's rows are misaligned and the
/// GEMM reuses each such operand across at least kTransposeKernelMinReuse
/// rows or columns of C (as prefersTransposeKernel; the copy reads and
/// writes it once more), whatever the family: in place its rows are read
/// with narrower copies, element by element at 2-byte alignment, and
/// wgmma's producer gets no tensor map.
bool prefersAlignKernel(const Problem &p, Family family);
/// The transposing kernel's registers per thread (`.maxnreg`): ptxas's own
/// choice of 32 spills (measured), it takes 38 under this bound, which
/// leaves headroom and still lets 4 blocks of 256 threads share an SM.
constexpr int64_t kTransposeKernelRegisters = 64;
/// The transposing kernel's vectors: whole tiles load 16 bytes of a source
/// row at a time (ld.global.v4) and store 4 elements of a copy row.
constexpr int64_t kTransposeKernelLoadBytes = 16;
constexpr int64_t kTransposeKernelGather = 4;
TransposePlan transposePlan(const Problem &p, Family family, const Schedule &s);
/// Whether the transposing kernel (`transposeKernel`) serves an operand of
/// `type` in `family`: every one operandPath reads other than natively
/// (MN-major 8-bit and tf32 ones; wmma's tf32 fragments load at the
/// K-major rate in either layout, so only its 8-bit ones).
bool transposeKernelServes(Family family, ElemKind type, bool kMajor);
/// `p` as the GEMM kernel computes it under `s`: the operands a transposing
/// kernel copies K-major (transposePlan's kernelA, kernelB) are the copy's,
/// row-major A or column-major B, packed.
Problem gemmProblem(const Problem &p, Family family, const Schedule &s);
/// Whether `family` takes the transposing kernel for an MN-major `type`
/// operand where the GEMM reuses the copy enough (prefersTransposeKernel):
/// wgmma, whose own path stages and transposes in the producer, and wmma,
/// whose load_matrix_sync of the other layout ran at 0.42-0.66x of K-major
/// for s8 (8192^3, H100); mma.sync for 8-bit integers and tf32, whose
/// kernel path ran at 0.92-0.99x of K-major against 0.86-0.95x for prmt and
/// per-element loads, but not for fp8, whose prmt path (1.03-1.09x) is the
/// faster (docs/results/h100-2026-12-07-layouts-every-family.csv; at 4096^3
/// the two copies of a (col, row) s8 GEMM cost more: 0.83x against 0.88x).
bool transposeKernelPreferred(Family family, ElemKind type);
/// Whether `p`'s MN-major operands are better transposed by a kernel of
/// their own (`transposeKernel`) than by the producer (the selection's
/// `transpose-kernel=auto`): true where `family` reads such an operand
/// only K-major (wgmma's 8-bit and tf32 operands) and the GEMM reuses each
/// copied
/// operand across at least kTransposeKernelMinReuse rows (M for B, N for
/// A) or a size not known until launch. The copy reads and writes B (N x K
/// elements of e bytes) once more: 2 N K e bytes at the bandwidth W,
/// against the GEMM's 2 M N K operations at the peak P, a share of about
/// e P / (W M) of its time (s8 on sm_90: 1500 TOP/s over 3 TB/s, 500 / M),
/// a few percent from M of a few thousand, where the staged path costs
/// 30-35% (bench/README.md, "MN-major operands"); likewise A with N.
bool prefersTransposeKernel(const Problem &p, Family family);
constexpr int64_t kTransposeKernelMinReuse = 1024;
constexpr int64_t kStagingSlots = 2;

/// The square tile the deterministic mode splits K as if for
/// (chooseSplitK): the family's tuned tiles at the shapes that split, 128
/// for wgmma (whose smallest tile with two consumer warpgroups is 128 x
/// 128) and 64 for the mma.sync families (whose tuned deep-K and decode
/// tiles are 64 x 64; bench/README.md, "Rows aligned to 2 bytes": with
/// 128 they lost 22-29% at 512 x 512 x 16384). The order of the sums is
/// then a function of the shape and the family: mma.sync and wgmma do not
/// promise each other's bits anyway.
int64_t deterministicSplitTile(Family family);

/// Threads of a block of `config` under `schedule`: its warps, and the
/// producer warpgroup of a warp-specialized kernel.
int64_t blockThreads(const TileConfig &config, const Schedule &schedule);

/// Threads of a warpgroup (PTX ISA, "Warpgroup"): 4 consecutive warps.
constexpr int64_t kWarpgroupThreads = 128;

/// 32-bit registers of an SM (CUDA C Programming Guide, "Technical
/// Specifications per Compute Capability": 64K for 8.x and 9.0).
constexpr int64_t kRegistersPerSM = 65536;

/// The registers per thread a launch of `threads` threads leaves each one:
/// the SM's registers shared out in steps of 8, at most 255 (ptxas compiles
/// every thread at this budget; setmaxnreg moves registers between
/// warpgroups at run time).
int64_t launchRegisterBudget(int64_t threads);

/// setmaxnreg's registers per thread (PTX ISA, "setmaxnreg": 24 to 256, a
/// multiple of 8) for the producer and for each of `consumers` consumer
/// warpgroups, so that all of them fit the SM's 65536 registers.
constexpr int64_t kProducerRegisters = 40;
int64_t consumerRegisters(int64_t consumers);

/// The schedule measured best for `family` (see docs/design.md): wmma
/// refills after the multiply and pads its rows; mma.sync refills first,
/// XOR-swizzles, and in blocks of at least `prefetchMinWarps` warps carries
/// the next stage's first fragments across the barrier; wgmma specializes
/// a producer warpgroup that copies with TMA.
Schedule defaultSchedule(Family family, const TileConfig &config,
                         int64_t prefetchMinWarps = 8);

/// `measured`, a schedule measured for other problems (a tuned entry, the
/// family's default), fitted to problem `p` under `config`: a persistent
/// grid only where K is not split and no operand is staged and transposed
/// by the producer (its registers beside the tile loop's spill); a
/// cluster only where K is not split, the producer transposes no operand
/// and B's tile splits among the cluster's blocks (multicastSplit); a TMA
/// store only where C's tile stores in whole boxes and the epilogue reads
/// no memory. Each knob in `keep` is left as `measured` has it (given by
/// the user). Where `family` would copy an MN-major operand by a kernel of
/// its own, `transposeKernel` says whether it does; where it could copy a
/// misaligned operand by a kernel of its own, `alignKernel`.
struct ScheduleKnobs {
  bool persistent = false, cluster = false, tmaStore = false;
};
enum class CopyKernelChoice {
  AsMeasured, // `measured`'s transposeKernel (alignKernel)
  Auto,       // prefersTransposeKernel (prefersAlignKernel)
  Always,
  Never,
};
Schedule
fitSchedule(const Problem &p, Family family, const TileConfig &config,
            Schedule measured, ScheduleKnobs keep = {},
            CopyKernelChoice transposeKernel = CopyKernelChoice::AsMeasured,
            CopyKernelChoice alignKernel = CopyKernelChoice::AsMeasured);

/// A chip and the instruction family that computes on it.
struct Target {
  const ChipInfo *chip;
  Family family;
};

/// One ring of the plan: rows `rowPitch` bytes apart, stages `stagePitch`.
/// A paneled ring (`panelPitch` > 0) splits each row into panels of
/// `rowPitch` bytes: panel p of every row of a stage lies in one block,
/// `panelPitch` bytes after panel p - 1's.
struct RingPlan {
  int64_t offset = 0, rows = 0, rowBytes = 0, rowPitch = 0, stagePitch = 0;
  int64_t panelPitch = 0;
  int64_t stages = 0, elementBits = 0;
  Swizzle swizzle = Swizzle::None;
  int64_t sizeBytes() const { return stages * stagePitch; }
};

/// A kernel's dynamic shared memory: the A ring, then the B ring (each 128
/// bytes aligned), then the lowering's epilogue scratch, which the mma.sync
/// lowering lays over the rings (they are dead by then).
struct SharedMemoryPlan {
  RingPlan a, b;
  /// The staging rings of staged transposed operands (TransposePlan),
  /// after B.
  std::optional<RingPlan> stagingA, stagingB;
  /// A warp-specialized kernel's mbarriers, after the rings: `full` and
  /// `empty`, one of each per stage, 8 bytes each.
  int64_t barrierOffset = 0, barrierBytes = 0;
  int64_t scratchOffset = 0, scratchBytes = 0, totalBytes = 0;
  /// A warp's slab in the scratch (EpilogueScratch::slabColumns).
  int64_t slabColumns = 0;
  /// Each warp's store boxes (EpilogueScratch::storeBuffers).
  int64_t storeBuffers = 0;
};

/// Bytes of one mbarrier object (PTX ISA, "Size and alignment of mbarrier
/// object": 8, 8-byte aligned).
constexpr int64_t kBarrierBytes = 8;

/// Alignment of every ring and of the scratch, in bytes.
constexpr int64_t kRingAlignment = 128;
/// What `family` aligns its rings (and the dynamic shared memory) to:
/// kRingAlignment, or 1024 for wgmma, whose 128-byte swizzle repeats every
/// 8 rows of 128 bytes and is computed from the address (PTX ISA, "Matrix
/// Descriptor Format").
int64_t ringAlignment(Family family);
/// The widest row `family` reads from one block of a ring: 128 bytes for
/// wgmma, whose 128-byte swizzled descriptors read 8-row groups of 128-byte
/// rows, so a wider row (a K x M tile of a column-major A, a K x N tile of a
/// row-major B) is stored as panels of 128 bytes; 0 (no limit) otherwise.
int64_t ringPanelBytes(Family family);

/// The ring of a `rows` x `cols` tile of `elementBits`-bit elements, with
/// `stages` stages, at `offset` (rounded up to `alignment`); rows wider than
/// `panelBytes` (when it is not 0) are split into panels of that width.
RingPlan planRing(int64_t offset, int64_t stages, int64_t rows, int64_t cols,
                  int64_t elementBits, Swizzle swizzle, int64_t padding,
                  int64_t alignment = kRingAlignment, int64_t panelBytes = 0);

/// The box of the tensor map that copies a `rows` x `cols` tile of
/// `elementBits`-bit elements into a ring with the 128-byte swizzle: every
/// row, and as many columns as one 128-byte line holds (the CUDA driver
/// API's cuTensorMapEncodeTiled: with a swizzle, the box's inner extent is
/// at most the swizzle's span). A wider tile is copied one panel at a time.
std::array<int64_t, 2> tensorMapBox(int64_t rows, int64_t cols,
                                    int64_t elementBits);
/// The box of B's tensor map in a cluster of `cluster` blocks: each block
/// copies its part of the tile (multicastSplit), a band of rows or whole
/// panels.
std::array<int64_t, 2> multicastBox(int64_t rows, int64_t cols,
                                    int64_t elementBits, int64_t cluster);

/// The epilogue scratch the lowering of `fact` needs for a block of
/// `warps` storing warps with a `warpTileN`-wide warp tile.
struct EpilogueScratch {
  int64_t bytes = 0;
  /// Whether it overlays the rings (dead once the last multiply is done).
  bool overRings = false;
  /// mma.sync and wgmma: the columns of a warp's slab, which it stores
  /// 16 rows by that many columns at a time.
  int64_t slabColumns = 0;
  /// With `tma_store`: the boxes of each warp (kStoreBoxRows x
  /// kStoreBoxBytes, 1024-byte aligned), two where they fit (a warp writes
  /// one while the copy engine reads the other), else one.
  int64_t storeBuffers = 0;
};
/// The epilogue's scratch for `warps` warps of `warpTileN` columns. A
/// persistent warp-specialized kernel's cannot overlay the rings (the
/// producer fills them for the next tile while the consumers store): it
/// starts at `afterRings` (past the rings and barriers, aligned) and its
/// slabs are the widest that fit the shared memory of every chip running
/// `fact` (kept to half of it where the narrowest slab leaves room for two
/// blocks on a multiprocessor). Neither can a clustered kernel's, where it
/// would reach the barriers at `barriersAt` (0: none): the other blocks of
/// the cluster may still arrive on them while this one stores. With
/// `tma_store` the scratch also holds each warp's store boxes (the kernel
/// stores through them or, where the runtime made no tensor maps, through
/// the slabs), and starts on 1024 bytes (epilogueScratchAlignment).
EpilogueScratch epilogueScratch(const MmaFact &fact, const Schedule &schedule,
                                int64_t warps, int64_t warpTileN,
                                int64_t afterRings, int64_t barriersAt = 0);
/// Where the scratch after the rings starts: kRingAlignment, or 1024 with
/// `tma_store` (the 128-byte swizzle of its boxes is computed from the
/// address).
int64_t epilogueScratchAlignment(const Schedule &schedule);

/// The whole plan for a problem's kernel under a config and schedule.
SharedMemoryPlan planSharedMemory(const Problem &problem,
                                  const TileConfig &config,
                                  const Schedule &schedule, Family family);

/// A rule that does not hold: which one, and a message with the numbers.
struct Violation {
  std::string rule;
  std::string message;
};
using Verdict = std::optional<Violation>;

/// Chip-free rules on the problem: a type combination some instruction
/// computes, a C type the epilogue can write, finite alpha and beta
/// (integers with an i32 accumulator), non-zero static sizes, static sizes
/// the grid can cover, an even K for 4-bit operands.
Verdict checkProblem(const Problem &problem);

/// Chip-free rules on a config for the problem, for every family that
/// computes the precision (so that the study's comparison is fair): warp
/// tiles and the block K in whole instructions, 16-byte rows, a register
/// budget for the warp tile, a grid that covers the static sizes, and a ring
/// that fits the largest chip that has the instruction.
Verdict checkConfig(const Problem &problem, const TileConfig &config);

/// Rules of a family on a chip: the family has an instruction for the
/// types, the chip has it, the operand layouts are ones the family serves.
Verdict checkFamily(const Problem &problem, const Target &target);

/// How a family's lowering brings one operand from its shared-memory ring
/// to the instruction, for the operand's element type and whether it is
/// stored K-major (A row-major, B column-major).
enum class OperandPath {
  /// The instruction's own path: ldmatrix (.trans for 16-bit MN-major
  /// operands), wmma's loads, wgmma's descriptors (and transpose bits).
  Native,
  /// An 8-bit MN-major operand on mma.sync: ldmatrix.trans moves byte
  /// pairs of 4 chosen k-rows, two prmt per register pair regroup them
  /// into 4 consecutive k of one m or n. The fragments then hold the
  /// operand's rows (A) or columns (B) of a 16-wide group interleaved
  /// (even ones in the first fragment, odd ones in the second), which the
  /// epilogue puts back in order.
  BytePermute,
  /// A tf32 MN-major operand on mma.sync: one 32-bit ld.shared per
  /// element (ldmatrix moves 16-bit pieces, a tf32 value is one whole
  /// register).
  ScalarLoads,
  /// An 8-bit MN-major operand on wmma: load_matrix_sync of the other
  /// layout (col_major A, row_major B fragments), at 0.41-0.66x the
  /// K-major rate at 8192^3 on the H200 (docs/results/
  /// h200-2026-12-03-layouts.csv); the transposing kernel serves it
  /// (transposeKernelServes).
  OtherLayoutFragments,
  /// An 8-bit or tf32 MN-major operand on wgmma, which reads those K-major
  /// only: the copy into shared memory transposes it (`tgemm.copy_tile
  /// ... transpose`: 16-byte loads of 4 k-rows, prmt, st.shared), so the
  /// ring holds it K-major. The producer then copies with cp.async, not
  /// TMA, which moves tiles as they are stored.
  TransposedCopy,
};
llvm::StringRef operandPathName(OperandPath path);

/// The path of an operand of element type `type` for `family`; nullopt
/// where the family cannot serve that layout (checkFamily says why).
/// `ldmatrix`: the schedule loads fragments with ldmatrix (mma.sync); an
/// 8-bit MN-major operand without it loads byte by byte (ScalarLoads).
std::optional<OperandPath> operandPath(Family family, ElemKind type,
                                       bool kMajor, bool ldmatrix = true);

/// Rules of a schedule for a family: knobs the family has, a padding that
/// is a small multiple of 16 bytes, a swizzle that can lay out the rings'
/// rows, fragments carried across the barrier only where the family can.
Verdict checkSchedule(const Problem &problem, const TileConfig &config,
                      const Schedule &schedule, Family family);

/// Row padding: a multiple of 16 bytes (vector stores stay aligned) no
/// larger than kMaxPadding.
constexpr int64_t kMaxPadding = 256;
Verdict checkPadding(int64_t padding);
/// A cluster of 1 to kMaxCluster blocks.
Verdict checkCluster(int64_t cluster);

/// The schedule's knobs on their own: a padding that is a small multiple of
/// 16 bytes, and only knobs the family has.
Verdict checkScheduleKnobs(const Schedule &schedule, Family family);

/// Whether the mma.sync lowering's `swizzle` can lay out ring rows of
/// `rowBytes` bytes.
Verdict checkRingRows(Swizzle swizzle, int64_t rowBytes);

/// Whether `swizzle` can lay out rows of `rowBytes` bytes; `Xor` needs rows
/// of 16, 32 or 64 bytes or a multiple of 128.
bool supportsSwizzle(Swizzle swizzle, int64_t rowBytes);

/// The wgmma lowering's shape rules: warpgroups of 4 warps stacked along M
/// (warps [4k, 1], 16 rows per warp), a block N one wgmma covers (a
/// multiple of 8 up to 256), and 128-byte ring rows for the swizzled
/// descriptors.
Verdict checkWarpgroups(const Problem &problem, const TileConfig &config);

/// Whether `bytes` of dynamic shared memory fit a block on `chip`.
Verdict checkSharedMemory(int64_t bytes, const ChipInfo &chip,
                          int64_t stages);

/// Everything: checkProblem, then (with a config) checkConfig,
/// checkSchedule and the shared-memory plan against the chip, and
/// checkFamily.
Verdict checkForTarget(const Problem &problem, const TileConfig *config,
                       const Schedule &schedule, const Target &target);

/// The families the pipeline tries, fastest first, when the user names
/// none, for a module of `problems`: on an arch-specific chip (sm_90a)
/// wgmma, then mma.sync; elsewhere mma.sync. Measured on the H200 at 8192^3
/// against cuBLAS/cuBLASLt (bench/README.md): wgmma 0.99-1.15x for every
/// precision it has, mma.sync 0.26-0.60x. Where every problem is a decode
/// (a static M of at most kMmaSyncFirstRows), mma.sync comes first: its
/// 16-row fragments waste less of a tile than wgmma's 64 rows, measured on
/// the H100 at 1 and 16 x 4096 x 4096 (f16, bf16, s8) 0.95-1.01x cuBLAS
/// against wgmma's 0.89-0.93x, and 0.69-0.85 of the copy's bandwidth
/// against 0.63-0.76 (bench/README.md, "Rows aligned to 2 bytes").
constexpr int64_t kMmaSyncFirstRows = 16;
llvm::SmallVector<Family, 2>
familiesBySpeed(const ChipInfo &chip, llvm::ArrayRef<Problem> problems = {});

/// Accumulator registers per thread of a warp tile for one instruction.
int64_t accumulatorRegisters(const MmaFact &fact, int64_t warpTileM,
                             int64_t warpTileN);

/// Registers a wgmma kernel's thread needs beside its accumulator
/// (descriptors, barriers, addresses, loop state), measured with ptxas 13.0.
constexpr int64_t kWgmmaRegisterHeadroom = 40;

/// The most accumulator registers a thread may hold: a thread has 255, and
/// the fragments, addresses and loop state need the rest.
constexpr int64_t kMaxAccumulatorRegisters = 192;

/// Grid limits of every chip tgemm compiles for (CUDA C Programming Guide,
/// "Technical Specifications per Compute Capability").
constexpr int64_t kMaxGridX = 2147483647, kMaxGridYZ = 65535;

} // namespace tgemm

#endif // TGEMM_TARGET_LEGALITY_H
