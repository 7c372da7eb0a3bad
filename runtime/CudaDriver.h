//===- CudaDriver.h - The CUDA driver, loaded when first needed -*- C++ -*-===//
//
// The runtime and kiln-run call the CUDA Driver API through a table of function
// pointers instead of linking libcuda.so.1. So libkiln_runtime.so and kiln-run
// load, read manifests and answer queries on a machine without an NVIDIA driver
// (where Python users compile with kiln.compile(..., chip="sm_90a")); the
// driver is looked for at the first call that needs the GPU, and without one
// that call fails with a status that says so instead of the program failing to
// start.
//
// Each entry point is looked up under the name cuda.h maps it to (cuMemAlloc
// is cuMemAlloc_v2, cuMemcpyHtoD is cuMemcpyHtoD_v2, ...): the symbol a program
// linked against libcuda.so binds, so calls behave as they did when linked.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDADRIVER_H
#define KILN_RUNTIME_CUDADRIVER_H

#include "runtime/Status.h"

#include <cuda.h>

#include <string>

/// The entry points the runtime library calls (Runtime.cpp). A driver must
/// have all of them (CUDA 12.4 or newer: cuFuncGetParamInfo) for the library
/// to use it.
#define KILN_CUDA_LIBRARY_FUNCTIONS(X)                                         \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxGetDevice)                                                            \
  X(cuCtxPopCurrent)                                                           \
  X(cuCtxPushCurrent)                                                          \
  X(cuCtxSetCurrent)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceGetName)                                                           \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncGetParamInfo)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuInit)                                                                    \
  X(cuLaunchKernelEx)                                                          \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemsetD8Async)                                                           \
  X(cuMemsetD32Async)                                                          \
  X(cuModuleGetFunction)                                                       \
  X(cuModuleLoadData)                                                          \
  X(cuModuleUnload)                                                            \
  X(cuOccupancyMaxActiveClusters)                                              \
  X(cuPointerGetAttribute)                                                     \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamGetCtx)                                                            \
  X(cuStreamSynchronize)                                                       \
  X(cuTensorMapEncodeTiled)                                                    \
  X(cuThreadExchangeStreamCaptureMode)

/// The entry points only kiln-run calls (its device, buffers and timing). They
/// are kept apart because cuda.h may map them to newer symbols than the
/// library needs (CUDA 13's cuEventElapsedTime is cuEventElapsedTime_v2, new in
/// 12.8): a driver without them still serves the library, and kiln-run checks
/// them itself (checkToolFunctions).
#define KILN_CUDA_TOOL_FUNCTIONS(X)                                            \
  X(cuDeviceGet)                                                               \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventElapsedTime)                                                        \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemsetD8)

// Internal to the runtime: the version script exports everything in namespace
// kiln from libkiln_runtime.so, and this table is not part of its API.
#if defined(__GNUC__)
#define KILN_DRIVER_INTERNAL __attribute__((visibility("hidden")))
#else
#define KILN_DRIVER_INTERNAL
#endif

namespace kiln {
namespace driver KILN_DRIVER_INTERNAL {

/// The driver's entry points. Members are named as cuda.h's macros expand the
/// function names, so `d.cuMemAlloc(&p, n)` calls cuMemAlloc_v2 exactly as a
/// linked call would.
struct CudaDriver {
#define KILN_CUDA_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  KILN_CUDA_LIBRARY_FUNCTIONS(KILN_CUDA_DRIVER_MEMBER)
  KILN_CUDA_TOOL_FUNCTIONS(KILN_CUDA_DRIVER_MEMBER)
#undef KILN_CUDA_DRIVER_MEMBER
};

/// The driver library the runtime loads: the name the NVIDIA driver installs,
/// found by the dynamic loader's search (LD_LIBRARY_PATH, ld.so.cache).
constexpr const char *kDriverLibrary = "libcuda.so.1";
/// An environment variable naming another driver library file to load instead
/// (a driver outside the loader's search; tests).
constexpr const char *kDriverLibraryEnv = "KILN_LIBCUDA";

/// Opens `library` (a path, or a name for the loader to search) and resolves
/// every entry point into `out`: those of KILN_CUDA_LIBRARY_FUNCTIONS must
/// exist, those of KILN_CUDA_TOOL_FUNCTIONS stay null when missing. On failure
/// `out` is all null and the status (ErrorCode::Device) says that the driver
/// could not be loaded and why, that launching needs a GPU and its driver and
/// that compiling does not. `fromEnv` says `library` came from $KILN_LIBCUDA,
/// which the message then names. The library is never unloaded after success.
Status openCudaDriver(const std::string &library, bool fromEnv,
                      CudaDriver &out);

/// The process's driver: $KILN_LIBCUDA when set and not empty, else
/// libcuda.so.1, loaded at the first call from any thread (std::call_once).
/// Sets `out` to the table and returns success, or returns the failure with
/// `out` null; the outcome of the first call is kept, so every later call
/// reports the same. Nothing is loaded before the first call.
Status cudaDriver(const CudaDriver *&out);

/// The table once cudaDriver() has succeeded (on any thread), else nullptr.
/// Never loads anything: for code that only runs after a successful
/// cudaDriver() call.
const CudaDriver *loadedCudaDriver();

/// Fails (ErrorCode::Device) naming the first of KILN_CUDA_TOOL_FUNCTIONS the
/// loaded driver lacks: kiln-run needs them all.
Status checkToolFunctions(const CudaDriver &d);

} // namespace KILN_DRIVER_INTERNAL
} // namespace kiln

#endif // KILN_RUNTIME_CUDADRIVER_H
