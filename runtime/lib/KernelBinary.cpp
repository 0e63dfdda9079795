//===- KernelBinary.cpp - PTX, cubin and fatbin files ---------------------===//

#include "tgemm/runtime/KernelBinary.h"

#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/Manifest.h"

#include <cstdint>
#include <cstring>

namespace tgemm::runtime {

const char *binaryFormatName(BinaryFormat format) {
  switch (format) {
  case BinaryFormat::Ptx:
    return "PTX";
  case BinaryFormat::Cubin:
    return "cubin";
  case BinaryFormat::Fatbin:
    return "fatbin";
  }
  return "?";
}

namespace {

/// PTX text with comments replaced by spaces (line structure kept).
std::string stripPtxComments(std::string_view ptx) {
  std::string out(ptx);
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '/' && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n')
        out[i++] = ' ';
    } else if (out[i] == '/' && out[i + 1] == '*') {
      size_t end = out.find("*/", i + 2);
      size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (; i < stop; ++i)
        if (out[i] != '\n')
          out[i] = ' ';
      --i;
    }
  }
  return out;
}

bool isPtxIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%';
}

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// Positions just after each whole-word occurrence of `directive`.
std::vector<size_t> findDirective(const std::string &text,
                                  std::string_view directive) {
  std::vector<size_t> found;
  for (size_t at = text.find(directive); at != std::string::npos;
       at = text.find(directive, at + 1)) {
    size_t end = at + directive.size();
    bool startsWord = at == 0 || isSpace(text[at - 1]);
    bool endsWord = end == text.size() || isSpace(text[end]);
    if (startsWord && endsWord)
      found.push_back(end);
  }
  return found;
}

std::string wordAfter(const std::string &text, size_t pos) {
  while (pos < text.size() && isSpace(text[pos]))
    ++pos;
  size_t start = pos;
  while (pos < text.size() && isPtxIdentifierChar(text[pos]))
    ++pos;
  return text.substr(start, pos - start);
}

[[noreturn]] void badBinary(const std::string &path,
                            const std::string &message) {
  fail(ErrorKind::Input, path + ": " + message);
}

template <typename T>
bool readAt(const std::string &bytes, uint64_t offset, T &out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T))
    return false;
  std::memcpy(&out, bytes.data() + offset, sizeof(T));
  return true;
}

std::string cString(const std::string &bytes, uint64_t offset,
                    uint64_t limit) {
  std::string s;
  for (uint64_t i = offset; i < limit && i < bytes.size() && bytes[i]; ++i)
    s += bytes[i];
  return s;
}

/// Lists the kernels of a 64-bit little-endian CUDA ELF: the function
/// symbols marked as entries (STO_CUDA_ENTRY in st_other), or, in a cubin
/// that marks none, every global function.
std::vector<std::string> listCubinFunctions(const std::string &bytes,
                                            const std::string &path) {
  constexpr uint16_t kMachineCuda = 190;
  constexpr uint32_t kSymtab = 2;
  constexpr unsigned kFunction = 2, kGlobal = 1, kWeak = 2;
  constexpr uint8_t kCudaEntry = 0x10;
  if (bytes.size() < 64 || bytes[4] != 2 || bytes[5] != 1)
    badBinary(path, "not a cubin: a cubin is a 64-bit little-endian ELF file");
  uint16_t machine = 0, entrySize = 0, sectionCount = 0;
  uint64_t sectionOffset = 0;
  readAt(bytes, 18, machine);
  readAt(bytes, 0x28, sectionOffset);
  readAt(bytes, 0x3a, entrySize);
  readAt(bytes, 0x3c, sectionCount);
  if (machine != kMachineCuda)
    badBinary(path, "not a cubin: ELF machine " + std::to_string(machine) +
                        " is not CUDA (190)");
  if (entrySize != 64 || sectionOffset > bytes.size() ||
      (bytes.size() - sectionOffset) / 64 < sectionCount)
    badBinary(path, "corrupt cubin: section headers lie outside the file");

  struct Section {
    uint32_t type = 0, link = 0;
    uint64_t offset = 0, size = 0, entrySize = 0;
  };
  auto section = [&](uint32_t i) {
    Section s;
    uint64_t base = sectionOffset + 64ull * i;
    readAt(bytes, base + 4, s.type);
    readAt(bytes, base + 24, s.offset);
    readAt(bytes, base + 32, s.size);
    readAt(bytes, base + 40, s.link);
    readAt(bytes, base + 56, s.entrySize);
    if (s.offset > bytes.size() || bytes.size() - s.offset < s.size)
      badBinary(path, "corrupt cubin: a section lies outside the file");
    return s;
  };

  std::vector<std::string> functions, entries;
  for (uint32_t i = 0; i < sectionCount; ++i) {
    Section symtab = section(i);
    if (symtab.type != kSymtab)
      continue;
    if (symtab.entrySize != 24 || symtab.link >= sectionCount)
      badBinary(path, "corrupt cubin: malformed symbol table");
    Section strtab = section(symtab.link);
    for (uint64_t at = 0; at + 24 <= symtab.size; at += 24) {
      uint32_t nameOffset = 0;
      uint8_t info = 0, other = 0;
      readAt(bytes, symtab.offset + at, nameOffset);
      readAt(bytes, symtab.offset + at + 4, info);
      readAt(bytes, symtab.offset + at + 5, other);
      unsigned type = info & 0xf, binding = info >> 4;
      if (type != kFunction || (binding != kGlobal && binding != kWeak))
        continue;
      if (nameOffset >= strtab.size)
        badBinary(path, "corrupt cubin: a symbol name lies outside its table");
      std::string name = cString(bytes, strtab.offset + nameOffset,
                                 strtab.offset + strtab.size);
      if (other & kCudaEntry)
        entries.push_back(name);
      functions.push_back(name);
    }
  }
  return entries.empty() ? functions : entries;
}

} // namespace

std::vector<std::string> listPtxEntries(std::string_view ptx) {
  std::string text = stripPtxComments(ptx);
  std::vector<std::string> names;
  for (size_t end : findDirective(text, ".entry")) {
    std::string name = wordAfter(text, end);
    if (!name.empty())
      names.push_back(name);
  }
  return names;
}

KernelBinary parseKernelBinary(std::string bytes, const std::string &path) {
  KernelBinary binary;
  binary.path = path;
  if (bytes.empty())
    badBinary(path, "empty file; expected PTX, a cubin or a fatbin");

  static const char kElfMagic[4] = {0x7f, 'E', 'L', 'F'};
  static const unsigned char kFatbinMagic[4] = {0x50, 0xed, 0x55, 0xba};
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), kElfMagic, 4) == 0) {
    binary.format = BinaryFormat::Cubin;
    binary.kernels = listCubinFunctions(bytes, path);
    binary.kernelsKnown = true;
  } else if (bytes.size() >= 4 &&
             std::memcmp(bytes.data(), kFatbinMagic, 4) == 0) {
    binary.format = BinaryFormat::Fatbin;
  } else {
    if (bytes.find('\0') != std::string::npos)
      badBinary(path, "neither PTX (binary data) nor a cubin (no ELF header)");
    std::string text = stripPtxComments(bytes);
    if (findDirective(text, ".version").empty())
      badBinary(path, "neither PTX (no .version directive) nor a cubin (no "
                      "ELF header)");
    std::vector<size_t> targets = findDirective(text, ".target");
    if (targets.empty())
      badBinary(path, "not valid PTX: no .target directive");
    binary.format = BinaryFormat::Ptx;
    binary.ptxTarget = wordAfter(text, targets.front());
    binary.kernels = listPtxEntries(bytes);
    binary.kernelsKnown = true;
  }
  binary.bytes = std::move(bytes);
  return binary;
}

KernelBinary readKernelBinary(const std::string &path) {
  std::string bytes, error;
  if (!readFile(path, bytes, error))
    fail(ErrorKind::Input, "cannot read kernel file '" + path + "': " + error);
  return parseKernelBinary(std::move(bytes), path);
}

void requireKernel(const KernelBinary &binary, const std::string &name) {
  if (!binary.kernelsKnown)
    return;
  for (const std::string &k : binary.kernels)
    if (k == name)
      return;
  std::string list;
  for (const std::string &k : binary.kernels)
    list += (list.empty() ? "" : ", ") + k;
  fail(ErrorKind::Input,
       binary.path + ": " + binaryFormatName(binary.format) +
           " has no kernel '" + name + "'" +
           (list.empty() ? "; it defines no kernels" : "; it has: " + list));
}

void requireKernels(const KernelBinary &binary, const KernelManifest &kernel) {
  requireKernel(binary, kernel.name);
  for (const OperandTranspose &transpose : kernel.transposes)
    requireKernel(binary, transpose.kernel);
}

} // namespace tgemm::runtime
