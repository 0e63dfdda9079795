//===- SanitizerOptions.cpp - ASan defaults for the fuzz build ------------===//
//
// Linked into every executable of the fuzz build (the harnesses, tgemm-opt,
// tgemm-translate), so that a finding replays with the options it was found
// with, whichever way it is run.
//
// allow_user_poisoning=0: llvm::BumpPtrAllocator poisons a fresh slab and
// unpoisons each piece it hands out, but only where the allocator's inline
// code was compiled with ASan. tgemm's instrumented code and the
// uninstrumented libMLIR.so share the same allocators (the context's storage
// uniquer, say): a slab that tgemm's copy started and poisoned is then handed
// out by the library's copy, which never unpoisons it, and the library's
// first write into it reads as a use-after-poison. That report is about the
// build mix, not about tgemm; turning off manual poisoning removes it and
// keeps every check ASan makes on its own (heap redzones, use-after-free,
// stack and global overflows, leaks).
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
