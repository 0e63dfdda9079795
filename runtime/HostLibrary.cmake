# TGemmRuntimeHost: the part of the runtime that needs no CUDA: the element
# types, the JSON reader and writer, the manifest schema with its reader and
# writer, and what tgemm-run derives from a manifest and M, N, K before it
# needs a device (shape, requirements, launch dimensions, kernel
# parameters). TGemmRuntimeCore links it; so does the compiler (its
# instruction facts and manifest writer use the same vocabulary and schema),
# and the manifest fuzzer (fuzz/), with a compiler and flags that CUDA does
# not accept.
include_guard(GLOBAL)

add_library(TGemmRuntimeHost STATIC
  ${CMAKE_CURRENT_LIST_DIR}/lib/ElementType.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lib/Error.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lib/Json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lib/KernelArgs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lib/Manifest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lib/Problem.cpp
)
target_include_directories(TGemmRuntimeHost PUBLIC
  $<BUILD_INTERFACE:${CMAKE_CURRENT_LIST_DIR}/include>
  $<INSTALL_INTERFACE:include>)
set_target_properties(TGemmRuntimeHost PROPERTIES
  POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden)
# Errors are exceptions (Error.h), whatever the including project's defaults.
target_compile_options(TGemmRuntimeHost PRIVATE -Wall -Wextra -fexceptions)
