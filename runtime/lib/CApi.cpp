//===- CApi.cpp - The tgemm runtime for C and Python (ctypes) -------------===//

#include "tgemm/runtime/c_api.h"

#include "tgemm/runtime/Error.h"
#include "tgemm/runtime/GemmRunner.h"
#include "tgemm/runtime/KernelBinary.h"
#include "tgemm/runtime/Launcher.h"
#include "tgemm/runtime/Manifest.h"
#include "tgemm/Version.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <optional>

using namespace tgemm::runtime;

struct tgemm_rt_kernel {
  KernelManifest manifest;
  // Destroyed in reverse order: the runner and module before the device.
  std::unique_ptr<Device> device;
  std::unique_ptr<KernelLauncher> launcher;
  // Made on the first run (it opens cuBLAS), so that a handle that only
  // launches needs no library.
  std::once_flag runnerOnce;
  std::unique_ptr<GemmRunner> runner;

  GemmRunner &getRunner() {
    std::call_once(runnerOnce, [&] {
      runner = std::make_unique<GemmRunner>(
          *device, manifest, launcher ? &launcher->kernel() : nullptr);
    });
    return *runner;
  }
};

namespace {

thread_local std::string lastError;

/// The shape of `options` for `kernel`, checked as far as possible without
/// a device (sizes, batch, requirements, grid, storage); fills in
/// `runOptions`' storage requests when given.
GemmShape resolveRun(const KernelManifest &kernel,
                     const tgemm_rt_options &options,
                     RunOptions *runOptions = nullptr) {
  auto given = [](int64_t value) {
    return value != 0 ? std::optional<int64_t>(value) : std::nullopt;
  };
  GemmShape shape = resolveShape(kernel, given(options.m), given(options.n),
                                 given(options.k), given(options.batch));
  checkRequirements(kernel, shape);
  computeLaunch(kernel, shape);
  StorageRequests storage;
  storage[0] = {given(options.lda), given(options.offset_a)};
  storage[1] = {given(options.ldb), given(options.offset_b)};
  storage[2] = {given(options.ldc), given(options.offset_c)};
  resolveStorage(kernel, shape, storage);
  if (runOptions)
    runOptions->storage = storage;
  return shape;
}

/// The C launch arguments as a request: 0 sizes are "not given", negative
/// ones are errors (resolveLaunch says so).
LaunchRequest launchRequest(const tgemm_rt_launch_args &args) {
  auto given = [](int64_t value) {
    return value != 0 ? std::optional<int64_t>(value) : std::nullopt;
  };
  LaunchRequest request;
  request.m = given(args.m);
  request.n = given(args.n);
  request.k = given(args.k);
  request.batch = given(args.batch);
  const tgemm_rt_matrix *matrices[3] = {&args.a, &args.b, &args.c};
  for (int i = 0; i < 3; ++i)
    request.operands[i] = {matrices[i]->data, matrices[i]->ld,
                           matrices[i]->batch_stride};
  if (args.num_epilogue < 0)
    fail(ErrorKind::Usage, "num_epilogue must not be negative, got " +
                               std::to_string(args.num_epilogue));
  if (args.num_epilogue > 0 && !args.epilogue)
    fail(ErrorKind::Usage, "num_epilogue is " +
                               std::to_string(args.num_epilogue) +
                               " but the epilogue array is NULL");
  if (args.num_epilogue > 0)
    request.epilogue.assign(args.epilogue, args.epilogue + args.num_epilogue);
  request.stream = static_cast<CUstream>(args.stream);
  request.workspace = args.workspace;
  request.workspaceBytes = args.workspace_bytes;
  return request;
}

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

const char *tgemm_rt_version(void) { return TGEMM_VERSION_STRING; }

size_t tgemm_rt_result_size(void) { return sizeof(tgemm_rt_result); }

const char *tgemm_rt_element_types(void) {
  return elementTypesJson().c_str();
}

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
      requireKernels(*binary, kernel->manifest);
    }
    kernel->device = std::make_unique<Device>(deviceOrdinal);
    if (binary)
      kernel->launcher = std::make_unique<KernelLauncher>(
          *kernel->device, kernel->manifest, *binary);
    handle = kernel.release();
    return 0;
  });
  return handle;
}

size_t tgemm_rt_options_size(void) { return sizeof(tgemm_rt_options); }

void tgemm_rt_options_init(tgemm_rt_options *options) {
  if (options)
    std::memset(options, 0, sizeof(*options));
}

int tgemm_rt_validate(const char *manifestPath, const char *kernelName,
                      const tgemm_rt_options *options) {
  return guarded([&] {
    if (!manifestPath || !options)
      fail(ErrorKind::Usage,
           "tgemm_rt_validate: NULL manifest path or options");
    Manifest manifest = readManifestFile(manifestPath);
    const KernelManifest &kernel =
        selectKernel(manifest, kernelName ? kernelName : "", manifestPath);
    resolveRun(kernel, *options);
    return static_cast<int>(TGEMM_RT_OK);
  });
}

int tgemm_rt_run_with(tgemm_rt_kernel *kernel, const tgemm_rt_options *options,
                      tgemm_rt_result *result) {
  return guarded([&] {
    if (!kernel || !options || !result)
      fail(ErrorKind::Usage,
           "tgemm_rt_run_with: NULL kernel, options or result");
    if (options->reps < 0)
      fail(ErrorKind::Usage, "tgemm_rt_run_with: reps must be >= 0");
    if (options->check && !kernel->launcher)
      fail(ErrorKind::Usage,
           "tgemm_rt_run_with: check needs a kernel; this handle has none");
    RunOptions runOptions;
    GemmShape shape = resolveRun(kernel->manifest, *options, &runOptions);
    runOptions.reps = options->reps;
    runOptions.check = options->check != 0;
    RunReport report = kernel->getRunner().run(shape, runOptions);

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
    result->reps = options->reps;
    std::string anchor = report.anchorName + " " + report.anchorLayout;
    std::strncpy(result->anchor, anchor.c_str(), sizeof(result->anchor) - 1);
    if (report.checked && !report.comparison.passed) {
      lastError = "wrong result: kernel '" + kernel->manifest.name +
                  "' differs from " + report.checkedAgainst + " at " +
                  shape.str() + ": " + report.comparison.describeFailure();
      return static_cast<int>(TGEMM_RT_WRONG_RESULT);
    }
    return static_cast<int>(TGEMM_RT_OK);
  });
}

size_t tgemm_rt_launch_args_size(void) { return sizeof(tgemm_rt_launch_args); }

int tgemm_rt_launch(tgemm_rt_kernel *kernel, const tgemm_rt_launch_args *args) {
  return guarded([&] {
    if (!kernel || !args)
      fail(ErrorKind::Usage, "tgemm_rt_launch: NULL kernel or arguments");
    if (!kernel->launcher)
      fail(ErrorKind::Usage,
           "tgemm_rt_launch: this handle was loaded without a kernel");
    LaunchRequest request = launchRequest(*args);
    kernel->launcher->launch(request);
    return static_cast<int>(TGEMM_RT_OK);
  });
}

int tgemm_rt_workspace_bytes(tgemm_rt_kernel *kernel,
                             const tgemm_rt_launch_args *args,
                             int64_t *bytes) {
  return guarded([&] {
    if (!kernel || !args || !bytes)
      fail(ErrorKind::Usage,
           "tgemm_rt_workspace_bytes: NULL kernel, arguments or result");
    LaunchRequest request = launchRequest(*args);
    auto size = [](std::optional<int64_t> v, const char *what) {
      if (v && *v < 1)
        fail(ErrorKind::Usage, std::string(what) + " must be positive, got " +
                                   std::to_string(*v));
      return v;
    };
    GemmShape shape = resolveShape(kernel->manifest, size(request.m, "M"),
                                   size(request.n, "N"), size(request.k, "K"),
                                   size(request.batch, "the batch"));
    *bytes = workspaceBytes(kernel->manifest, shape);
    return static_cast<int>(TGEMM_RT_OK);
  });
}

int tgemm_rt_check_launch(const char *manifestPath, const char *kernelName,
                          const tgemm_rt_launch_args *args) {
  return guarded([&] {
    if (!manifestPath || !args)
      fail(ErrorKind::Usage,
           "tgemm_rt_check_launch: NULL manifest path or arguments");
    Manifest manifest = readManifestFile(manifestPath);
    const KernelManifest &kernel =
        selectKernel(manifest, kernelName ? kernelName : "", manifestPath);
    resolveLaunch(kernel, launchRequest(*args));
    return static_cast<int>(TGEMM_RT_OK);
  });
}

int tgemm_rt_run(tgemm_rt_kernel *kernel, int64_t m, int64_t n, int64_t k,
                 int reps, int check, tgemm_rt_result *result) {
  if (!kernel || !result)
    return guarded([] {
      fail(ErrorKind::Usage, "tgemm_rt_run: NULL kernel or result");
      return 0;
    });
  if (reps < 0)
    return guarded([] {
      fail(ErrorKind::Usage, "tgemm_rt_run: reps must be >= 0");
      return 0;
    });
  if (check && !kernel->launcher)
    return guarded([] {
      fail(ErrorKind::Usage,
           "tgemm_rt_run: check needs a kernel; this handle has none");
      return 0;
    });
  tgemm_rt_options options;
  tgemm_rt_options_init(&options);
  // Non-positive sizes meant "static" here, as 0 does in tgemm_rt_options.
  options.m = m > 0 ? m : 0;
  options.n = n > 0 ? n : 0;
  options.k = k > 0 ? k : 0;
  options.reps = reps;
  options.check = check;
  return tgemm_rt_run_with(kernel, &options, result);
}

const char *tgemm_rt_last_error(void) { return lastError.c_str(); }

void tgemm_rt_free(tgemm_rt_kernel *kernel) {
  guarded([&] {
    delete kernel;
    return 0;
  });
}

} // extern "C"
