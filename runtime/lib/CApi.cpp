//===- CApi.cpp - The tgemm runtime for C and Python (ctypes) -------------===//

#include "tgemm/runtime/c_api.h"

#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/GemmRunner.h"
#include "tgemm/runtime/KernelBinary.h"
#include "tgemm/runtime/Manifest.h"

#include <cstring>
#include <memory>
#include <new>
#include <optional>

using namespace tgemm::runtime;

struct tgemm_rt_kernel {
  KernelManifest manifest;
  // Destroyed in reverse order: the runner and module before the device.
  std::unique_ptr<Device> device;
  std::unique_ptr<CompiledKernel> compiled;
  std::unique_ptr<GemmRunner> runner;
};

namespace {

thread_local std::string lastError;

/// Runs `body`, turning any exception into a status and lastError.
template <typename Body> int guarded(Body &&body) {
  try {
    lastError.clear();
    return body();
  } catch (const Error &e) {
    lastError = e.what();
    return exitCodeFor(e.kind());
  } catch (const std::bad_alloc &) {
    lastError = "out of host memory";
  } catch (const std::exception &e) {
    lastError = e.what();
  } catch (...) {
    lastError = "unknown error";
  }
  return TGEMM_RT_ERROR;
}

} // namespace

extern "C" {

int tgemm_rt_abi_version(void) { return TGEMM_RT_ABI_VERSION; }

size_t tgemm_rt_result_size(void) { return sizeof(tgemm_rt_result); }

tgemm_rt_kernel *tgemm_rt_load(const char *kernelPath,
                               const char *manifestPath,
                               const char *kernelName, int deviceOrdinal) {
  tgemm_rt_kernel *handle = nullptr;
  guarded([&] {
    if (!manifestPath)
      fail(ErrorKind::Usage, "tgemm_rt_load: the manifest path is NULL");
    Manifest manifest = readManifestFile(manifestPath);
    auto kernel = std::make_unique<tgemm_rt_kernel>();
    kernel->manifest =
        selectKernel(manifest, kernelName ? kernelName : "", manifestPath);
    std::optional<KernelBinary> binary;
    if (kernelPath) {
      binary = readKernelBinary(kernelPath);
      requireKernel(*binary, kernel->manifest.name);
    }
    kernel->device = std::make_unique<Device>(deviceOrdinal);
    if (binary)
      kernel->compiled = std::make_unique<CompiledKernel>(
          *kernel->device, kernel->manifest, *binary);
    kernel->runner = std::make_unique<GemmRunner>(
        *kernel->device, kernel->manifest, kernel->compiled.get());
    handle = kernel.release();
    return 0;
  });
  return handle;
}

int tgemm_rt_run(tgemm_rt_kernel *kernel, int64_t m, int64_t n, int64_t k,
                 int reps, int check, tgemm_rt_result *result) {
  return guarded([&] {
    if (!kernel || !result)
      fail(ErrorKind::Usage, "tgemm_rt_run: NULL kernel or result");
    if (reps < 0)
      fail(ErrorKind::Usage, "tgemm_rt_run: reps must be >= 0");
    if (check && !kernel->compiled)
      fail(ErrorKind::Usage,
           "tgemm_rt_run: check needs a kernel; this handle has none");
    auto given = [](int64_t size) {
      return size > 0 ? std::optional<int64_t>(size) : std::nullopt;
    };
    GemmShape shape =
        resolveShape(kernel->manifest, given(m), given(n), given(k));
    RunOptions options;
    options.reps = reps;
    options.check = check != 0;
    RunReport report = kernel->runner->run(shape, options);

    std::memset(result, 0, sizeof(*result));
    result->kernel_ms = report.kernelTime.medianMs;
    result->kernel_rate = report.kernelRate();
    result->anchor_ms = report.anchorTime.medianMs;
    result->anchor_rate = report.anchorRate();
    result->ratio = report.ratio();
    result->rel_error = report.comparison.relativeError;
    result->max_error = report.comparison.maxError;
    result->mismatches = report.comparison.mismatches;
    result->first_mismatch = report.comparison.firstMismatch;
    result->checked = report.checked;
    result->passed = report.checked && report.comparison.passed;
    result->integer = report.gemm.isInteger();
    result->reps = reps;
    std::string anchor = report.anchorName + " " + report.anchorLayout;
    std::strncpy(result->anchor, anchor.c_str(), sizeof(result->anchor) - 1);
    if (report.checked && !report.comparison.passed) {
      lastError = "wrong result: kernel '" + kernel->manifest.name +
                  "' differs from " + report.checkedAgainst + ": " +
                  report.comparison.describeFailure();
      return static_cast<int>(TGEMM_RT_WRONG_RESULT);
    }
    return static_cast<int>(TGEMM_RT_OK);
  });
}

const char *tgemm_rt_last_error(void) { return lastError.c_str(); }

void tgemm_rt_free(tgemm_rt_kernel *kernel) {
  guarded([&] {
    delete kernel;
    return 0;
  });
}

} // extern "C"
