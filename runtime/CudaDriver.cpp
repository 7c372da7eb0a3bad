//===- CudaDriver.cpp - The CUDA driver, loaded when first needed ---------===//
//
// dlopen + dlsym over the entry point lists of CudaDriver.h.
//
//===----------------------------------------------------------------------===//

#include "runtime/CudaDriver.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace kiln {
namespace driver {

namespace {

// Two levels, so the argument is macro-expanded first: the symbol of
// cuMemAlloc is "cuMemAlloc_v2", the name cuda.h's #define gives it.
#define KILN_DRIVER_SYMBOL_(name) #name
#define KILN_DRIVER_SYMBOL(name) KILN_DRIVER_SYMBOL_(name)

/// What every message about a missing driver ends with: what needs one and
/// what does not, so nobody reinstalls Kiln to compile on a GPU-less machine.
const char *const kNeedsDriver =
    ": launching a Kiln kernel needs an NVIDIA GPU and its driver; compiling "
    "one does not (kiln compile --chip sm_90a, or kiln.compile(..., "
    "chip=\"sm_90a\") in Python)";

std::string lastDlError() {
  const char *e = dlerror();
  return e ? e : "no reason given";
}

/// Looks up `symbol` in `handle` into `slot`; false (with dlerror's text in
/// `why`) when the library does not have it.
template <typename Fn>
bool resolve(void *handle, const char *symbol, Fn &slot, std::string &why) {
  dlerror(); // a stale message must not be taken for this lookup's
  void *p = dlsym(handle, symbol);
  if (!p) {
    why = lastDlError();
    return false;
  }
  // POSIX guarantees that a function's address from dlsym converts back.
  slot = reinterpret_cast<Fn>(p);
  return true;
}

std::atomic<const CudaDriver *> loaded{nullptr};

} // namespace

Status openCudaDriver(const std::string &library, bool fromEnv,
                      CudaDriver &out) {
  out = CudaDriver();
  std::string label =
      fromEnv ? library + ", from " + kDriverLibraryEnv : library;
  auto failure = [&](const std::string &why) {
    return Status::error(ErrorCode::Device, "the NVIDIA driver (" + label +
                                                ") could not be loaded (" +
                                                why + ")" + kNeedsDriver);
  };

  dlerror();
  // RTLD_NOW: a library that cannot be fully bound is refused here, not at a
  // later call. RTLD_LOCAL: its symbols stay out of the global namespace, as
  // they would for any library the program did not link.
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return failure(lastDlError());

  CudaDriver table;
  std::string why;
  bool complete = true;
#define KILN_DRIVER_RESOLVE_REQUIRED(name)                                     \
  complete =                                                                   \
      complete && resolve(handle, KILN_DRIVER_SYMBOL(name), table.name, why);
  KILN_CUDA_LIBRARY_FUNCTIONS(KILN_DRIVER_RESOLVE_REQUIRED)
#undef KILN_DRIVER_RESOLVE_REQUIRED
  if (!complete) {
    // Nothing was called, so closing it is safe; a process that has the
    // driver open elsewhere (PyTorch) keeps its own reference.
    dlclose(handle);
    // dlerror's text names the symbol.
    return failure(why + "; Kiln needs a driver of CUDA 12.4 or newer");
  }
  std::string ignored;
#define KILN_DRIVER_RESOLVE_OPTIONAL(name)                                     \
  resolve(handle, KILN_DRIVER_SYMBOL(name), table.name, ignored);
  KILN_CUDA_TOOL_FUNCTIONS(KILN_DRIVER_RESOLVE_OPTIONAL)
#undef KILN_DRIVER_RESOLVE_OPTIONAL
  // The handle is dropped, not closed: the table points into the library for
  // the rest of the process.
  out = table;
  return Status();
}

Status cudaDriver(const CudaDriver *&out) {
  static std::once_flag once;
  static CudaDriver table;
  static Status status;
  std::call_once(once, [] {
    const char *env = std::getenv(kDriverLibraryEnv);
    bool fromEnv = env && *env;
    status = openCudaDriver(fromEnv ? env : kDriverLibrary, fromEnv, table);
    if (status.ok())
      loaded.store(&table, std::memory_order_release);
  });
  out = status.ok() ? &table : nullptr;
  return status;
}

const CudaDriver *loadedCudaDriver() {
  return loaded.load(std::memory_order_acquire);
}

Status checkToolFunctions(const CudaDriver &d) {
#define KILN_DRIVER_CHECK_TOOL(name)                                           \
  if (!d.name)                                                                 \
    return Status::error(                                                      \
        ErrorCode::Device,                                                     \
        std::string("the NVIDIA driver has no ") + KILN_DRIVER_SYMBOL(name) +  \
            ", which kiln-run calls: it is older than the CUDA " +             \
            std::to_string(CUDA_VERSION / 1000) + "." +                        \
            std::to_string(CUDA_VERSION % 1000 / 10) +                         \
            " kiln-run was built with; update the driver");
  KILN_CUDA_TOOL_FUNCTIONS(KILN_DRIVER_CHECK_TOOL)
#undef KILN_DRIVER_CHECK_TOOL
  return Status();
}

} // namespace driver
} // namespace kiln
