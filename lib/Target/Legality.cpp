//===- Legality.cpp - Can this GEMM become a launchable kernel? -----------===//

#include "tgemm/Target/Legality.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdio>
#include <utility>

using namespace tgemm;

namespace {

Violation violation(llvm::StringRef rule, std::string message) {
  return Violation{rule.str(), std::move(message)};
}

std::string quoted(ElemKind kind) {
  return ("'" + irSpelling(kind) + "'").str();
}

std::string joinSpellings(llvm::ArrayRef<ElemKind> kinds) {
  return llvm::join(llvm::map_range(kinds, irSpelling), ", ");
}

/// "wmma", "wmma and mma.sync", "wmma, mma.sync and wgmma".
std::string joinFamilies(llvm::ArrayRef<const MmaFact *> facts) {
  std::string out;
  for (size_t i = 0; i < facts.size(); ++i) {
    if (i)
      out += i + 1 == facts.size() ? " and " : ", ";
    out += familyName(facts[i]->family).str();
  }
  return out;
}

std::string formatShortest(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", value);
  return buffer;
}

bool isStatic(int64_t size) { return size != kDynamicSize; }

} // namespace

RingShapes tgemm::ringShapes(const Problem &p, const TileConfig &c) {
  int64_t bm = c.block[0], bn = c.block[1], bk = c.block[2];
  return {p.rowA ? bm : bk, p.rowA ? bk : bm, p.rowB ? bk : bn,
          p.rowB ? bn : bk};
}

std::optional<Swizzle> tgemm::parseSwizzle(llvm::StringRef name) {
  for (Swizzle swizzle : {Swizzle::Xor, Swizzle::Pad, Swizzle::None})
    if (swizzleName(swizzle) == name)
      return swizzle;
  return std::nullopt;
}

llvm::StringRef tgemm::swizzleName(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::Xor:
    return "xor";
  case Swizzle::Pad:
    return "pad";
  case Swizzle::None:
    return "none";
  }
  llvm_unreachable("unknown swizzle");
}

std::string tgemm::chipNameError(llvm::StringRef name) {
  if (name.empty() || lookupChip(name))
    return "";
  return ("unknown chip '" + name + "'; known chips: " +
          knownChipNames())
      .str();
}

std::string tgemm::familyNameError(llvm::StringRef name) {
  if (name.empty() || parseFamily(name))
    return "";
  return ("unknown instruction family '" + name + "'; expected " +
          knownLoweringNames())
      .str();
}

std::string tgemm::swizzleNameError(llvm::StringRef name) {
  if (parseSwizzle(name))
    return "";
  return ("unknown swizzle '" + name + "'; expected xor, pad or none").str();
}

Schedule tgemm::defaultSchedule(Family family, const TileConfig &config,
                                int64_t prefetchMinWarps) {
  Schedule s;
  if (family == Family::Wmma) {
    // Measured on the H200: the late refill helps WMMA with register copies
    // and with cp.async (docs/design.md); wmma.load takes a row stride, so
    // rows are padded rather than swizzled.
    s.refillAfterMma = true;
    s.swizzle = Swizzle::Pad;
    return s;
  }
  // wgmma reads its operands from 128-byte swizzled rings and has no
  // fragments to carry. Measured on the H200 (bench/README.md): a producer
  // warpgroup copying with TMA beats every warp copying with cp.async by
  // 1.11-1.22x; setmaxnreg gains nothing while the consumers fit the
  // launch's registers.
  if (family == Family::Wgmma) {
    s.warpSpecialize = true;
    s.tma = true;
    return s;
  }
  // mma.sync: blocks of 8 or more warps (one per SM) gain from carrying the
  // next stage's first fragments across the barrier; 4-warp ones spill.
  int64_t warps = config.warps[0] * config.warps[1];
  s.prefetchFragments = prefetchMinWarps > 0 && warps >= prefetchMinWarps &&
                        config.stages > 1;
  return s;
}

int64_t tgemm::blockThreads(const TileConfig &config,
                            const Schedule &schedule) {
  int64_t threads = config.warps[0] * config.warps[1] * 32;
  return schedule.warpSpecialize ? threads + kWarpgroupThreads : threads;
}

int64_t tgemm::consumerRegisters(int64_t consumers) {
  // (consumers * r + producer) * 128 threads <= 65536, r a multiple of 8
  // up to setmaxnreg's 256.
  int64_t perWarpgroupSlot = kRegistersPerSM / kWarpgroupThreads;
  int64_t r = (perWarpgroupSlot - kProducerRegisters) / std::max<int64_t>(consumers, 1);
  return std::min<int64_t>(256, r / 8 * 8);
}

int64_t tgemm::launchRegisterBudget(int64_t threads) {
  return std::min<int64_t>(255, kRegistersPerSM / std::max<int64_t>(threads, 1) / 8 * 8);
}

int64_t tgemm::ringAlignment(Family family) {
  return family == Family::Wgmma ? 1024 : kRingAlignment;
}

int64_t tgemm::ringPanelBytes(Family family) {
  return family == Family::Wgmma ? 128 : 0;
}

std::array<int64_t, 2> tgemm::tensorMapBox(int64_t rows, int64_t cols,
                                           int64_t elementBits) {
  return {rows, std::min<int64_t>(cols, 128 * 8 / elementBits)};
}

bool tgemm::tmaStoreFits(const Problem &p, const TileConfig &c) {
  int64_t cBits = bitWidth(p.c);
  return c.splitK == 1 && cBits >= 8 && c.warps[1] > 0 &&
         (c.block[1] / c.warps[1] * cBits / 8) % kStoreBoxBytes == 0;
}

std::array<int64_t, 2> tgemm::storeBox(int64_t cBits) {
  return {kStoreBoxRows, kStoreBoxBytes * 8 / cBits};
}

std::optional<MulticastSplit> tgemm::multicastSplit(int64_t rows,
                                                    int64_t rowBytes,
                                                    int64_t panelBytes,
                                                    int64_t parts) {
  MulticastSplit split;
  if (parts <= 1)
    return MulticastSplit{0, rows};
  if (panelBytes > 0 && rowBytes > panelBytes) {
    int64_t panels = llvm::divideCeil(rowBytes, panelBytes);
    if (panels % parts)
      return std::nullopt;
    split.panels = panels / parts;
    return split;
  }
  if (rows % (parts * 8))
    return std::nullopt;
  split.rows = rows / parts;
  return split;
}

std::array<int64_t, 2> tgemm::multicastBox(int64_t rows, int64_t cols,
                                           int64_t elementBits,
                                           int64_t cluster) {
  std::array<int64_t, 2> box = tensorMapBox(rows, cols, elementBits);
  std::optional<MulticastSplit> split =
      multicastSplit(rows, cols * elementBits / 8,
                     ringPanelBytes(Family::Wgmma), cluster);
  if (split && split->rows)
    box[0] = split->rows;
  return box;
}

RingPlan tgemm::planRing(int64_t offset, int64_t stages, int64_t rows,
                         int64_t cols, int64_t elementBits, Swizzle swizzle,
                         int64_t padding, int64_t alignment,
                         int64_t panelBytes) {
  RingPlan ring;
  ring.swizzle = swizzle;
  ring.elementBits = elementBits;
  ring.rows = rows;
  ring.stages = stages;
  ring.rowBytes = cols * elementBits / 8;
  ring.rowPitch = ring.rowBytes + (swizzle == Swizzle::Pad ? padding : 0);
  ring.stagePitch = rows * ring.rowPitch;
  if (panelBytes > 0 && ring.rowBytes > panelBytes) {
    // Whole panels only: the legality module's tile rules keep a paneled
    // row a multiple of the panel.
    int64_t panels = llvm::divideCeil(ring.rowBytes, panelBytes);
    ring.rowPitch = panelBytes;
    ring.panelPitch = rows * panelBytes;
    ring.stagePitch = panels * ring.panelPitch;
  }
  ring.offset = llvm::alignTo(offset, alignment);
  return ring;
}

/// The shared memory one block may have on every chip that runs `fact`.
static int64_t sharedBytesForFact(const MmaFact &fact) {
  int64_t bytes = 0;
  for (const ChipInfo &chip : getChips()) {
    if (chip.sm < fact.minSm ||
        (needsArchSpecificChip(fact.family) && !chip.archSpecific))
      continue;
    if (bytes == 0 || chip.maxSharedBytesPerBlock < bytes)
      bytes = chip.maxSharedBytesPerBlock;
  }
  return bytes;
}

EpilogueScratch tgemm::epilogueScratch(const MmaFact &fact,
                                       const Schedule &schedule,
                                       int64_t warps, int64_t warpTileN,
                                       int64_t afterRings,
                                       int64_t barriersAt) {
  int64_t accBytes = bitWidth(fact.acc) / 8;
  EpilogueScratch scratch;
  if (fact.family == Family::Wmma) {
    // Each warp stores one accumulator fragment at a time (wmma.store) to a
    // scratch tile after the rings.
    scratch.bytes = warps * fact.shape.m * fact.shape.n * accBytes;
    return scratch;
  }
  // mma.sync and wgmma: each warp stages 16 rows of its accumulator at a
  // time, rows padded by 16 bytes, over the rings (dead by then), or,
  // where a persistent producer is refilling them, after them in slabs as
  // wide as the shared memory left allows.
  auto bytesFor = [&](int64_t columns) {
    return warps * 16 * (columns * accBytes + 16);
  };
  scratch.overRings = !(schedule.persistent && schedule.warpSpecialize);
  // A cluster's other blocks arrive on this block's barriers until their
  // own last k-tile: the slabs stay clear of them.
  int64_t boxBytes = schedule.tmaStore
                         ? warps * 2 * kStoreBoxRows * kStoreBoxBytes
                         : 0;
  if (scratch.overRings && schedule.cluster > 1 && barriersAt > 0 &&
      std::max(bytesFor(warpTileN), boxBytes) > barriersAt)
    scratch.overRings = false;
  scratch.slabColumns = warpTileN;
  if (!scratch.overRings) {
    // Slabs of whole fragments that divide the warp tile, pairs of them
    // where the warp tile has such divisors.
    int64_t n = fact.shape.n;
    llvm::SmallVector<int64_t, 8> widths;
    for (int64_t step : {2 * n, n}) {
      for (int64_t cols = warpTileN / step * step; cols > 0; cols -= step)
        if (warpTileN % cols == 0)
          widths.push_back(cols); // widest first
      if (!widths.empty())
        break;
    }
    // The widest whose scratch fits beside the rings; where the narrowest
    // leaves room for two blocks on a multiprocessor, the widest that
    // still does (a wider slab is fewer barriers per tile, not worth a
    // block). None fits: the narrowest, which the shared-memory rule
    // refuses.
    int64_t limit = sharedBytesForFact(fact);
    if (!widths.empty() && afterRings + bytesFor(widths.back()) <= limit / 2)
      limit /= 2;
    scratch.slabColumns = widths.empty() ? warpTileN : widths.back();
    for (int64_t cols : widths)
      if (afterRings + bytesFor(cols) <= limit) {
        scratch.slabColumns = cols;
        break;
      }
  }
  scratch.bytes = bytesFor(scratch.slabColumns);
  if (schedule.tmaStore) {
    // Two boxes per warp where they fit beside the rings, else one.
    int64_t box = kStoreBoxRows * kStoreBoxBytes;
    int64_t start = scratch.overRings ? 0 : afterRings;
    scratch.storeBuffers =
        start + warps * 2 * box <= sharedBytesForFact(fact) ? 2 : 1;
    scratch.bytes =
        std::max(scratch.bytes, warps * scratch.storeBuffers * box);
  }
  return scratch;
}

int64_t tgemm::epilogueScratchAlignment(const Schedule &schedule) {
  return schedule.tmaStore ? 1024 : kRingAlignment;
}

SharedMemoryPlan tgemm::planSharedMemory(const Problem &p,
                                         const TileConfig &c,
                                         const Schedule &s, Family family) {
  SharedMemoryPlan plan;
  RingShapes shapes = ringShapes(ringProblem(p, family), c);
  Swizzle swizzle = family == Family::Wmma ? Swizzle::Pad : s.swizzle;
  int64_t alignment = ringAlignment(family);
  int64_t panel = ringPanelBytes(family);
  plan.a = planRing(0, c.stages, shapes.aRows, shapes.aCols, bitWidth(p.a),
                    swizzle, s.padding, alignment, panel);
  plan.b = planRing(plan.a.offset + plan.a.sizeBytes(), c.stages, shapes.bRows,
                    shapes.bCols, bitWidth(p.b), swizzle, s.padding, alignment,
                    panel);
  int64_t ringsEnd = plan.b.offset + plan.b.sizeBytes();
  // Staging rings hold the tiles as stored: A M x K or K x M, B K x N.
  TransposePlan transposed = transposePlan(p, family, s);
  int64_t stagingBarriers = 0;
  if (transposed.staged) {
    RingShapes stored = ringShapes(p, c);
    if (transposed.a) {
      plan.stagingA = planRing(ringsEnd, kStagingSlots, stored.aRows,
                               stored.aCols, bitWidth(p.a), swizzle, s.padding,
                               alignment, panel);
      ringsEnd = plan.stagingA->offset + plan.stagingA->sizeBytes();
      stagingBarriers += 2 * kStagingSlots;
    }
    if (transposed.b) {
      plan.stagingB = planRing(ringsEnd, kStagingSlots, stored.bRows,
                               stored.bCols, bitWidth(p.b), swizzle, s.padding,
                               alignment, panel);
      ringsEnd = plan.stagingB->offset + plan.stagingB->sizeBytes();
      stagingBarriers += 2 * kStagingSlots;
    }
  }
  if (s.warpSpecialize) {
    plan.barrierOffset = llvm::alignTo(ringsEnd, kBarrierBytes);
    plan.barrierBytes = (2 * c.stages + stagingBarriers) * kBarrierBytes;
    ringsEnd = plan.barrierOffset + plan.barrierBytes;
  }
  bool overRings = false;
  if (const MmaFact *fact = lookupMma(family, p.a, p.b, p.acc)) {
    EpilogueScratch scratch =
        epilogueScratch(*fact, s, c.warps[0] * c.warps[1],
                        c.block[1] / c.warps[1],
                        llvm::alignTo(ringsEnd, epilogueScratchAlignment(s)),
                        plan.barrierOffset);
    plan.scratchBytes = scratch.bytes;
    plan.slabColumns = scratch.slabColumns;
    plan.storeBuffers = scratch.storeBuffers;
    overRings = scratch.overRings;
  }
  plan.scratchOffset =
      overRings ? 0 : llvm::alignTo(ringsEnd, epilogueScratchAlignment(s));
  plan.totalBytes = std::max(ringsEnd, plan.scratchOffset + plan.scratchBytes);
  return plan;
}

int64_t tgemm::accumulatorRegisters(const MmaFact &fact, int64_t warpTileM,
                                    int64_t warpTileN) {
  return (warpTileM / fact.shape.m) * (warpTileN / fact.shape.n) *
         fact.regsAcc;
}

bool tgemm::supportsSwizzle(Swizzle swizzle, int64_t rowBytes) {
  if (swizzle != Swizzle::Xor)
    return true;
  return rowBytes == 16 || rowBytes == 32 || rowBytes == 64 ||
         rowBytes % 128 == 0;
}

Verdict tgemm::checkProblem(const Problem &p) {
  auto facts = lookupMmaAnyFamily(p.a, p.b, p.acc);
  if (facts.empty()) {
    auto accs = legalAccumulators(p.a, p.b);
    if (accs.empty())
      return violation("types", "no tensor-core instruction multiplies A of " +
                                    quoted(p.a) + " by B of " + quoted(p.b));
    return violation("accumulator", "accumulator " + quoted(p.acc) +
                                        " is not available for " +
                                        quoted(p.a) +
                                        " operands; legal accumulators: " +
                                        joinSpellings(accs));
  }
  if (!isLegalOutput(p.acc, p.c)) {
    llvm::SmallVector<ElemKind> outs;
    for (ElemKind c :
         {ElemKind::F32, ElemKind::F16, ElemKind::BF16, ElemKind::S32})
      if (isLegalOutput(p.acc, c))
        outs.push_back(c);
    return violation("output", "C of " + quoted(p.c) +
                                   " cannot be produced from an " +
                                   quoted(p.acc) +
                                   " accumulator; legal C element types: " +
                                   joinSpellings(outs));
  }
  for (auto [name, value] :
       {std::pair<const char *, double>{"alpha", p.alpha}, {"beta", p.beta}}) {
    if (!std::isfinite(value))
      return violation("epilogue",
                       llvm::formatv("{0} ({1}) must be a finite number", name,
                                     formatShortest(value))
                           .str());
    if (p.c == ElemKind::S32 &&
        (value != std::trunc(value) || std::fabs(value) > 2147483647.0))
      return violation("epilogue",
                       llvm::formatv("{0} ({1}) must be a 32-bit integer with "
                                     "an i32 C",
                                     name, formatShortest(value))
                           .str());
  }
  if (!p.epilogue.empty() && p.c == ElemKind::S32)
    return violation("epilogue",
                     llvm::formatv("an i32 C takes no epilogue steps (got {0}): "
                                   "the steps compute in f32; write an f32, f16 "
                                   "or bf16 C to dequantize",
                                   runtime::epilogueOpName(p.epilogue[0].op))
                         .str());
  for (ElemKind type : p.epilogueTypes)
    if (type != ElemKind::F32 && type != ElemKind::F16 &&
        type != ElemKind::BF16)
      return violation("epilogue",
                       "an epilogue operand of " + quoted(type) +
                           " is not f32, f16 or bf16");
  for (auto [name, size] : {std::pair<const char *, int64_t>{"batch", p.batch},
                            {"M", p.m},
                            {"N", p.n},
                            {"K", p.k}})
    if (isStatic(size) && size <= 0)
      return violation("size", llvm::formatv("{0} is {1}: a GEMM needs every "
                                             "size to be at least 1",
                                             name, size)
                                   .str());
  if (isStatic(p.batch) && p.batch > kMaxGridYZ)
    return violation("grid", llvm::formatv("a batch of {0} needs {0} blocks in "
                                           "the grid's z dimension; a launch "
                                           "allows at most {1}",
                                           p.batch, kMaxGridYZ)
                                 .str());
  if (p.a == ElemKind::S4 && isStatic(p.k) && p.k % 2 != 0)
    return violation("packing",
                     llvm::formatv("K ({0}) must be even for 4-bit operands: "
                                   "each row of packed nibbles starts on a "
                                   "byte",
                                   p.k)
                         .str());
  return std::nullopt;
}

Verdict tgemm::checkConfig(const Problem &p, const TileConfig &c) {
  auto facts = lookupMmaAnyFamily(p.a, p.b, p.acc);
  InstrShape tile = commonTile(facts);
  std::string who = joinFamilies(facts);
  llvm::StringRef precision = irSpelling(p.a);
  int64_t bm = c.block[0], bn = c.block[1], bk = c.block[2];
  int64_t wtm = bm / c.warps[0], wtn = bn / c.warps[1];
  if (wtm % tile.m != 0)
    return violation(
        "warp-tile",
        llvm::formatv("warp tile M ({0} = block tile M {1} / {2} warps) must "
                      "be a multiple of the instruction M ({3}) of {4} for {5}",
                      wtm, bm, c.warps[0], tile.m, who, precision)
            .str());
  if (wtn % tile.n != 0)
    return violation(
        "warp-tile",
        llvm::formatv("warp tile N ({0} = block tile N {1} / {2} warps) must "
                      "be a multiple of the instruction N ({3}) of {4} for {5}",
                      wtn, bn, c.warps[1], tile.n, who, precision)
            .str());
  if (bk % tile.k != 0)
    return violation("warp-tile",
                     llvm::formatv("block tile K ({0}) must be a multiple of "
                                   "the instruction K ({1}) of {2} for {3}",
                                   bk, tile.k, who, precision)
                         .str());
  // The accumulator lives in registers; a thread has 255.
  for (const MmaFact *f : facts) {
    int64_t regs = accumulatorRegisters(*f, wtm, wtn);
    if (regs > kMaxAccumulatorRegisters)
      return violation(
          "registers",
          llvm::formatv("a {0}x{1} warp tile holds {2} accumulator registers "
                        "per thread with {3} (m{4}n{5}, {6} per instruction); "
                        "at most {7} fit beside the fragments (a thread has "
                        "255): use more warps or a smaller block tile",
                        wtm, wtn, regs, familyName(f->family), f->shape.m,
                        f->shape.n, f->regsAcc, kMaxAccumulatorRegisters)
              .str());
  }
  // Tiles are copied in 16-byte vectors: every stored row of a tile must be
  // a whole number of them. A row-major A stores rows of K, a column-major
  // one rows of M; B likewise with N.
  auto checkRowBytes = [&](const char *name, bool rowMajor, char rowDim,
                           int64_t rowSize, char colDim, int64_t colSize,
                           ElemKind kind) -> Verdict {
    char dim = rowMajor ? colDim : rowDim;
    int64_t size = rowMajor ? colSize : rowSize;
    if (size * bitWidth(kind) % 128 == 0)
      return std::nullopt;
    return violation("row-bytes",
                     llvm::formatv("a stored row of the {0} tile (block tile "
                                   "{1} = {2} x {3} bits) must be a multiple "
                                   "of 16 bytes for vectorized copies",
                                   name, dim, size, bitWidth(kind))
                         .str());
  };
  if (Verdict v = checkRowBytes("A", p.rowA, 'K', bk, 'M', bm, p.a))
    return v;
  if (Verdict v = checkRowBytes("B", p.rowB, 'K', bk, 'N', bn, p.b))
    return v;
  // The grid: x covers N, y covers M.
  if (isStatic(p.m) && llvm::divideCeil(p.m, bm) > kMaxGridYZ)
    return violation("grid",
                     llvm::formatv("M = {0} needs {1} block rows of {2}; a "
                                   "launch allows at most {3} (the grid's y "
                                   "dimension)",
                                   p.m, llvm::divideCeil(p.m, bm), bm,
                                   kMaxGridYZ)
                         .str());
  if (isStatic(p.n) && llvm::divideCeil(p.n, bn) > kMaxGridX)
    return violation("grid",
                     llvm::formatv("N = {0} needs {1} block columns of {2}; a "
                                   "launch allows at most {3}",
                                   p.n, llvm::divideCeil(p.n, bn), bn,
                                   kMaxGridX)
                         .str());
  // Split K: every part has a k-tile, and grid z holds the parts of every
  // matrix.
  int64_t granule = splitKGranule(bk);
  if (c.splitK > 1 && isStatic(p.k) &&
      static_cast<int64_t>(llvm::divideCeil(p.k, granule)) < c.splitK)
    return violation("split-k",
                     llvm::formatv("split_k = {0} needs at least {0} "
                                   "granules of {1} elements of K (parts "
                                   "start on them), but K = {2} has {3}",
                                   c.splitK, granule, p.k,
                                   llvm::divideCeil(p.k, granule))
                         .str());
  int64_t matrices = isStatic(p.batch) ? p.batch : 1;
  if (c.splitK > 1 && matrices * c.splitK > kMaxGridYZ)
    return violation("grid",
                     llvm::formatv("{0} matrices split into {1} parts need {2} "
                                   "blocks in the grid's z dimension; a launch "
                                   "allows at most {3}",
                                   matrices, c.splitK, matrices * c.splitK,
                                   kMaxGridYZ)
                         .str());
  // The unpadded stage ring must fit the largest chip that has one of these
  // instructions; the chip's own limit, with the family's padding and
  // scratch, is checked once a target is chosen.
  const ChipInfo *largest = nullptr;
  for (const ChipInfo &chip : getChips()) {
    bool hasInstr = llvm::any_of(
        facts, [&](const MmaFact *f) { return f->minSm <= chip.sm; });
    if (hasInstr && (!largest || chip.maxSharedBytesPerBlock >
                                     largest->maxSharedBytesPerBlock))
      largest = &chip;
  }
  int64_t bytes =
      c.stages * (bm * bk * bitWidth(p.a) + bk * bn * bitWidth(p.b)) / 8;
  if (largest && bytes > largest->maxSharedBytesPerBlock)
    return violation(
        "shared-memory",
        llvm::formatv("the {0}-stage pipeline needs {1} bytes of shared "
                      "memory, more than any chip allows a block (largest: "
                      "{2} bytes on {3})",
                      c.stages, bytes, largest->maxSharedBytesPerBlock,
                      largest->name)
            .str());
  return std::nullopt;
}

Verdict tgemm::checkFamily(const Problem &p, const Target &t) {
  const MmaFact *fact = lookupMma(t.family, p.a, p.b, p.acc);
  if (!fact)
    return violation("family",
                     llvm::formatv("the {0} lowering has no {1} instruction "
                                   "for {2} x {3} -> {4}",
                                   loweringName(t.family), familyName(t.family),
                                   quoted(p.a), quoted(p.b), quoted(p.acc))
                         .str());
  bool rowCol = p.rowA && !p.rowB;
  auto layouts = [&] {
    return llvm::formatv("layout({0}, {1})", p.rowA ? "row" : "col",
                         p.rowB ? "row" : "col")
        .str();
  };
  // WMMA loads its fragments itself, so a row.col-only instruction binds the
  // operands' storage.
  if (t.family == Family::Wmma && fact->rowColOnly && !rowCol)
    return violation("layout", llvm::formatv("the wmma {0} instruction takes "
                                             "only layout(row, col), got {1}",
                                             ptxName(p.a), layouts())
                                   .str());
  // mma.sync fragments are assembled by the lowering (operandPath): every
  // layout of 8, 16 and 32-bit operands, but a register of 4-bit elements
  // cannot be regrouped along k with byte permutes.
  if (t.family == Family::MmaSync && !rowCol && bitWidth(p.a) == 4)
    return violation(
        "layout",
        llvm::formatv("the ptx lowering needs layout(row, col) for {0} "
                      "operands: ldmatrix and prmt regroup whole bytes, not "
                      "4-bit elements, got {1}",
                      quoted(p.a), layouts())
            .str());
  // wgmma reads K-major operands (A row-major, B column-major) through its
  // descriptors, and MN-major ones through the transpose bits, which exist
  // for 16-bit types only (PTX ISA, "wgmma.mma_async": imm-trans-a and
  // imm-trans-b); MN-major 8-bit and tf32 operands are transposed by their
  // copy into shared memory (operandPath).
  if (fact->minSm > t.chip->sm)
    return violation("chip", llvm::formatv("{0} with {1} operands needs sm_{2} "
                                           "or newer; the target is {3}",
                                           familyName(t.family), ptxName(p.a),
                                           fact->minSm, t.chip->name)
                                 .str());
  if (needsArchSpecificChip(t.family) && !t.chip->archSpecific)
    return violation(
        "chip",
        llvm::formatv("{0} is an architecture-specific instruction: it needs "
                      "the sm_{1}a target, not {2}",
                      familyName(t.family), fact->minSm, t.chip->name)
            .str());
  return std::nullopt;
}

llvm::StringRef tgemm::operandPathName(OperandPath path) {
  switch (path) {
  case OperandPath::Native:
    return "native";
  case OperandPath::BytePermute:
    return "ldmatrix.trans of byte pairs and prmt";
  case OperandPath::ScalarLoads:
    return "one ld.shared per element";
  case OperandPath::OtherLayoutFragments:
    return "load_matrix_sync of the other layout";
  case OperandPath::TransposedCopy:
    return "a transpose on its way into shared memory";
  }
  llvm_unreachable("unknown operand path");
}

std::optional<OperandPath> tgemm::operandPath(Family family, ElemKind type,
                                              bool kMajor, bool ldmatrix) {
  int bits = bitWidth(type);
  if (kMajor || bits == 16)
    return OperandPath::Native;
  switch (family) {
  case Family::Wmma:
    // load_matrix_sync takes either layout, but for the sub-byte shapes;
    // 8-bit fragments of the other layout at a cost.
    if (bits == 4)
      return std::nullopt;
    return bits == 8 ? OperandPath::OtherLayoutFragments : OperandPath::Native;
  case Family::MmaSync:
    if (bits == 8)
      return ldmatrix ? OperandPath::BytePermute : OperandPath::ScalarLoads;
    if (bits == 32)
      return OperandPath::ScalarLoads;
    return std::nullopt;
  case Family::Wgmma:
    if (bits == 8 || bits == 32)
      return OperandPath::TransposedCopy;
    return std::nullopt;
  }
  llvm_unreachable("unknown family");
}

bool tgemm::transposeKernelServes(Family family, ElemKind type, bool kMajor) {
  // Every operand its family reads other than natively, and only those
  // (wmma's tf32 fragments of either layout load at the K-major rate).
  std::optional<OperandPath> path = operandPath(family, type, kMajor);
  return path && *path != OperandPath::Native;
}

bool tgemm::transposeKernelPreferred(Family family, ElemKind type) {
  if (family != Family::MmaSync)
    return true;
  return type != ElemKind::E4M3 && type != ElemKind::E5M2;
}

TransposePlan tgemm::transposePlan(const Problem &p, Family family,
                                   const Schedule &s) {
  TransposePlan plan;
  plan.a = operandPath(family, p.a, p.rowA, s.ldmatrix) ==
           OperandPath::TransposedCopy;
  plan.b = operandPath(family, p.b, !p.rowB, s.ldmatrix) ==
           OperandPath::TransposedCopy;
  if (s.transposeKernel) {
    plan.kernelA = transposeKernelServes(family, p.a, p.rowA);
    plan.kernelB = transposeKernelServes(family, p.b, !p.rowB);
    plan.a &= !plan.kernelA;
    plan.b &= !plan.kernelB;
  }
  // A transposed copy has its rows on 16 bytes already; one the producer
  // transposes is copied with cp.async through registers either way.
  if (s.alignKernel) {
    plan.alignA = !plan.a && !plan.kernelA && rowsMisaligned(p, true);
    plan.alignB = !plan.b && !plan.kernelB && rowsMisaligned(p, false);
  }
  plan.staged = plan.any() && s.warpSpecialize && s.tma &&
                (!plan.a || bitWidth(p.a) == 8) &&
                (!plan.b || bitWidth(p.b) == 8);
  return plan;
}

/// Whether the GEMM reuses each operand a copying kernel moves enough to pay
/// for the copy's extra read and write: A across N columns of C, B across M
/// rows (or a size not known until launch).
static bool reusesCopies(const Problem &p, bool copiesA, bool copiesB) {
  auto reused = [](int64_t rows) {
    return rows == kDynamicSize || rows >= kTransposeKernelMinReuse;
  };
  return (!copiesA || reused(p.n)) && (!copiesB || reused(p.m));
}

bool tgemm::prefersTransposeKernel(const Problem &p, Family family) {
  Schedule withKernel;
  withKernel.transposeKernel = true;
  TransposePlan plan = transposePlan(p, family, withKernel);
  return plan.anyKernel() &&
         (!plan.kernelA || transposeKernelPreferred(family, p.a)) &&
         (!plan.kernelB || transposeKernelPreferred(family, p.b)) &&
         reusesCopies(p, plan.kernelA, plan.kernelB);
}

bool tgemm::rowsMisaligned(const Problem &p, bool isA) {
  int64_t ld = isA ? p.ldA : p.ldB;
  int64_t bits = bitWidth(isA ? p.a : p.b);
  // Sub-byte operands are packed by the caller and not copied.
  return ld != kDynamicSize && bits >= 8 && (ld * bits) % 128 != 0;
}

bool tgemm::prefersAlignKernel(const Problem &p, Family family) {
  Schedule withKernel;
  withKernel.alignKernel = true;
  TransposePlan plan = transposePlan(p, family, withKernel);
  return (plan.alignA || plan.alignB) &&
         reusesCopies(p, plan.alignA, plan.alignB);
}

Schedule tgemm::fitSchedule(const Problem &p, Family family,
                            const TileConfig &config, Schedule measured,
                            ScheduleKnobs keep,
                            CopyKernelChoice transposeKernel,
                            CopyKernelChoice alignKernel) {
  Schedule s = measured;
  auto choose = [](bool &knob, CopyKernelChoice choice, bool preferred) {
    switch (choice) {
    case CopyKernelChoice::AsMeasured:
      break;
    case CopyKernelChoice::Auto:
      knob = preferred;
      break;
    case CopyKernelChoice::Always:
      knob = true;
      break;
    case CopyKernelChoice::Never:
      knob = false;
      break;
    }
  };
  Schedule withKernel = measured;
  withKernel.transposeKernel = true;
  // Elsewhere the knob is left for checkScheduleKnobs.
  if (transposePlan(p, family, withKernel).anyKernel())
    choose(s.transposeKernel, transposeKernel,
           prefersTransposeKernel(p, family));
  // Where no operand is misaligned the knob changes nothing: false.
  Schedule withAlign = s;
  withAlign.alignKernel = true;
  TransposePlan aligned = transposePlan(p, family, withAlign);
  if (aligned.alignA || aligned.alignB)
    choose(s.alignKernel, alignKernel, prefersAlignKernel(p, family));
  else if (alignKernel != CopyKernelChoice::AsMeasured)
    s.alignKernel = false;
  TransposePlan plan = transposePlan(p, family, s);
  // A persistent entry was measured with operands wgmma reads as stored;
  // where the producer stages and transposes one instead, it holds that
  // work's registers beside the tile loop's and spills: one block per
  // tile. Split K launches one block per part.
  if (!keep.persistent && s.persistent && (config.splitK > 1 || plan.staged))
    s.persistent = false;
  // A clustered entry shares B's tiles by multicast bulk copies: where K is
  // split, the producer transposes an operand, or B's tile does not split
  // among the blocks, one block per cluster.
  if (!keep.cluster && s.cluster > 1) {
    RingShapes rings = ringShapes(ringProblem(p, family), config);
    if (config.splitK > 1 || plan.any() ||
        !multicastSplit(rings.bRows, rings.bCols * bitWidth(p.b) / 8,
                        ringPanelBytes(family), s.cluster))
      s.cluster = 1;
  }
  // A bulk-storing entry stores C's tile in boxes of whole 128-byte lines;
  // where a warp's row of this C is not, or K is split, it stores as
  // without them. So it does where the epilogue reads memory (C with beta,
  // a bias, scale or residual operand): the boxes are written from the
  // accumulator while it is live, and the loads beside it spill (ptxas,
  // persistent 128 x 256 bf16: 92 to 300 bytes with bias-relu to
  // silu-residual, none through slabs), where the slabs free the
  // accumulator before they read.
  if (!keep.tmaStore && s.tmaStore &&
      (!tmaStoreFits(p, config) || p.beta != 0.0 || !p.epilogueTypes.empty()))
    s.tmaStore = false;
  return s;
}

int64_t tgemm::deterministicSplitTile(Family family) {
  return family == Family::Wgmma ? 128 : 64;
}

CopyKernelShape tgemm::transposeKernelShape(int64_t bits) {
  // 128 x 64 bytes, or 128 x 32 words: the block stages the tile in shared
  // memory as 32-bit words, a row of tile + 1 words apart, so that both
  // its row-wise writes and its column-wise reads are conflict-free; each
  // of the 256 threads loads 2 vectors of 16 bytes (bytes) or 4 (words)
  // of a whole tile at once, so that enough bytes are in flight to stream
  // at the memory's bandwidth (bench/README.md, "MN-major operands").
  if (bits == 8)
    return {128, 64, 256};
  return {128, 32, 256};
}

Problem tgemm::ringProblem(const Problem &p, Family family) {
  Problem ring = p;
  if (operandPath(family, p.a, p.rowA) == OperandPath::TransposedCopy)
    ring.rowA = true;
  if (operandPath(family, p.b, !p.rowB) == OperandPath::TransposedCopy)
    ring.rowB = false;
  return ring;
}

Verdict tgemm::checkPadding(int64_t padding) {
  if (padding >= 0 && padding % 16 == 0 && padding <= kMaxPadding)
    return std::nullopt;
  return violation("schedule",
                   llvm::formatv("padding ({0}) must be a multiple of 16 "
                                 "bytes between 0 and {1}",
                                 padding, kMaxPadding)
                       .str());
}

Verdict tgemm::checkCluster(int64_t cluster) {
  if (cluster >= 1 && cluster <= kMaxCluster)
    return std::nullopt;
  return violation("schedule",
                   llvm::formatv("cluster ({0}) must be between 1 and {1} "
                                 "blocks",
                                 cluster, kMaxCluster)
                       .str());
}

Verdict tgemm::checkScheduleKnobs(const Schedule &s, Family family) {
  if (Verdict v = checkPadding(s.padding))
    return v;
  if (Verdict v = checkCluster(s.cluster))
    return v;
  if (family == Family::Wgmma) {
    if (s.swizzle != Swizzle::Xor)
      return violation("schedule",
                       llvm::formatv("the wgmma lowering reads its rings "
                                     "through 128-byte swizzled descriptors: "
                                     "swizzle = {0} is not available; use "
                                     "swizzle = xor",
                                     swizzleName(s.swizzle))
                           .str());
    if (s.prefetchFragments)
      return violation("schedule", "wgmma reads its operands from shared "
                                   "memory: it has no fragments to carry "
                                   "across the barrier (prefetch_fragments)");
    if (!s.asyncCopy)
      return violation("schedule", "the wgmma lowering copies tiles with "
                                   "cp.async: async_copy = false is not "
                                   "available");
    if ((s.tma || s.setMaxRegisters) && !s.warpSpecialize)
      return violation(
          "schedule",
          llvm::formatv("{0} needs warp_specialize = true: the producer "
                        "warpgroup issues the copies and gives its "
                        "registers to the consumers",
                        s.tma ? "tma" : "setmaxnreg")
              .str());
    if (s.setMaxRegisters && !s.tma)
      return violation("schedule",
                       "setmaxnreg needs tma = true: a producer that copies "
                       "with cp.async needs its registers for the addresses");
    if (s.warpSpecialize && (s.refillAfterMma || s.interleaveCopies))
      return violation("schedule",
                       "a warp-specialized kernel refills each stage as soon "
                       "as its consumers release it: refill_after_mma and "
                       "interleave_copies do not apply");
    if (s.cluster > 1 && !s.tma)
      return violation("schedule",
                       llvm::formatv("cluster = {0} needs tma = true: the "
                                     "blocks of a cluster share B's tiles "
                                     "by TMA multicast",
                                     s.cluster)
                           .str());
    if (s.tmaStore && !s.tma)
      return violation("schedule",
                       "tma_store needs tma = true: the kernel stores through "
                       "a tensor map only where the runtime made its maps, "
                       "which a cp.async producer does not ask for");
    return std::nullopt;
  }
  if (s.tmaStore)
    return violation(
        "schedule",
        llvm::formatv("tma_store is a wgmma knob (bulk tensor stores on "
                      "sm_90a); the {0} lowering has none",
                      loweringName(family))
            .str());
  if (s.cluster > 1)
    return violation(
        "schedule",
        llvm::formatv("cluster = {0} is a wgmma knob (TMA multicast on "
                      "sm_90a); the {1} lowering has none",
                      s.cluster, loweringName(family))
            .str());
  if (s.warpSpecialize || s.tma || s.setMaxRegisters)
    return violation(
        "schedule",
        llvm::formatv("{0} is a wgmma knob (warpgroups, TMA, setmaxnreg on "
                      "sm_90a); the {1} lowering has none",
                      s.tma ? "tma"
                      : s.warpSpecialize ? "warp_specialize"
                                         : "setmaxnreg",
                      loweringName(family))
            .str());
  if (family != Family::Wmma)
    return std::nullopt;
  if (s.swizzle != Swizzle::Pad)
    return violation("schedule",
                     llvm::formatv("the wmma lowering pads its rings' rows "
                                   "(wmma.load takes a row stride): swizzle "
                                   "= {0} is not available; use swizzle = pad",
                                   swizzleName(s.swizzle))
                         .str());
  if (!s.ldmatrix)
    return violation("schedule", "the wmma lowering loads fragments with "
                                 "wmma.load: ldmatrix = false is a ptx "
                                 "lowering option");
  if (s.prefetchFragments)
    return violation("schedule", "the wmma lowering cannot carry fragments "
                                 "across the barrier (wmma fragments are "
                                 "opaque): prefetch_fragments needs the ptx "
                                 "lowering");
  return std::nullopt;
}

Verdict tgemm::checkRingRows(Swizzle swizzle, int64_t rowBytes) {
  if (supportsSwizzle(swizzle, rowBytes))
    return std::nullopt;
  return violation(
      "swizzle",
      llvm::formatv("swizzle=xor cannot lay out tile rows of {0} bytes (it "
                    "needs 16, 32, 64 or a multiple of 128); use swizzle=pad "
                    "or another block tile",
                    rowBytes)
          .str());
}

Verdict tgemm::checkWarpgroups(const Problem &p, const TileConfig &c) {
  int64_t bm = c.block[0], bn = c.block[1], bk = c.block[2];
  int64_t wm = c.warps[0], wn = c.warps[1];
  if (wn != 1 || wm % 4 != 0)
    return violation(
        "warpgroup",
        llvm::formatv("wgmma is issued by warpgroups of 4 warps stacked "
                      "along M: warps must be [4k, 1], got [{0}, {1}]",
                      wm, wn)
            .str());
  if (bm != 16 * wm)
    return violation(
        "warpgroup",
        llvm::formatv("each warpgroup computes 64 rows (16 per warp): block "
                      "tile M must be 16 x {0} warps = {1}, got {2}",
                      wm, 16 * wm, bm)
            .str());
  const MmaFact *fact = lookupMma(Family::Wgmma, p.a, p.b, p.acc);
  if (fact && !isWgmmaN(*fact, bn))
    return violation(
        "warpgroup",
        llvm::formatv("one wgmma covers the block tile N: {0}, got {1}",
                      fact->acc == ElemKind::S32
                          ? "8, 16, 24 or a multiple of 16 up to 256 for "
                            "8-bit integers"
                          : "a multiple of 8 up to 256",
                      bn)
            .str());
  // An MN-major 8-bit or tf32 operand is held K-major (ringProblem); its
  // transposing copy moves 16-byte pieces of stored rows, which the tile
  // rules above already require.
  Problem ring = ringProblem(p, Family::Wgmma);
  // A row-major B is stored K x N, in panels of 64 columns (one 128-byte
  // line of 16-bit elements each) that one descriptor steps over.
  if (ring.rowB && bn * bitWidth(p.b) % (8 * ringPanelBytes(Family::Wgmma)) != 0)
    return violation(
        "warpgroup",
        llvm::formatv("a row-major B is read in panels of 128 bytes: block "
                      "tile N must be a multiple of {0} for {1}, got {2}",
                      8 * ringPanelBytes(Family::Wgmma) / bitWidth(p.b),
                      irSpelling(p.b), bn)
            .str());
  // The 128-byte swizzle of the descriptors: one k-tile is one 128-byte
  // line of a K-major row, or 128 bytes' worth of rows of an MN-major
  // panel.
  int64_t rowBytes = bk * bitWidth(p.a) / 8;
  if (rowBytes != 128)
    return violation(
        "warpgroup",
        llvm::formatv("the wgmma descriptors read 128-byte swizzled rows: "
                      "block tile K must be {0} for {1} ({2} bytes), got {3}",
                      128 * 8 / bitWidth(p.a), irSpelling(p.a), rowBytes, bk)
            .str());
  return std::nullopt;
}

Verdict tgemm::checkSchedule(const Problem &p, const TileConfig &c,
                             const Schedule &s, Family family) {
  if (Verdict v = checkScheduleKnobs(s, family))
    return v;
  if (family == Family::Wgmma) {
    if (Verdict v = checkWarpgroups(p, c))
      return v;
    int64_t threads = blockThreads(c, s);
    if (threads > 1024)
      return violation(
          "warpgroup",
          llvm::formatv("{0} consumer warps and the producer warpgroup are "
                        "{1} threads; a block has at most 1024",
                        c.warps[0] * c.warps[1], threads)
              .str());
    // ptxas compiles every thread at the launch's share of the SM's
    // registers (setmaxnreg does not raise it), and wgmma holds the warp's
    // whole accumulator at once beside its descriptors and the loop's
    // state: measured, 128 + 40 fits 168 without spills, 64 + 32 spills
    // (bench/README.md), and ptxas refuses 128 in 128.
    if (const MmaFact *fact = lookupMma(Family::Wgmma, p.a, p.b, p.acc)) {
      int64_t budget = launchRegisterBudget(threads);
      int64_t wm = c.block[0] / c.warps[0], wn = c.block[1] / c.warps[1];
      int64_t acc = accumulatorRegisters(*fact, wm, wn);
      if (acc + kWgmmaRegisterHeadroom > budget)
        return violation(
            "registers",
            llvm::formatv("a {0}x{1} warp tile holds {2} accumulator "
                          "registers per thread; a block of {3} threads "
                          "leaves a thread {4} (65536 / {3}, in steps of 8), "
                          "and wgmma needs about {5} beside the "
                          "accumulator: use fewer warps or a narrower block N",
                          wm, wn, acc, threads, budget, kWgmmaRegisterHeadroom)
                .str());
    }
    if (s.tmaStore) {
      if (c.splitK > 1)
        return violation(
            "schedule",
            llvm::formatv("tma_store with split_k = {0}: a split kernel's "
                          "blocks store parts to the workspace and the last "
                          "one sums them, which the bulk store does not do; "
                          "use one of them",
                          c.splitK)
                .str());
      int64_t wn = c.block[1] / c.warps[1];
      int64_t rowBytes = wn * bitWidth(p.c) / 8;
      if (!tmaStoreFits(p, c))
        return violation(
            "schedule",
            llvm::formatv("tma_store: a warp tile's row of C is {0} columns "
                          "of '{1}' ({2} bytes), and the bulk store writes "
                          "whole {3}-byte lines; use a block N per warp "
                          "column of a multiple of {4}",
                          wn, irSpelling(p.c), rowBytes, kStoreBoxBytes,
                          kStoreBoxBytes * 8 / std::max<int64_t>(
                                                   8, bitWidth(p.c)))
                .str());
    }
    if (s.cluster > 1) {
      if (c.splitK > 1)
        return violation(
            "schedule",
            llvm::formatv("cluster = {0} with split_k = {1}: the blocks of "
                          "a cluster take tiles one above the other, and "
                          "split K's parts are not tiles; use one of them",
                          s.cluster, c.splitK)
                .str());
      if (transposePlan(p, family, s).any())
        return violation(
            "schedule",
            llvm::formatv("cluster = {0}: this kernel's producer transposes "
                          "an operand on its way into shared memory, and "
                          "only a bulk copy straight into the ring can be "
                          "multicast; use cluster = 1",
                          s.cluster)
                .str());
      // As the rings hold B (a copy of it, with transpose_kernel).
      RingShapes shapes = ringShapes(ringProblem(p, family), c);
      if (!multicastSplit(shapes.bRows, shapes.bCols * bitWidth(p.b) / 8,
                          ringPanelBytes(family), s.cluster))
        return violation(
            "schedule",
            llvm::formatv("cluster = {0}: B's {1}x{2} tile cannot be cut "
                          "into {0} bulk copies (whole 128-byte panels, or "
                          "bands of a multiple of 8 rows)",
                          s.cluster, shapes.bRows, shapes.bCols)
                .str());
    }
    return std::nullopt;
  }
  if (family != Family::MmaSync)
    return std::nullopt;
  // A byte-permuted B fills two n-fragments from each 16-byte row piece.
  if (operandPath(family, p.b, !p.rowB, s.ldmatrix) ==
          OperandPath::BytePermute &&
      (c.block[1] / c.warps[1]) % 16 != 0)
    return violation(
        "layout",
        llvm::formatv("a row-major {0} B is read 16 columns at a time (two "
                      "n-fragments from each 16-byte piece of a k-row): the "
                      "warp tile N ({1}) must be a multiple of 16",
                      quoted(p.b), c.block[1] / c.warps[1])
            .str());
  RingShapes shapes = ringShapes(p, c);
  if (Verdict v = checkRingRows(s.swizzle, shapes.aCols * bitWidth(p.a) / 8))
    return v;
  return checkRingRows(s.swizzle, shapes.bCols * bitWidth(p.b) / 8);
}

Verdict tgemm::checkSharedMemory(int64_t bytes, const ChipInfo &chip,
                                 int64_t stages) {
  if (bytes <= chip.maxSharedBytesPerBlock)
    return std::nullopt;
  return violation("shared-memory",
                   llvm::formatv("the {0}-stage pipeline needs {1} bytes of "
                                 "shared memory; {2} allows a block {3} bytes",
                                 stages, bytes, chip.name,
                                 chip.maxSharedBytesPerBlock)
                       .str());
}

Problem tgemm::gemmProblem(const Problem &p, Family family,
                           const Schedule &s) {
  TransposePlan plan = transposePlan(p, family, s);
  Problem gemm = p;
  if (plan.kernelA) {
    gemm.rowA = true;
    gemm.ldA = kDynamicSize;
  }
  if (plan.kernelB) {
    gemm.rowB = false;
    gemm.ldB = kDynamicSize;
  }
  return gemm;
}

static Verdict checkTileForTarget(const Problem &p, const TileConfig &c,
                                  const Schedule &s, const Target &t) {
  if (Verdict v = checkConfig(p, c))
    return v;
  if (Verdict v = checkSchedule(p, c, s, t.family))
    return v;
  SharedMemoryPlan plan = planSharedMemory(p, c, s, t.family);
  Verdict v = checkSharedMemory(plan.totalBytes, *t.chip, c.stages);
  int64_t staging = (plan.stagingA ? plan.stagingA->sizeBytes() : 0) +
                    (plan.stagingB ? plan.stagingB->sizeBytes() : 0);
  if (v && staging)
    v->message += llvm::formatv(
        ", {0} of them the staging rings of the MN-major operands it "
        "transposes: use fewer stages",
        staging);
  return v;
}

Verdict tgemm::checkForTarget(const Problem &p, const TileConfig *c,
                              const Schedule &s, const Target &t) {
  if (Verdict v = checkProblem(p))
    return v;
  if (Verdict v = checkFamily(p, t))
    return v;
  if (!c)
    return std::nullopt; // no tile yet: tgemm-select-config picks one
  // The tile and schedule are checked on the GEMM the kernel computes: on
  // the K-major copies of operands a transposing kernel serves.
  Problem gemm = gemmProblem(p, t.family, s);
  return checkTileForTarget(gemm, *c, s, t);
}

llvm::SmallVector<Family, 2>
tgemm::familiesBySpeed(const ChipInfo &chip, llvm::ArrayRef<Problem> problems) {
  if (!chip.archSpecific)
    return {Family::MmaSync};
  bool decode =
      !problems.empty() && llvm::all_of(problems, [](const Problem &p) {
        return p.m != kDynamicSize && p.m <= kMmaSyncFirstRows;
      });
  if (decode)
    return {Family::MmaSync, Family::Wgmma};
  return {Family::Wgmma, Family::MmaSync};
}
