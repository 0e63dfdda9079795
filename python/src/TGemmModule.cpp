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
#include "tgemm/Target/Legality.h"
#include "tgemm/runtime/ElementType.h"
#include "tgemm/runtime/Manifest.h"
#include "tgemm/Version.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
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
  // The package checks it against its own (tgemm.__version__).
  m.attr("__version__") = TGEMM_VERSION_STRING;

  m.def(
      "compile",
      [](const std::string &source, const std::string &lowering,
         const std::string &chip, int64_t stages, bool asyncCopy, bool ldmatrix,
         const std::string &swizzle, int64_t padding, unsigned optLevel,
         bool emitCubin, const std::string &ptxas,
         const std::string &sourceName, std::optional<bool> warpSpecialize,
         std::optional<bool> tma, std::optional<bool> setmaxnreg,
         std::optional<bool> persistent, std::optional<int64_t> cluster,
         std::optional<bool> tmaStore, std::optional<bool> transposeKernel,
         std::optional<bool> alignKernel) {
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
        options.warpSpecialize = warpSpecialize;
        options.tma = tma;
        options.setmaxnreg = setmaxnreg;
        options.persistent = persistent;
        options.cluster = cluster;
        options.tmaStore = tmaStore;
        options.transposeKernel = transposeKernel;
        options.alignKernel = alignKernel;
        return compileToDict(source, options);
      },
      py::arg("source"), py::arg("lowering"), py::arg("chip"),
      py::arg("stages"), py::arg("async_copy"), py::arg("ldmatrix"),
      py::arg("swizzle"), py::arg("padding"), py::arg("opt_level"),
      py::arg("emit_cubin"), py::arg("ptxas"), py::arg("source_name"),
      py::arg("warp_specialize") = py::none(), py::arg("tma") = py::none(),
      py::arg("setmaxnreg") = py::none(), py::arg("persistent") = py::none(),
      py::arg("cluster") = py::none(), py::arg("tma_store") = py::none(),
      py::arg("transpose_kernel") = py::none(),
      py::arg("align_kernel") = py::none(),
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
        out["split_k"] = config->splitK;
        return out;
      },
      py::arg("a"), py::arg("b"), py::arg("acc"),
      "The default tile config for A x B -> acc (element kinds named as in "
      "the manifest: f16, bf16, tf32, s8, u8, s4, e4m3, e5m2, f32, s32), or "
      "None when no instruction computes it.");

  m.def(
      "element_types",
      [] { return ::tgemm::runtime::elementTypesJson(); },
      "tgemm's element types as JSON text (name, mlir, bits, integer, "
      "float8, operand, result): the table the compiler and the runtime "
      "share.");

  m.def(
      "check_manifest",
      [](const std::string &text, const std::string &name) -> py::object {
        ::tgemm::runtime::Manifest manifest;
        std::string error;
        if (::tgemm::runtime::tryParseManifest(text, name, manifest, error))
          return py::none();
        return py::str(error);
      },
      py::arg("text"), py::arg("name"),
      "Checks manifest text with the runtime's own reader: None if it is "
      "valid, else the reason (\"NAME: kernels[0].grid: ...\").");

  m.def(
      "check_config",
      [](const std::string &a, const std::string &b, const std::string &acc,
         const std::string &c, bool rowA, bool rowB, std::optional<int64_t> m,
         std::optional<int64_t> n, std::optional<int64_t> k,
         std::array<int64_t, 3> block, std::array<int64_t, 2> warps,
         int64_t stages, int64_t raster, const std::string &chip,
         const std::string &family,
         std::optional<std::string> swizzle) -> py::object {
        auto ka = tgemm::parseElemKind(a), kb = tgemm::parseElemKind(b),
             kacc = tgemm::parseElemKind(acc), kc = tgemm::parseElemKind(c);
        if (!ka || !kb || !kacc || !kc)
          throw py::value_error("unknown element type among " + a + ", " + b +
                                ", " + acc + ", " + c + " (expected one of " +
                                ::tgemm::runtime::allElementTypeNames() + ")");
        const tgemm::ChipInfo *info = tgemm::lookupChip(chip);
        if (!info)
          throw py::value_error(tgemm::chipNameError(chip));
        std::optional<tgemm::Family> fam = tgemm::parseFamily(family);
        if (!fam)
          throw py::value_error(tgemm::familyNameError(family));
        tgemm::Problem problem{*ka, *kb, *kacc, *kc};
        problem.rowA = rowA;
        problem.rowB = rowB;
        problem.m = m.value_or(tgemm::kDynamicSize);
        problem.n = n.value_or(tgemm::kDynamicSize);
        problem.k = k.value_or(tgemm::kDynamicSize);
        tgemm::TileConfig config{block, warps, stages, raster};
        tgemm::Schedule schedule = tgemm::defaultSchedule(*fam, config);
        if (swizzle) {
          std::optional<tgemm::Swizzle> parsed = tgemm::parseSwizzle(*swizzle);
          if (!parsed)
            throw py::value_error(tgemm::swizzleNameError(*swizzle));
          schedule.swizzle = *parsed;
        }
        tgemm::Verdict verdict = tgemm::checkForTarget(
            problem, &config, schedule, {info, *fam});
        py::dict out;
        out["rule"] = verdict ? py::object(py::str(verdict->rule)) : py::none();
        out["message"] =
            verdict ? py::object(py::str(verdict->message)) : py::none();
        // The plan the lowering lays out, and the manifest states, when the
        // rules that it depends on hold.
        out["shared_memory"] =
            verdict && verdict->rule != "shared-memory"
                ? py::object(py::none())
                : py::object(py::int_(
                      tgemm::planSharedMemory(problem, config, schedule, *fam)
                          .totalBytes));
        return out;
      },
      py::arg("a"), py::arg("b"), py::arg("acc"), py::arg("c"),
      py::arg("row_a"), py::arg("row_b"), py::arg("m"), py::arg("n"),
      py::arg("k"), py::arg("block"), py::arg("warps"), py::arg("stages"),
      py::arg("raster"), py::arg("chip"), py::arg("family"),
      py::arg("swizzle") = py::none(),
      "The legality module's verdict on a problem, tile config and the "
      "family's default schedule (swizzle overridden if given) on a chip: "
      "{rule, message} (None when legal) and the kernel's dynamic shared "
      "memory (None when an earlier rule fails).");

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
