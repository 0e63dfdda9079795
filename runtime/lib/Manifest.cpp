//===- Manifest.cpp - The launch manifest (docs/manifest.md) --------------===//

#include "tgemm/runtime/Manifest.h"

#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/Json.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>

namespace tgemm::runtime {

const char *mapPassingName(MapPassing passing) {
  return passing == MapPassing::Param ? "param" : "global";
}

const OperandTranspose *findTranspose(const KernelManifest &kernel,
                                      Operand operand) {
  for (const OperandTranspose &t : kernel.transposes)
    if (t.operand == operand)
      return &t;
  return nullptr;
}

const KernelArg *findOperandArg(const KernelManifest &kernel, Operand operand) {
  for (const KernelArg &arg : kernel.args)
    if (!arg.epilogue && arg.operand == operand)
      return &arg;
  return nullptr;
}

const KernelArg &operandArg(const KernelManifest &kernel, Operand operand) {
  if (const KernelArg *arg = findOperandArg(kernel, operand))
    return *arg;
  fail(ErrorKind::Input, "kernel '" + kernel.name + "' has no argument '" +
                             operandName(operand) + "'");
}

bool readFile(const std::string &path, std::string &contents,
              std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    error = "read error";
    return false;
  }
  contents = buffer.str();
  return true;
}

namespace {

/// Reports errors as "<file>: <path>: <message>".
class ManifestReader {
public:
  /// `partial`: a kernel entry still being built, whose `lowering` and
  /// `chip` may be null.
  explicit ManifestReader(std::string fileName, bool partial = false)
      : file(std::move(fileName)), partial(partial) {}

  Manifest read(const JsonValue &root);
  KernelManifest readKernel(const JsonValue &v, const std::string &path) const;

private:
  std::string file;
  bool partial;
  /// The manifest's version (read() sets it first); a partial kernel entry
  /// is read as this runtime's.
  int version = kManifestVersion;

  [[noreturn]] void fail(const std::string &path, const std::string &message,
                         ErrorKind kind = ErrorKind::Input) const {
    std::string where = file.empty() ? "" : file + ": ";
    tgemm::runtime::fail(kind,
                         where + (path.empty() ? "" : path + ": ") + message);
  }

  static std::string describe(const JsonValue &v) {
    if (v.isNumber()) {
      std::ostringstream os;
      if (v.isInteger())
        os << v.getInteger();
      else
        os << v.getNumber();
      return os.str();
    }
    if (v.isString()) {
      std::string s = v.getString();
      if (s.size() > 40)
        s = s.substr(0, 40) + "...";
      return "\"" + s + "\"";
    }
    return describeJsonKind(v.kind());
  }

  static std::string join(const std::string &path, const std::string &key) {
    return path.empty() ? key : path + "." + key;
  }
  static std::string index(const std::string &path, size_t i) {
    return path + "[" + std::to_string(i) + "]";
  }

  /// Checks that `v` is an object whose keys are all in `allowed`.
  void expectObject(const JsonValue &v, const std::string &path,
                    std::initializer_list<const char *> allowed) const {
    if (!v.isObject())
      fail(path, std::string("expected an object, got ") + describe(v));
    for (const JsonValue::Member &m : v.getObject()) {
      bool known = false;
      for (const char *key : allowed)
        known |= m.first == key;
      if (!known) {
        std::string list;
        for (const char *key : allowed)
          list += std::string(list.empty() ? "" : ", ") + key;
        fail(path, "unknown field '" + m.first + "' (expected " + list + ")");
      }
    }
  }

  const JsonValue &field(const JsonValue &object, const std::string &path,
                         const char *key) const {
    const JsonValue *v = object.find(key);
    if (!v)
      fail(path, std::string("missing field '") + key + "'");
    return *v;
  }

  std::string readString(const JsonValue &v, const std::string &path) const {
    if (!v.isString())
      fail(path, "expected a string, got " + describe(v));
    return v.getString();
  }

  std::string readName(const JsonValue &v, const std::string &path) const {
    std::string s = readString(v, path);
    if (s.empty())
      fail(path, "expected a non-empty name");
    for (char c : s)
      if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
        fail(path, "invalid name " + describe(v) +
                       ": contains whitespace or control characters");
    return s;
  }

  int64_t readInteger(const JsonValue &v, const std::string &path,
                      int64_t min) const {
    if (!v.isInteger())
      fail(path, "expected an integer, got " + describe(v));
    if (v.getInteger() < min)
      fail(path, "expected an integer >= " + std::to_string(min) + ", got " +
                     describe(v));
    return v.getInteger();
  }

  template <size_t N>
  std::array<int64_t, N> readIntegers(const JsonValue &v,
                                      const std::string &path,
                                      int64_t min) const {
    if (!v.isArray() || v.getArray().size() != N)
      fail(path, "expected an array of " + std::to_string(N) +
                     " integers, got " +
                     (v.isArray() ? "an array of " +
                                        std::to_string(v.getArray().size())
                                  : describe(v)));
    std::array<int64_t, N> out;
    for (size_t i = 0; i < N; ++i)
      out[i] = readInteger(v.getArray()[i], index(path, i), min);
    return out;
  }

  double readNumber(const JsonValue &v, const std::string &path) const {
    if (!v.isNumber())
      fail(path, "expected a number, got " + describe(v));
    return v.getNumber();
  }

  ElementType readType(const JsonValue &v, const std::string &path) const {
    std::string name = readString(v, path);
    std::optional<ElementType> type = parseElementType(name);
    if (!type)
      fail(path, "unknown element type '" + name + "' (expected one of " +
                     allElementTypeNames() + ")");
    return *type;
  }

  /// A dimension name of `grid` or `requires`; "batch" only in a batched
  /// kernel.
  Dim readDim(const JsonValue &v, const std::string &path,
              bool batched) const {
    std::string name = readString(v, path);
    std::optional<Dim> dim = parseDim(name);
    if (!dim)
      fail(path, "unknown dimension '" + name +
                     "' (expected m, n or k, or batch in a batched kernel)");
    if (*dim == Dim::Batch && !batched)
      fail(path, "dimension 'batch' in a kernel that is not batched (its "
                 "problem has no \"batch\")");
    return *dim;
  }

  OperandSpec readOperand(const JsonValue &v, const std::string &path) const {
    expectObject(v, path, {"type", "layout"});
    OperandSpec spec;
    spec.type = readType(field(v, path, "type"), join(path, "type"));
    std::string layoutPath = join(path, "layout");
    std::string layout = readString(field(v, path, "layout"), layoutPath);
    std::optional<Layout> parsed = parseLayout(layout);
    if (!parsed)
      fail(layoutPath, "unknown layout '" + layout + "' (expected row or col)");
    spec.layout = *parsed;
    return spec;
  }

  void readChip(const JsonValue &v, const std::string &path,
                KernelManifest &k) const {
    if (partial && v.isNull())
      return;
    k.chip = readString(v, path);
    const std::string &s = k.chip;
    size_t digits = 0;
    while (3 + digits < s.size() && std::isdigit((unsigned char)s[3 + digits]))
      ++digits;
    size_t end = 3 + digits;
    bool ok = s.compare(0, 3, "sm_") == 0 && digits >= 2 && digits <= 3 &&
              (end == s.size() || (end + 1 == s.size() && s[end] == 'a'));
    if (!ok)
      fail(path, "invalid chip '" + s + "' (expected sm_XX, e.g. sm_90)");
    k.chipVersion = std::stoi(s.substr(3, digits));
    k.archSpecific = end != s.size();
  }

  void readProblem(const JsonValue &v, const std::string &path,
                   KernelManifest &k) const {
    expectObject(v, path, {"m", "n", "k", "batch"});
    auto readSize = [&](const JsonValue &size, const char *name) {
      if (size.isNull())
        return std::optional<int64_t>();
      if (size.isInteger() && size.getInteger() >= 1)
        return std::optional<int64_t>(size.getInteger());
      fail(join(path, name),
           "expected a positive integer or null, got " + describe(size));
    };
    const char *names[3] = {"m", "n", "k"};
    for (int i = 0; i < 3; ++i)
      k.problem[i] = readSize(field(v, path, names[i]), names[i]);
    // Optional: present (an integer, or null when dynamic) only in a batched
    // kernel.
    if (const JsonValue *batch = v.find("batch")) {
      k.batched = true;
      k.batch = readSize(*batch, "batch");
    }
  }

  void readConfig(const JsonValue &v, const std::string &path,
                  KernelManifest &k) const {
    expectObject(v, path, {"block", "warps", "stages", "raster", "split_k"});
    k.config.block =
        readIntegers<3>(field(v, path, "block"), join(path, "block"), 1);
    k.config.warps =
        readIntegers<2>(field(v, path, "warps"), join(path, "warps"), 1);
    k.config.stages =
        readInteger(field(v, path, "stages"), join(path, "stages"), 1);
    // Optional: manifests from before block rasterization lack it.
    if (const JsonValue *raster = v.find("raster"))
      k.config.raster = readInteger(*raster, join(path, "raster"), 1);
    // Optional (version 3): 1 when absent.
    if (const JsonValue *split = v.find("split_k")) {
      k.config.splitK = readInteger(*split, join(path, "split_k"), 1);
      if (k.config.splitK > kMaxSplitK)
        fail(join(path, "split_k"),
             "at most " + std::to_string(kMaxSplitK) + " parts, got " +
                 std::to_string(k.config.splitK));
    }
  }

  GridExtent readGridExtent(const JsonValue &v, const std::string &path,
                            bool batched) const {
    const char *shape = "expected {\"dim\",\"tile\"} or {\"value\"}, "
                        "optionally with \"times\"";
    if (!v.isObject())
      fail(path, shape);
    const auto &members = v.getObject();
    GridExtent extent;
    size_t count = members.size();
    if (const JsonValue *times = v.find("times")) {
      extent.times = readInteger(*times, join(path, "times"), 1);
      if (extent.times > kMaxSplitK)
        fail(join(path, "times"), "at most " + std::to_string(kMaxSplitK) +
                                      ", got " + std::to_string(extent.times));
      --count;
    }
    if (count == 1 && v.find("value")) {
      extent.value = readInteger(*v.find("value"), join(path, "value"), 1);
      return extent;
    }
    if (count == 2 && v.find("dim") && v.find("tile")) {
      extent.isTiled = true;
      extent.dim = readDim(*v.find("dim"), join(path, "dim"), batched);
      extent.tile = readInteger(*v.find("tile"), join(path, "tile"), 1);
      return extent;
    }
    fail(path, shape);
  }

  void readGrid(const JsonValue &v, const std::string &path,
                KernelManifest &k) const {
    if (!v.isArray() || v.getArray().size() != 3)
      fail(path, "expected an array of 3 entries (x, y, z), got " +
                     (v.isArray() ? "an array of " +
                                        std::to_string(v.getArray().size())
                                  : describe(v)));
    for (size_t i = 0; i < 3; ++i)
      k.grid[i] = readGridExtent(v.getArray()[i], index(path, i), k.batched);
  }

  void readRequirements(const JsonValue &v, const std::string &path,
                        KernelManifest &k) const {
    if (!v.isArray())
      fail(path, "expected an array, got " + describe(v));
    for (size_t i = 0; i < v.getArray().size(); ++i) {
      const JsonValue &entry = v.getArray()[i];
      std::string p = index(path, i);
      expectObject(entry, p, {"dim", "multiple_of"});
      Requirement r;
      r.dim = readDim(field(entry, p, "dim"), join(p, "dim"), k.batched);
      r.multipleOf =
          readInteger(field(entry, p, "multiple_of"), join(p, "multiple_of"),
                      1);
      k.requirements.push_back(r);
    }
  }

  /// Whether a memref of element type `argType` can hold operand `spec`.
  static bool argTypeMatches(ElementType argType, ElementType operandType) {
    if (argType == operandType)
      return true;
    // TF32 operands are stored as f32 memrefs.
    auto isF32Storage = [](ElementType t) {
      return t == ElementType::F32 || t == ElementType::TF32;
    };
    return isF32Storage(argType) && isF32Storage(operandType);
  }

  /// Whether `name` is an epilogue operand's ("epilogue" and a number).
  static bool isEpilogueArgName(const std::string &name) {
    const std::string prefix = "epilogue";
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix))
      return false;
    for (size_t i = prefix.size(); i < name.size(); ++i)
      if (!std::isdigit(static_cast<unsigned char>(name[i])))
        return false;
    return true;
  }

  /// The names of the epilogue arguments read so far, for messages:
  /// "epilogue0, epilogue1", or "none".
  static std::string epilogueArgNames(const KernelManifest &k) {
    std::string names;
    for (const KernelArg &arg : k.args)
      if (arg.epilogue)
        names += (names.empty() ? "" : ", ") + arg.name;
    return names.empty() ? "none" : names;
  }

  /// An epilogue operand's entry: after a, b and c, named epilogue0,
  /// epilogue1, ... in order, of a type the steps compute with, packed. Its
  /// rank (1 or C's) is checked against the step that reads it, in
  /// readEpilogue.
  void readEpilogueArg(const std::string &p, KernelArg &arg, const bool seen[3],
                       const KernelManifest &k) const {
    for (int slot = 0; slot < 3; ++slot)
      if (!seen[slot])
        fail(join(p, "name"),
             "epilogue argument '" + arg.name + "' comes before argument '" +
                 operandName(static_cast<Operand>(slot)) +
                 "'; the epilogue's operands follow a, b and c");
    size_t ordinal = 0;
    for (const KernelArg &other : k.args)
      ordinal += other.epilogue;
    std::string expected = "epilogue" + std::to_string(ordinal);
    if (arg.name != expected)
      fail(join(p, "name"), "epilogue argument '" + arg.name +
                                "' is out of order: the epilogue's operands "
                                "are numbered from 0 in args order, so this "
                                "one is '" +
                                expected + "'");
    arg.epilogue = true;
    arg.operand = Operand::C; // meaningless for an epilogue operand
    if (!isEpilogueOperandType(arg.type))
      fail(join(p, "type"), std::string("epilogue argument '") + arg.name +
                                "' has type " + elementTypeName(arg.type) +
                                "; an epilogue operand is f32, f16 or bf16");
    if (arg.rank < 1 || arg.rank > 3)
      fail(join(p, "rank"),
           "a rank-" + std::to_string(arg.rank) +
               " epilogue operand is not supported; a bias or scale vector "
               "is rank 1, a residual has C's rank (2, or 3 when batched)");
    if (arg.strided)
      fail(join(p, "strided"), "epilogue argument '" + arg.name +
                                   "' is strided; an epilogue operand is "
                                   "always packed");
  }

  void readArgs(const JsonValue &v, const std::string &path,
                KernelManifest &k) const {
    if (!v.isArray())
      fail(path, "expected an array, got " + describe(v));
    bool seen[3] = {false, false, false};
    for (size_t i = 0; i < v.getArray().size(); ++i) {
      const JsonValue &entry = v.getArray()[i];
      std::string p = index(path, i);
      expectObject(entry, p, {"name", "kind", "type", "rank", "strided"});
      KernelArg arg;
      arg.name = readString(field(entry, p, "name"), join(p, "name"));
      std::string kind = readString(field(entry, p, "kind"), join(p, "kind"));
      if (kind != "memref")
        fail(join(p, "kind"),
             "unsupported argument kind '" + kind + "' (expected memref)");
      arg.type = readType(field(entry, p, "type"), join(p, "type"));
      // Compared before narrowing to int, so that 2^32 + 2 is not rank 2.
      std::string rankPath = join(p, "rank");
      int64_t rank = readInteger(field(entry, p, "rank"), rankPath, 0);
      bool epilogue = isEpilogueArgName(arg.name);
      if (!epilogue && rank != 2 && rank != 3)
        fail(rankPath, "a rank-" + std::to_string(rank) +
                           " memref is not supported; A, B and C are rank 2 "
                           "(rank 3 in a batched kernel)");
      arg.rank = static_cast<int>(std::min<int64_t>(rank, 1 << 20));
      if (const JsonValue *strided = entry.find("strided")) {
        if (!strided->isBool())
          fail(join(p, "strided"),
               "expected true or false, got " + describe(*strided));
        arg.strided = strided->getBool();
      }
      if (epilogue) {
        readEpilogueArg(p, arg, seen, k);
        k.args.push_back(arg);
        continue;
      }
      const OperandSpec *spec;
      if (arg.name == "a") {
        arg.operand = Operand::A;
        spec = &k.gemm.a;
      } else if (arg.name == "b") {
        arg.operand = Operand::B;
        spec = &k.gemm.b;
      } else if (arg.name == "c") {
        arg.operand = Operand::C;
        spec = &k.gemm.c;
      } else {
        fail(join(p, "name"), "unknown argument '" + arg.name +
                                  "' (expected a, b or c, or epilogue0, "
                                  "epilogue1, ... for the epilogue's "
                                  "operands)");
      }
      int slot = static_cast<int>(arg.operand);
      if (seen[slot])
        fail(join(p, "name"), "argument '" + arg.name + "' appears twice");
      seen[slot] = true;
      if (!argTypeMatches(arg.type, spec->type))
        fail(join(p, "type"), std::string("argument '") + arg.name +
                                  "' has type " + elementTypeName(arg.type) +
                                  " but operand " + arg.name + " is " +
                                  elementTypeName(spec->type));
      if (!k.args.empty() && arg.rank != k.args.front().rank)
        fail(rankPath, "argument '" + arg.name + "' has rank " +
                           std::to_string(arg.rank) + " but argument '" +
                           k.args.front().name + "' has rank " +
                           std::to_string(k.args.front().rank) +
                           "; A, B and C have the same rank");
      if (arg.rank == 3 && !k.batched)
        fail(rankPath, "argument '" + arg.name +
                           "' has rank 3 but the kernel is not batched (its "
                           "problem has no \"batch\")");
      if (arg.rank == 2 && k.batched)
        fail(rankPath, "argument '" + arg.name +
                           "' has rank 2 but the kernel is batched; its "
                           "arguments are rank 3 ([batch, rows, cols])");
      k.args.push_back(arg);
    }
    for (int slot = 0; slot < 3; ++slot)
      if (!seen[slot])
        fail(path, std::string("no argument for operand '") +
                       operandName(static_cast<Operand>(slot)) + "'");
  }

  /// After readArgs: the fused epilogue's steps. Each bias or scale names
  /// its broadcast; each of bias, scale and residual reads one epilogue
  /// argument (by name), the epilogue arguments in order, each exactly
  /// once, and of the rank its step needs. `argsPath` locates args' entries
  /// in messages.
  void readEpilogue(const JsonValue *v, const std::string &path,
                    const std::string &argsPath, KernelManifest &k) const {
    if (v) {
      if (!v->isArray())
        fail(path, "expected an array of steps, got " + describe(*v));
      if (!v->getArray().empty() && version < 4)
        fail(path, "fused epilogue steps need manifest version 4; this "
                   "manifest is version " +
                       std::to_string(version));
      if (!v->getArray().empty() && k.gemm.c.type == ElementType::S32)
        fail(path, "an s32 C takes no epilogue steps (they compute in f32): "
                   "an s32 accumulator gives C in f32, f16 or bf16 to "
                   "dequantize and apply them");
      for (size_t i = 0; i < v->getArray().size(); ++i)
        k.epilogue.push_back(
            readEpilogueStep(v->getArray()[i], index(path, i), argsPath, k));
    }
    // Every epilogue argument is read, by exactly one step (readEpilogueStep
    // refuses a second).
    for (size_t i = 0; i < k.args.size(); ++i) {
      if (!k.args[i].epilogue)
        continue;
      bool read = false;
      for (const EpilogueStep &step : k.epilogue)
        read |= step.arg == static_cast<int>(i);
      if (!read)
        fail(index(argsPath, i), "epilogue argument '" + k.args[i].name +
                                     "' is read by no step of the "
                                     "kernel's \"epilogue\"");
    }
  }

  EpilogueStep readEpilogueStep(const JsonValue &v, const std::string &p,
                                const std::string &argsPath,
                                const KernelManifest &k) const {
    expectObject(v, p, {"op", "broadcast", "arg"});
    EpilogueStep step;
    std::string opPath = join(p, "op");
    std::string name = readString(field(v, p, "op"), opPath);
    std::optional<EpilogueOp> op = parseEpilogueOp(name);
    if (!op)
      fail(opPath, "unknown epilogue op '" + name + "' (expected one of " +
                       allEpilogueOpNames() + ")");
    step.op = *op;
    const JsonValue *broadcast = v.find("broadcast");
    std::string broadcastPath = join(p, "broadcast");
    if (takesBroadcast(step.op)) {
      if (!broadcast)
        fail(p, "missing field 'broadcast': " + name +
                    " says how its vector is indexed (row: M elements, "
                    "col: N, scalar: 1)");
      std::string text = readString(*broadcast, broadcastPath);
      std::optional<Broadcast> parsed = parseBroadcast(text);
      if (!parsed)
        fail(broadcastPath,
             "unknown broadcast '" + text + "' (expected row, col or scalar)");
      step.broadcast = *parsed;
    } else if (broadcast) {
      fail(broadcastPath, name + " takes no broadcast (only bias and scale "
                                 "do)");
    }
    const JsonValue *arg = v.find("arg");
    std::string argPath = join(p, "arg");
    if (!takesOperand(step.op)) {
      if (arg)
        fail(argPath, name + " reads no operand (only bias, scale and "
                             "residual do)");
      return step;
    }
    if (!arg)
      fail(p, "missing field 'arg': " + name +
                  " names the epilogue argument it reads (" +
                  epilogueArgNames(k) + ")");
    std::string argName = readString(*arg, argPath);
    int found = -1;
    for (size_t i = 0; i < k.args.size(); ++i)
      if (k.args[i].name == argName)
        found = static_cast<int>(i);
    if (found < 0)
      fail(argPath, "'" + argName +
                        "' names no argument of the kernel (its "
                        "epilogue arguments: " +
                        epilogueArgNames(k) + ")");
    const KernelArg &operand = k.args[found];
    if (!operand.epilogue)
      fail(argPath, "'" + argName + "' is a matrix of the GEMM; " + name +
                        " reads an epilogue argument (" + epilogueArgNames(k) +
                        ")");
    size_t ordinal = 0; // the epilogue arguments the earlier steps read
    for (const EpilogueStep &earlier : k.epilogue) {
      if (earlier.arg == found)
        fail(argPath, "epilogue argument '" + argName +
                          "' is already read by an earlier step; each is "
                          "read by exactly one");
      ordinal += takesOperand(earlier.op);
    }
    if (argName != "epilogue" + std::to_string(ordinal))
      fail(argPath, "'" + argName +
                        "' is out of order: the steps read the "
                        "epilogue arguments in args order, so this step reads "
                        "'epilogue" +
                        std::to_string(ordinal) + "'");
    int cRank = 2;
    if (const KernelArg *cArg = findOperandArg(k, Operand::C))
      cRank = cArg->rank;
    int wanted = takesBroadcast(step.op) ? 1 : cRank;
    if (operand.rank != wanted)
      fail(join(index(argsPath, static_cast<size_t>(found)), "rank"),
           "epilogue argument '" + argName + "' is read by " + name +
               (takesBroadcast(step.op)
                    ? std::string("(") + broadcastName(step.broadcast) +
                          "), a vector: rank 1"
                    : std::string(", a matrix of C's shape: rank ") +
                          std::to_string(cRank)) +
               ", got " + std::to_string(operand.rank));
    step.arg = found;
    return step;
  }

  /// After readArgs: a tensor map names one of the arguments and is checked
  /// against its element type.
  void readTensorMaps(const JsonValue &v, const std::string &path,
                      KernelManifest &k) const {
    if (!v.isArray())
      fail(path, "expected an array, got " + describe(v));
    for (size_t i = 0; i < v.getArray().size(); ++i) {
      const JsonValue &entry = v.getArray()[i];
      std::string p = index(path, i);
      expectObject(entry, p, {"operand", "box", "swizzle", "passing"});
      TensorMapArg map;
      std::string operandPath = join(p, "operand");
      std::string name = readString(field(entry, p, "operand"), operandPath);
      const KernelArg *arg = nullptr;
      for (const KernelArg &candidate : k.args)
        if (candidate.name == name && !candidate.epilogue)
          arg = &candidate;
      if (!arg)
        fail(operandPath, "unknown operand '" + name +
                              "' (expected a, b or c, an argument of the "
                              "kernel)");
      map.operand = arg->operand;
      for (size_t j = 0; j < k.tensorMaps.size(); ++j)
        if (k.tensorMaps[j].operand == map.operand)
          fail(operandPath, "a tensor map for operand '" + name +
                                "' appears twice (also " + index(path, j) +
                                ")");
      // TMA moves whole elements of 1, 2, 4 or 8 bytes; packed 4-bit
      // values would need a box in half bytes, which tgemm does not use.
      if (elementBits(arg->type) < 8)
        fail(operandPath, std::string("operand '") + name + "' is " +
                              elementTypeName(arg->type) +
                              ", which a tensor map cannot describe (TMA "
                              "moves whole bytes)");
      std::string boxPath = join(p, "box");
      map.box = readIntegers<2>(field(entry, p, "box"), boxPath, 1);
      for (size_t j = 0; j < 2; ++j)
        if (map.box[j] > 256)
          fail(index(boxPath, j),
               "expected an integer <= 256 (the largest TMA box extent), "
               "got " +
                   std::to_string(map.box[j]));
      std::string swizzlePath = join(p, "swizzle");
      map.swizzle =
          readInteger(field(entry, p, "swizzle"), swizzlePath, 0);
      if (map.swizzle != 0 && map.swizzle != 32 && map.swizzle != 64 &&
          map.swizzle != 128)
        fail(swizzlePath, "unsupported swizzle " +
                              std::to_string(map.swizzle) +
                              " (expected 0, 32, 64 or 128 bytes)");
      std::string passingPath = join(p, "passing");
      std::string passing =
          readString(field(entry, p, "passing"), passingPath);
      if (passing == "param")
        map.passing = MapPassing::Param;
      else if (passing == "global")
        map.passing = MapPassing::Global;
      else
        fail(passingPath, "unsupported passing '" + passing +
                              "' (expected param: the descriptor itself, a "
                              "__grid_constant__ parameter; or global: its "
                              "device address)");
      if (!k.tensorMaps.empty() && k.tensorMaps[0].passing != map.passing)
        fail(passingPath, "passing '" + passing + "' differs from " +
                              index(path, 0) + "'s '" +
                              mapPassingName(k.tensorMaps[0].passing) +
                              "': a kernel takes all its maps alike");
      // The rules cuTensorMapEncodeTiled sets for the box's inner extent
      // (without interleave): whole 16-byte chunks, and within the swizzle
      // span when swizzled. Both are properties of the kernel, so a
      // manifest that breaks them is refused rather than run without TMA.
      int64_t rowBytes = map.box[1] * (elementBits(arg->type) / 8);
      std::string rowText = "a box row of " + std::to_string(map.box[1]) +
                            " " + elementTypeName(arg->type) +
                            " elements is " + std::to_string(rowBytes) +
                            " bytes";
      if (rowBytes % 16 != 0)
        fail(index(boxPath, 1),
             rowText + ", not a multiple of 16 (TMA moves 16-byte chunks)");
      if (map.swizzle != 0 && rowBytes > map.swizzle)
        fail(index(boxPath, 1), rowText + ", more than the " +
                                    std::to_string(map.swizzle) +
                                    "-byte swizzle span it must fit in");
      k.tensorMaps.push_back(map);
    }
  }

  /// `"persistent"`: a boolean; true only from version 5 on.
  bool readPersistent(const JsonValue &v, const std::string &path) const {
    if (!v.isBool())
      fail(path, "expected true or false, got " + describe(v));
    if (v.getBool() && version < 5)
      fail(path, "persistent kernels need manifest version 5; this "
                 "manifest is version " +
                     std::to_string(version));
    return v.getBool();
  }

  /// `"cluster"`: blocks per cluster, 1 to kMaxClusterBlocks; above 1 only
  /// from version 6 on.
  int64_t readCluster(const JsonValue &v, const std::string &path) const {
    int64_t cluster = readInteger(v, path, 1);
    if (cluster > kMaxClusterBlocks)
      fail(path, "at most " + std::to_string(kMaxClusterBlocks) +
                     " blocks per cluster, got " + std::to_string(cluster));
    if (cluster > 1 && version < 6)
      fail(path, "clusters need manifest version 6; this manifest is "
                 "version " +
                     std::to_string(version));
    return cluster;
  }

  /// After readArgs: `"transposes"`, the operands the kernel reads from
  /// transposed copies (version 7), or (`transpose` false)
  /// `"aligned_copies"`, those it reads from copies as stored with rows 16
  /// bytes apart (version 8): A or B, each at most once in both lists, A's
  /// first in each, each with its kernel, tile and block.
  void readTransposes(const JsonValue &v, const std::string &path,
                      KernelManifest &k, bool transpose) const {
    const char *field_ = transpose ? "transposes" : "aligned_copies";
    int since = transpose ? 7 : 8;
    const char *copies = transpose ? "transposed copies" : "aligned copies";
    if (!v.isArray())
      fail(path, "expected an array, got " + describe(v));
    if (!v.getArray().empty() && version < since)
      fail(path, std::string(field_) + " need manifest version " +
                     std::to_string(since) + "; this manifest is version " +
                     std::to_string(version));
    for (size_t i = 0; i < v.getArray().size(); ++i) {
      const JsonValue &entry = v.getArray()[i];
      std::string p = index(path, i);
      expectObject(entry, p, {"operand", "kernel", "tile", "block"});
      OperandTranspose copy;
      copy.transpose = transpose;
      std::string operandPath = join(p, "operand");
      std::string name = readString(field(entry, p, "operand"), operandPath);
      if (name == "a")
        copy.operand = Operand::A;
      else if (name == "b")
        copy.operand = Operand::B;
      else
        fail(operandPath, "unknown operand '" + name +
                              "' (expected a or b: only A and B are read "
                              "from " +
                              copies + ")");
      size_t ofThisList = 0;
      for (const OperandTranspose &other : k.transposes) {
        if (other.transpose != transpose) {
          if (other.operand == copy.operand)
            fail(operandPath, "operand '" + name +
                                  "' is also in transposes: a transposed "
                                  "copy has its rows 16 bytes apart already");
          continue;
        }
        if (other.operand == copy.operand)
          fail(operandPath, "operand '" + name + "' is " +
                                (transpose ? "transposed" : "copied") +
                                " twice (also " + index(path, ofThisList) +
                                ")");
        if (copy.operand == Operand::A)
          fail(operandPath, "operand 'a' comes after " +
                                index(path, ofThisList) + "'s 'b'; A's " +
                                (transpose ? "transpose" : "copy") +
                                " is listed first");
        ++ofThisList;
      }
      const OperandSpec &spec =
          copy.operand == Operand::A ? k.gemm.a : k.gemm.b;
      int bits = elementBits(spec.type);
      if (transpose) {
        // Only what a family reads K-major only is copied: an 8-bit or
        // 32-bit operand stored MN-major (A column-major, B row-major).
        bool mnMajor = copy.operand == Operand::A ? spec.layout == Layout::Col
                                                  : spec.layout == Layout::Row;
        if (!mnMajor)
          fail(operandPath,
               "operand '" + name + "' is stored K-major (layout " +
                   (spec.layout == Layout::Row ? "row" : "col") +
                   "): the kernel reads it as stored, not from a copy");
        if (bits != 8 && bits != 32)
          fail(operandPath, "operand '" + name + "' has " +
                                std::to_string(bits) +
                                "-bit elements; transposed copies are of "
                                "8-bit and 32-bit operands");
      } else if (bits < 8) {
        fail(operandPath, "operand '" + name + "' has " + std::to_string(bits) +
                              "-bit elements; aligned copies move whole "
                              "elements of 8 bits or more");
      }
      const char *role = transpose ? "transposing" : "aligning";
      std::string kernelPath = join(p, "kernel");
      copy.kernel = readName(field(entry, p, "kernel"), kernelPath);
      if (copy.kernel == k.name)
        fail(kernelPath, "'" + copy.kernel +
                             "' is the GEMM kernel itself; the " + role +
                             " kernel is another function of its module");
      copy.tile = readIntegers<2>(field(entry, p, "tile"), join(p, "tile"), 1);
      std::string blockPath = join(p, "block");
      std::array<int64_t, 3> block =
          readIntegers<3>(field(entry, p, "block"), blockPath, 1);
      if (block[0] > 1024)
        fail(index(blockPath, 0),
             "a block of more than 1024 threads cannot launch, got " +
                 std::to_string(block[0]));
      if (block[1] != 1 || block[2] != 1)
        fail(blockPath, std::string(transpose ? "a " : "an ") + role +
                            " kernel's block is [threads, 1, 1], got [" +
                            std::to_string(block[0]) + ", " +
                            std::to_string(block[1]) + ", " +
                            std::to_string(block[2]) + "]");
      copy.threads = block[0];
      if (copy.tile[0] * copy.tile[1] % copy.threads != 0)
        fail(join(p, "tile"),
             "a " + std::to_string(copy.tile[0]) + "x" +
                 std::to_string(copy.tile[1]) +
                 " tile is not a whole number of elements for each of the " +
                 std::to_string(copy.threads) + " threads");
      k.transposes.push_back(copy);
    }
  }

  void readScalars(const JsonValue &v, const std::string &path,
                   KernelManifest &k) const {
    const JsonValue &alpha = field(v, path, "alpha");
    const JsonValue &beta = field(v, path, "beta");
    std::string alphaPath = join(path, "alpha"), betaPath = join(path, "beta");
    k.gemm.alpha = readNumber(alpha, alphaPath);
    k.gemm.beta = readNumber(beta, betaPath);
    if (k.gemm.c.type != ElementType::S32)
      return;
    // An s32 C is computed in integers (a float C from an s32 accumulator
    // is dequantized in f32, with any alpha and beta).
    auto requireIntegral = [&](const JsonValue &value, const std::string &p) {
      double d = value.getNumber();
      if (d != std::floor(d) || std::fabs(d) > 2147483647.0)
        fail(p, "expected an integer for an s32 C, got " + describe(value));
    };
    requireIntegral(alpha, alphaPath);
    requireIntegral(beta, betaPath);
  }

};

KernelManifest ManifestReader::readKernel(const JsonValue &v,
                                          const std::string &path) const {
  expectObject(v, path,
               {"name",
                "module",
                "lowering",
                "chip",
                "problem",
                "a",
                "b",
                "c",
                "acc",
                "alpha",
                "beta",
                "config",
                "grid",
                "block",
                "dynamic_shared_memory",
                "requires",
                "args",
                "epilogue",
                "tensor_maps",
                "persistent",
                "cluster",
                "transposes",
                "aligned_copies"});
  KernelManifest k;
  k.name = readName(field(v, path, "name"), join(path, "name"));
  k.module = readName(field(v, path, "module"), join(path, "module"));
  std::string loweringPath = join(path, "lowering");
  const JsonValue &lowering = field(v, path, "lowering");
  if (!partial || !lowering.isNull())
    k.lowering = readString(lowering, loweringPath);
  if (!(partial && lowering.isNull()) && k.lowering != "wmma" &&
      k.lowering != "ptx" && k.lowering != "wgmma")
    fail(loweringPath, "unknown lowering '" + k.lowering +
                           "' (expected wmma, ptx or wgmma)");
  readChip(field(v, path, "chip"), join(path, "chip"), k);
  readProblem(field(v, path, "problem"), join(path, "problem"), k);
  k.gemm.a = readOperand(field(v, path, "a"), join(path, "a"));
  k.gemm.b = readOperand(field(v, path, "b"), join(path, "b"));
  k.gemm.c = readOperand(field(v, path, "c"), join(path, "c"));
  if (k.gemm.c.layout != Layout::Row)
    fail(join(path, "c.layout"), "C must be row-major (layout row)");
  std::string accPath = join(path, "acc");
  k.gemm.acc = readType(field(v, path, "acc"), accPath);
  if (k.gemm.acc != ElementType::F32 && k.gemm.acc != ElementType::F16 &&
      k.gemm.acc != ElementType::S32)
    fail(accPath, std::string("accumulator type ") +
                      elementTypeName(k.gemm.acc) +
                      " is not one of f32, f16, s32");
  readScalars(v, path, k);
  std::string why;
  if (!isSupportedCombination(k.gemm, &why))
    fail(path, "unsupported type combination " + k.gemm.signature() + ": " +
                   why,
         ErrorKind::Unsupported);
  readConfig(field(v, path, "config"), join(path, "config"), k);
  readGrid(field(v, path, "grid"), join(path, "grid"), k);
  // Optional (version 6): 1 when absent.
  if (const JsonValue *cluster = v.find("cluster"))
    k.cluster = readCluster(*cluster, join(path, "cluster"));
  // Split K's parts are grid z's blocks per matrix, a cluster's blocks
  // grid x's per tile column, and only those.
  if (k.grid[0].times != k.cluster)
    fail(join(path, "grid") + "[0]",
         "cluster is " + std::to_string(k.cluster) +
             ", so grid x must have times " + std::to_string(k.cluster) +
             ", got " + std::to_string(k.grid[0].times));
  if (k.grid[1].times != 1)
    fail(join(path, "grid") + "[1].times",
         "grid y does not repeat (only split K's parts in grid z and a "
         "cluster's blocks in grid x do)");
  if (k.grid[2].times != k.config.splitK)
    fail(join(path, "grid") + "[2]",
         "config.split_k is " + std::to_string(k.config.splitK) +
             ", so grid z must have times " + std::to_string(k.config.splitK) +
             ", got " + std::to_string(k.grid[2].times));
  std::string blockPath = join(path, "block");
  k.block = readIntegers<3>(field(v, path, "block"), blockPath, 1);
  // Saturates at 1025 without forming a product that could overflow:
  // each extent may be as large as int64 allows.
  int64_t threads = 1;
  for (int64_t b : k.block)
    threads = b > 1024 / threads ? 1025 : threads * b;
  if (threads > 1024)
    fail(blockPath, "a block of more than 1024 threads cannot launch");
  k.dynamicSharedMemory =
      readInteger(field(v, path, "dynamic_shared_memory"),
                  join(path, "dynamic_shared_memory"), 0);
  readRequirements(field(v, path, "requires"), join(path, "requires"), k);
  readArgs(field(v, path, "args"), join(path, "args"), k);
  // Optional (version 4): absent (or empty) when the kernel has no steps.
  readEpilogue(v.find("epilogue"), join(path, "epilogue"), join(path, "args"),
               k);
  // Optional: absent (or empty) when the kernel takes no TMA descriptors.
  if (const JsonValue *maps = v.find("tensor_maps"))
    readTensorMaps(*maps, join(path, "tensor_maps"), k);
  // Optional (version 5): false when absent.
  if (const JsonValue *persistent = v.find("persistent"))
    k.persistent = readPersistent(*persistent, join(path, "persistent"));
  // Optional (version 7): absent (or empty) when the kernel reads every
  // operand where the caller stores it.
  if (const JsonValue *transposes = v.find("transposes"))
    readTransposes(*transposes, join(path, "transposes"), k,
                   /*transpose=*/true);
  // Optional (version 8), likewise.
  if (const JsonValue *aligned = v.find("aligned_copies"))
    readTransposes(*aligned, join(path, "aligned_copies"), k,
                   /*transpose=*/false);
  return k;
}

Manifest ManifestReader::read(const JsonValue &root) {
  if (!root.isObject())
    fail("", std::string("expected a JSON object at the top, got ") +
                 describe(root));
  // The version decides how to read the rest, so it is checked first.
  const JsonValue *version = root.find("version");
  if (!version)
    fail("", "missing field 'version'");
  if (!version->isInteger())
    fail("version", "expected an integer, got " + describe(*version));
  // Version 1 differs only by lacking "tensor_maps", but its kernels were
  // compiled by a tgemm whose parameter list this runtime no longer
  // promises to match; recompiling is the fix, so the message says so.
  if (version->getInteger() == 1)
    fail("version", "manifest version 1 is older than this runtime's " +
                        std::to_string(kManifestVersion) +
                        " (version 2 adds \"tensor_maps\"): recompile the "
                        "kernel with this tgemm");
  if (version->getInteger() < kOldestManifestVersion ||
      version->getInteger() > kManifestVersion)
    fail("version", "unsupported manifest version " + describe(*version) +
                        "; this runtime reads versions " +
                        std::to_string(kOldestManifestVersion) + " to " +
                        std::to_string(kManifestVersion));
  this->version = static_cast<int>(version->getInteger());
  expectObject(root, "", {"version", "kernels"});
  const JsonValue &kernels = field(root, "", "kernels");
  if (!kernels.isArray())
    fail("kernels", "expected an array, got " + describe(kernels));
  if (kernels.getArray().empty())
    fail("kernels", "the manifest lists no kernels");
  Manifest manifest;
  for (size_t i = 0; i < kernels.getArray().size(); ++i) {
    std::string path = index("kernels", i);
    manifest.kernels.push_back(readKernel(kernels.getArray()[i], path));
    for (size_t j = 0; j < i; ++j)
      if (manifest.kernels[j].name == manifest.kernels[i].name)
        fail(path + ".name", "kernel '" + manifest.kernels[i].name +
                                 "' is already described by kernels[" +
                                 std::to_string(j) + "]");
  }
  return manifest;
}

} // namespace

Manifest parseManifest(std::string_view text, const std::string &fileName) {
  JsonValue root;
  try {
    root = parseJson(text);
  } catch (const JsonSyntaxError &e) {
    fail(ErrorKind::Input, fileName + ":" + std::to_string(e.line()) + ":" +
                               std::to_string(e.column()) +
                               ": invalid JSON: " + e.what());
  }
  return ManifestReader(fileName).read(root);
}

bool tryParseManifest(std::string_view text, const std::string &fileName,
                      Manifest &out, std::string &error) noexcept {
  try {
    out = parseManifest(text, fileName);
    return true;
  } catch (const std::exception &e) {
    error = e.what();
    return false;
  }
}

bool readPartialKernelManifest(const JsonValue &entry, KernelManifest &out,
                               std::string &error) noexcept {
  try {
    out = ManifestReader("", /*partial=*/true).readKernel(entry, "");
    return true;
  } catch (const std::exception &e) {
    error = e.what();
    return false;
  }
}

namespace {
using Members = std::vector<JsonValue::Member>;

JsonValue text(const std::string &s) { return JsonValue::makeString(s); }
JsonValue integer(int64_t v) { return JsonValue::makeInteger(v); }
JsonValue textOrNull(const std::string &s) {
  return s.empty() ? JsonValue() : text(s);
}
JsonValue sizeOrNull(const std::optional<int64_t> &size) {
  return size ? integer(*size) : JsonValue();
}
template <size_t N> JsonValue integers(const std::array<int64_t, N> &values) {
  std::vector<JsonValue> out;
  for (int64_t v : values)
    out.push_back(integer(v));
  return JsonValue::makeArray(std::move(out));
}
JsonValue operand(const OperandSpec &spec) {
  return JsonValue::makeObject({{"type", text(elementTypeName(spec.type))},
                                {"layout", text(layoutName(spec.layout))}});
}
JsonValue gridExtent(const GridExtent &extent) {
  Members members;
  if (!extent.isTiled)
    members = {{"value", integer(extent.value)}};
  else
    members = {{"dim", text(dimName(extent.dim))},
               {"tile", integer(extent.tile)}};
  // Only where it is not 1, so that a kernel without split K reads as
  // before.
  if (extent.times != 1)
    members.push_back({"times", integer(extent.times)});
  return JsonValue::makeObject(std::move(members));
}
/// The steps as `"epilogue"` lists them: the op, a bias or scale's
/// broadcast, and the name of the argument an operand step reads.
JsonValue epilogueSteps(const KernelManifest &k) {
  std::vector<JsonValue> steps;
  for (const EpilogueStep &step : k.epilogue) {
    Members members = {{"op", text(epilogueOpName(step.op))}};
    if (takesBroadcast(step.op))
      members.push_back({"broadcast", text(broadcastName(step.broadcast))});
    if (takesOperand(step.op)) {
      bool valid =
          step.arg >= 0 && static_cast<size_t>(step.arg) < k.args.size();
      // An index outside args (an entry still being built) is written as
      // null, which the reader refuses.
      members.push_back(
          {"arg", valid ? text(k.args[step.arg].name) : JsonValue()});
    }
    steps.push_back(JsonValue::makeObject(std::move(members)));
  }
  return JsonValue::makeArray(std::move(steps));
}
} // namespace

JsonValue kernelManifestToJson(const KernelManifest &k) noexcept {
  Members problem = {{"m", sizeOrNull(k.problem[0])},
                     {"n", sizeOrNull(k.problem[1])},
                     {"k", sizeOrNull(k.problem[2])}};
  if (k.batched)
    problem.push_back({"batch", sizeOrNull(k.batch)});
  std::vector<JsonValue> grid, requirements, args;
  for (const GridExtent &extent : k.grid)
    grid.push_back(gridExtent(extent));
  for (const Requirement &r : k.requirements)
    requirements.push_back(JsonValue::makeObject(
        {{"dim", text(dimName(r.dim))}, {"multiple_of", integer(r.multipleOf)}}));
  for (const KernelArg &arg : k.args) {
    Members members = {{"name", text(arg.name)},
                       {"kind", text("memref")},
                       {"type", text(elementTypeName(arg.type))},
                       {"rank", integer(arg.rank)}};
    // An epilogue operand is always packed: no "strided".
    if (!arg.epilogue)
      members.push_back({"strided", JsonValue::makeBool(arg.strided)});
    args.push_back(JsonValue::makeObject(std::move(members)));
  }
  Members kernel = {
      {"name", text(k.name)},
      {"module", text(k.module)},
      {"lowering", textOrNull(k.lowering)},
      {"chip", textOrNull(k.chip)},
      {"problem", JsonValue::makeObject(std::move(problem))},
      {"a", operand(k.gemm.a)},
      {"b", operand(k.gemm.b)},
      {"c", operand(k.gemm.c)},
      {"acc", text(elementTypeName(k.gemm.acc))},
      {"alpha", JsonValue::makeReal(k.gemm.alpha)},
      {"beta", JsonValue::makeReal(k.gemm.beta)},
      {"config", JsonValue::makeObject({{"block", integers(k.config.block)},
                                        {"warps", integers(k.config.warps)},
                                        {"stages", integer(k.config.stages)},
                                        {"raster", integer(k.config.raster)},
                                        {"split_k", integer(k.config.splitK)}})},
      {"grid", JsonValue::makeArray(std::move(grid))},
      {"block", integers(k.block)},
      {"dynamic_shared_memory", integer(k.dynamicSharedMemory)},
      {"requires", JsonValue::makeArray(std::move(requirements))},
      {"args", JsonValue::makeArray(std::move(args))},
  };
  // Only when there are any, so that a kernel without steps reads as
  // before (and as a version-3 reader expects).
  if (!k.epilogue.empty())
    kernel.push_back({"epilogue", epilogueSteps(k)});
  // Only when there are any, so that a kernel without TMA reads as before.
  if (!k.tensorMaps.empty()) {
    std::vector<JsonValue> maps;
    for (const TensorMapArg &map : k.tensorMaps)
      maps.push_back(JsonValue::makeObject(
          {{"operand", text(operandName(map.operand))},
           {"box", integers(map.box)},
           {"swizzle", integer(map.swizzle)},
           {"passing", text(mapPassingName(map.passing))}}));
    kernel.push_back({"tensor_maps", JsonValue::makeArray(std::move(maps))});
  }
  // Only when true, so that a kernel that is not persistent reads as
  // before (and as a version-4 reader expects).
  if (k.persistent)
    kernel.push_back({"persistent", JsonValue::makeBool(true)});
  if (k.cluster > 1)
    kernel.push_back({"cluster", integer(k.cluster)});
  // Only when there are any, so that a kernel that reads its operands where
  // they are stored reads as before (and as a version-6 reader expects).
  // Each list only when it has entries, so that a kernel that reads its
  // operands where they are stored reads as before (and as a version-6
  // reader expects; aligned copies, version 7).
  for (bool transpose : {true, false}) {
    std::vector<JsonValue> copies;
    for (const OperandTranspose &t : k.transposes)
      if (t.transpose == transpose)
        copies.push_back(JsonValue::makeObject(
            {{"operand", text(operandName(t.operand))},
             {"kernel", text(t.kernel)},
             {"tile", integers(t.tile)},
             {"block", integers(std::array<int64_t, 3>{t.threads, 1, 1})}}));
    if (!copies.empty())
      kernel.push_back({transpose ? "transposes" : "aligned_copies",
                        JsonValue::makeArray(std::move(copies))});
  }
  return JsonValue::makeObject(std::move(kernel));
}

JsonValue manifestToJson(const Manifest &manifest) noexcept {
  std::vector<JsonValue> kernels;
  for (const KernelManifest &k : manifest.kernels)
    kernels.push_back(kernelManifestToJson(k));
  return JsonValue::makeObject({{"version", integer(manifest.version)},
                                {"kernels", JsonValue::makeArray(kernels)}});
}

std::string writeManifest(const Manifest &manifest) noexcept {
  return writeJson(manifestToJson(manifest)) + "\n";
}

Manifest readManifestFile(const std::string &path) {
  std::string text, error;
  if (!readFile(path, text, error))
    fail(ErrorKind::Input, "cannot read manifest '" + path + "': " + error);
  return parseManifest(text, path);
}

const KernelManifest &selectKernel(const Manifest &manifest,
                                   const std::string &name,
                                   const std::string &fileName) {
  std::string names;
  for (const KernelManifest &k : manifest.kernels)
    names += (names.empty() ? "" : ", ") + k.name;
  if (name.empty()) {
    if (manifest.kernels.size() == 1)
      return manifest.kernels.front();
    fail(ErrorKind::Usage, fileName + " describes " +
                               std::to_string(manifest.kernels.size()) +
                               " kernels (" + names +
                               "); choose one with --kernel NAME");
  }
  for (const KernelManifest &k : manifest.kernels)
    if (k.name == name)
      return k;
  fail(ErrorKind::Input, fileName + " has no kernel '" + name +
                             "'; it has: " + names);
}

} // namespace tgemm::runtime
