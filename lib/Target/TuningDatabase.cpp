//===- TuningDatabase.cpp - Tuned tile configs per chip and shape ---------===//

#include "tgemm/Target/TuningDatabase.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace tgemm;

namespace {
/// Reads one entry; the path names the entry in messages.
llvm::Expected<TunedConfig> readEntry(const llvm::json::Object &entry,
                                      llvm::StringRef chip,
                                      const std::string &where) {
  auto fail = [&](const llvm::Twine &what) {
    return llvm::createStringError(where + ": " + what);
  };
  TunedConfig out;
  out.chip = chip.str();
  std::optional<llvm::StringRef> lowering = entry.getString("lowering");
  // A lowering's own name (not a family alias such as "mma.sync").
  std::optional<Family> family =
      lowering ? parseFamily(*lowering) : std::nullopt;
  if (!family || loweringName(*family) != *lowering)
    return fail("\"lowering\" must be one of " + knownLoweringNames());
  out.lowering = lowering->str();
  for (auto [key, kind] : {std::pair<const char *, ElemKind *>{"a", &out.a},
                           {"b", &out.b},
                           {"acc", &out.acc},
                           {"c", &out.c}}) {
    std::optional<llvm::StringRef> name = entry.getString(key);
    std::optional<ElemKind> parsed =
        name ? parseElemKind(*name) : std::nullopt;
    if (!parsed)
      return fail(llvm::Twine("\"") + key + "\" must name an element type");
    *kind = *parsed;
  }
  for (auto [key, size] : {std::pair<const char *, int64_t *>{"m", &out.m},
                           {"n", &out.n},
                           {"k", &out.k}}) {
    std::optional<int64_t> v = entry.getInteger(key);
    if (!v || *v < 1 || *v > (int64_t(1) << 40))
      return fail(llvm::Twine("\"") + key + "\" must be a positive size");
    *size = *v;
  }
  const llvm::json::Object *config = entry.getObject("config");
  if (!config)
    return fail("\"config\" is missing");
  auto ints = [&](llvm::StringRef key, llvm::MutableArrayRef<int64_t> out)
      -> llvm::Error {
    const llvm::json::Array *list = config->getArray(key);
    if (!list || list->size() != out.size())
      return fail(llvm::formatv("config \"{0}\" must list {1} integers", key,
                                out.size()));
    for (size_t i = 0; i < out.size(); ++i) {
      std::optional<int64_t> v = (*list)[i].getAsInteger();
      if (!v || *v < 1 || *v > 4096)
        return fail(llvm::formatv("config \"{0}\" must list {1} integers "
                                  "in [1, 4096]",
                                  key, out.size()));
      out[i] = *v;
    }
    return llvm::Error::success();
  };
  if (llvm::Error e = ints("block", out.config.block))
    return std::move(e);
  if (llvm::Error e = ints("warps", out.config.warps))
    return std::move(e);
  std::optional<int64_t> stages = config->getInteger("stages");
  if (!stages || *stages < 1 || *stages > 16)
    return fail("config \"stages\" must be an integer in [1, 16]");
  out.config.stages = *stages;
  out.config.raster = config->getInteger("raster").value_or(1);
  if (out.config.raster < 1 || out.config.raster > 4096)
    return fail("config \"raster\" must be an integer in [1, 4096]");
  out.config.splitK = config->getInteger("split_k").value_or(1);
  if (out.config.splitK < 1 || out.config.splitK > 256)
    return fail("config \"split_k\" must be an integer in [1, 256]");
  if (const llvm::json::Value *options = entry.get("options")) {
    const llvm::json::Object *object = options->getAsObject();
    if (!object)
      return fail("\"options\" must be an object");
    TunedConfig::ScheduleOptions &o = out.options;
    for (const auto &[key, value] : *object) {
      llvm::StringRef name = key;
      std::optional<bool> *flag =
          llvm::StringSwitch<std::optional<bool> *>(name)
              .Case("async-copy", &o.asyncCopy)
              .Case("ldmatrix", &o.ldmatrix)
              .Case("refill-after-mma", &o.refillAfterMma)
              .Case("interleave-copies", &o.interleaveCopies)
              .Case("prefetch-fragments", &o.prefetchFragments)
              .Case("warp-specialize", &o.warpSpecialize)
              .Case("tma", &o.tma)
              .Case("setmaxnreg", &o.setmaxnreg)
              .Case("persistent", &o.persistent)
              .Case("tma-store", &o.tmaStore)
              .Case("transpose-kernel", &o.transposeKernel)
              .Case("align-kernel", &o.alignKernel)
              .Default(nullptr);
      if (flag) {
        if (!value.getAsBoolean())
          return fail("option \"" + name + "\" must be true or false");
        *flag = *value.getAsBoolean();
      } else if (name == "swizzle") {
        std::optional<llvm::StringRef> text = value.getAsString();
        o.swizzle = text ? parseSwizzle(*text) : std::nullopt;
        if (!o.swizzle)
          return fail("option \"swizzle\" must be \"xor\", \"pad\" or "
                      "\"none\"");
      } else if (name == "padding") {
        std::optional<int64_t> bytes = value.getAsInteger();
        if (!bytes || *bytes < 0 || *bytes > 256 || *bytes % 16)
          return fail("option \"padding\" must be a multiple of 16 in [0, "
                      "256]");
        o.padding = *bytes;
      } else if (name == "cluster") {
        std::optional<int64_t> blocks = value.getAsInteger();
        if (!blocks || checkCluster(*blocks))
          return fail("option \"cluster\" must be an integer from 1 to " +
                      std::to_string(kMaxCluster));
        o.cluster = *blocks;
      } else {
        return fail("unknown option \"" + name +
                    "\"; known: swizzle, padding, async-copy, ldmatrix, "
                    "refill-after-mma, interleave-copies, prefetch-fragments, "
                    "warp-specialize, tma, setmaxnreg, persistent, cluster, "
                    "tma-store");
      }
    }
  }
  out.tflops = entry.getNumber("tflops").value_or(0);
  return out;
}

/// The deepest nesting of objects and lists in `text`, counted outside
/// strings; stops counting once past `limit`.
int nestingDepth(llvm::StringRef text, int limit) {
  int depth = 0, deepest = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '{' || c == '[')
      deepest = std::max(deepest, ++depth);
    else if (c == '}' || c == ']')
      --depth;
    if (deepest > limit)
      break;
  }
  return deepest;
}
} // namespace

Schedule TunedConfig::schedule(Family family) const {
  Schedule s = defaultSchedule(family, config);
  if (options.swizzle)
    s.swizzle = *options.swizzle;
  if (options.padding)
    s.padding = *options.padding;
  if (options.asyncCopy)
    s.asyncCopy = *options.asyncCopy;
  if (options.ldmatrix)
    s.ldmatrix = *options.ldmatrix;
  if (options.refillAfterMma)
    s.refillAfterMma = *options.refillAfterMma;
  if (options.interleaveCopies)
    s.interleaveCopies = *options.interleaveCopies;
  if (options.warpSpecialize)
    s.warpSpecialize = *options.warpSpecialize;
  if (options.tma)
    s.tma = *options.tma;
  if (options.setmaxnreg)
    s.setMaxRegisters = *options.setmaxnreg;
  if (options.persistent)
    s.persistent = *options.persistent;
  if (options.cluster)
    s.cluster = *options.cluster;
  if (options.tmaStore)
    s.tmaStore = *options.tmaStore;
  if (options.transposeKernel)
    s.transposeKernel = *options.transposeKernel;
  if (options.alignKernel)
    s.alignKernel = *options.alignKernel;
  if (options.prefetchFragments)
    s.prefetchFragments = *options.prefetchFragments;
  return s;
}

llvm::Error TuningDatabase::addJson(llvm::StringRef text,
                                    llvm::StringRef name) {
  if (nestingDepth(text, kMaxDatabaseDepth) > kMaxDatabaseDepth)
    return llvm::createStringError(
        name + ": nested deeper than " + llvm::Twine(kMaxDatabaseDepth) +
        " levels; a tuning database is an object of entries");
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return llvm::createStringError(name + ": " +
                                   llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return llvm::createStringError(name + ": not a JSON object");
  if (root->getInteger("version") != 1)
    return llvm::createStringError(name + ": \"version\" must be 1");
  std::optional<llvm::StringRef> chip = root->getString("chip");
  if (!chip || !lookupChip(*chip))
    return llvm::createStringError(name +
                                   ": \"chip\" must name a known chip (" +
                                   knownChipNames() + ")");
  const llvm::json::Array *list = root->getArray("entries");
  if (!list)
    return llvm::createStringError(name + ": \"entries\" must be a list");
  std::vector<TunedConfig> added;
  for (size_t i = 0; i < list->size(); ++i) {
    std::string where = (name + ": entry " + llvm::Twine(i)).str();
    const llvm::json::Object *entry = (*list)[i].getAsObject();
    if (!entry)
      return llvm::createStringError(where + ": not an object");
    llvm::Expected<TunedConfig> read = readEntry(*entry, *chip, where);
    if (!read)
      return read.takeError();
    added.push_back(std::move(*read));
  }
  entries_.insert(entries_.end(), added.begin(), added.end());
  return llvm::Error::success();
}

const TunedConfig *TuningDatabase::lookup(const TuningQuery &query) const {
  auto logSize = [](int64_t v) { return std::log2(double(v > 0 ? v : 4096)); };
  const TunedConfig *best = nullptr;
  double bestDistance = 0;
  for (const TunedConfig &e : entries_) {
    if (e.chip != query.chip || e.lowering != query.lowering ||
        e.a != query.a || e.b != query.b || e.acc != query.acc ||
        e.c != query.c)
      continue;
    double distance = std::fabs(logSize(e.m) - logSize(query.m)) +
                      std::fabs(logSize(e.n) - logSize(query.n)) +
                      std::fabs(logSize(e.k) - logSize(query.k));
    if (!best || distance < bestDistance) {
      best = &e;
      bestDistance = distance;
    }
  }
  return best;
}

// configs/*.json as {name, text} pairs, generated by CMake.
#include "BuiltinTuningDatabases.inc"

const TuningDatabase &TuningDatabase::builtin() {
  static const TuningDatabase database = [] {
    TuningDatabase db;
    for (const auto &[name, text] : kBuiltinTuningDatabases)
      if (llvm::Error e = db.addJson(text, name))
        llvm::report_fatal_error(std::move(e)); // test/Target/configs.test
    return db;
  }();
  return database;
}
