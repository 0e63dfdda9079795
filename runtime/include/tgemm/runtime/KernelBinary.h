//===- KernelBinary.h - PTX, cubin and fatbin files -----------------------===//
//
// Reads a compiled kernel file, recognises its format, and lists the kernels
// it defines without a GPU (PTX `.entry` directives, or the cubin's ELF
// symbol table), so that a manifest naming a kernel the file lacks is
// reported before any device work: "PTX has no kernel 'x'; it has: a, b".
//
//===----------------------------------------------------------------------===//

#ifndef TGEMM_RUNTIME_KERNELBINARY_H
#define TGEMM_RUNTIME_KERNELBINARY_H

#include <string>
#include <string_view>
#include <vector>

namespace tgemm::runtime {

enum class BinaryFormat { Ptx, Cubin, Fatbin };
const char *binaryFormatName(BinaryFormat format);

struct KernelBinary {
  std::string path;
  BinaryFormat format = BinaryFormat::Ptx;
  /// The file's bytes (PTX without a terminating NUL).
  std::string bytes;
  /// Kernels the file defines; empty and !kernelsKnown for a fatbin.
  std::vector<std::string> kernels;
  bool kernelsKnown = false;
  /// PTX only: the `.target` (e.g. "sm_90a").
  std::string ptxTarget;
};

/// Recognises and indexes `bytes` read from `path`. Throws Error(Input) for
/// an empty file, one that is neither PTX nor ELF nor a fatbin, or a
/// malformed ELF.
KernelBinary parseKernelBinary(std::string bytes, const std::string &path);

/// Reads and indexes a file. Throws Error(Input) if it cannot be read.
KernelBinary readKernelBinary(const std::string &path);

/// Throws Error(Input) if the file is known not to define kernel `name`.
void requireKernel(const KernelBinary &binary, const std::string &name);

struct KernelManifest;
/// requireKernel for the manifest's kernel and each of its transposing
/// kernels (KernelManifest::transposes).
void requireKernels(const KernelBinary &binary, const KernelManifest &kernel);

/// The `.entry` names of PTX text, in order (comments ignored).
std::vector<std::string> listPtxEntries(std::string_view ptx);

} // namespace tgemm::runtime

#endif // TGEMM_RUNTIME_KERNELBINARY_H
