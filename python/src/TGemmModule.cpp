//===- TGemmModule.cpp - The tgemm._tgemm Python extension ----------------===//
//
// The compiled half of the `tgemm` Python package: compiles MLIR text
// through the tgemm pipeline, and gives the default tile configs and the
// known chips. The Python half (python/tgemm/) turns results into objects
// and errors into exceptions; keeping that logic in Python keeps this file a
// thin layer over tgemm::compileSource.
//
//===----------------------------------------------------------------------===//

#include "tgemm/Target/CompileSource.h"
#include "tgemm/Target/DefaultConfigs.h"
#include "tgemm/Target/InstructionFacts.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>

namespace py = pybind11;

namespace {

py::dict compileToDict(const std::string &source,
                       const tgemm::CompileOptions &options) {
  tgemm::CompileResult result;
  {
    // Compiling takes a while and touches no Python object.
    py::gil_scoped_release release;
    result = tgemm::compileSource(source, options);
  }
  py::list modules;
  for (const tgemm::CompiledArtifact &m : result.modules) {
    py::dict module;
    module["name"] = m.module;
    module["chip"] = m.chip;
    module["ptx"] = m.ptx;
    module["cubin"] = options.emitCubin ? py::object(py::bytes(m.cubin))
                                        : py::object(py::none());
    modules.append(module);
  }
  py::dict out;
  out["success"] = result.success;
  // Bytes: a diagnostic quotes source lines, which need not be valid UTF-8.
  out["diagnostics"] = py::bytes(result.diagnostics);
  out["modules"] = modules;
  out["manifest"] = result.manifestJson;
  return out;
}

} // namespace

PYBIND11_MODULE(_tgemm, m) {
  m.doc() = "tgemm's compiler: MLIR text to PTX, cubin and launch manifest";

  m.def(
      "compile",
      [](const std::string &source, const std::string &lowering,
         const std::string &chip, int64_t stages, bool asyncCopy, bool ldmatrix,
         const std::string &swizzle, int64_t padding, unsigned optLevel,
         bool emitCubin, const std::string &ptxas,
         const std::string &sourceName) {
        tgemm::CompileOptions options;
        options.lowering = lowering;
        options.chip = chip;
        options.stages = stages;
        options.asyncCopy = asyncCopy;
        options.ldmatrix = ldmatrix;
        options.swizzle = swizzle;
        options.padding = padding;
        options.optLevel = optLevel;
        options.emitCubin = emitCubin;
        options.ptxas = ptxas;
        options.sourceName = sourceName;
        return compileToDict(source, options);
      },
      py::arg("source"), py::arg("lowering"), py::arg("chip"),
      py::arg("stages"), py::arg("async_copy"), py::arg("ldmatrix"),
      py::arg("swizzle"), py::arg("padding"), py::arg("opt_level"),
      py::arg("emit_cubin"), py::arg("ptxas"), py::arg("source_name"),
      "Compiles MLIR text; returns {success, diagnostics, modules: [{name, "
      "chip, ptx, cubin}], manifest (JSON text)}.");

  m.def(
      "default_config",
      [](const std::string &a, const std::string &b,
         const std::string &acc) -> py::object {
        auto ka = tgemm::parseElemKind(a), kb = tgemm::parseElemKind(b),
             kacc = tgemm::parseElemKind(acc);
        if (!ka || !kb || !kacc)
          return py::none();
        std::optional<tgemm::TileConfig> config =
            tgemm::defaultConfig(*ka, *kb, *kacc);
        if (!config)
          return py::none();
        py::dict out;
        out["block"] = py::make_tuple(config->block[0], config->block[1],
                                      config->block[2]);
        out["warps"] = py::make_tuple(config->warps[0], config->warps[1]);
        out["stages"] = config->stages;
        out["raster"] = config->raster;
        return out;
      },
      py::arg("a"), py::arg("b"), py::arg("acc"),
      "The default tile config for A x B -> acc (element kinds named as in "
      "the manifest: f16, bf16, tf32, s8, u8, s4, e4m3, e5m2, f32, s32), or "
      "None when no instruction computes it.");

  m.def(
      "chips",
      [] {
        py::list out;
        for (const tgemm::ChipInfo &chip : tgemm::getChips())
          out.append(py::str(chip.name.str()));
        return out;
      },
      "The chips tgemm compiles for.");
}
