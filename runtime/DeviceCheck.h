//===- DeviceCheck.h - Can this device run this kernel? --------*- C++ -*-===//
//
// The device-dependent checks, as pure functions of numbers the runtime queries
// from the driver once per context, so the messages are unit-tested without a
// GPU.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_DEVICECHECK_H
#define KILN_RUNTIME_DEVICECHECK_H

#include "runtime/LaunchPlan.h"

#include <cstdint>
#include <string>

namespace kiln {

/// What the runtime knows about a device and the loaded entry function.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  /// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN.
  int64_t maxSmemPerBlockOptin = 0;
};

/// What the driver reports about the loaded entry function.
struct FunctionInfo {
  /// CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES.
  int64_t staticSmem = 0;
  /// CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK (limited by the function's
  /// registers).
  int64_t maxThreadsPerBlock = 1024;
};

/// Splits "sm_90a" into 9, 0, 'a' ("sm_100a": 10, 0, 'a'; "sm_89": 8, 9, 0).
/// The last digit is the minor version.
bool parseChip(const std::string &chip, int &major, int &minor, char &suffix);

/// Whether a cubin for `chip` runs on compute capability major.minor:
/// arch-specific chips ("sm_90a") need exactly that capability, family chips
/// ("sm_100f") the same major and a minor at least theirs, plain chips at least
/// their capability.
bool chipRunsOn(const std::string &chip, int major, int minor);

/// Chip/compute capability match: the module cannot even be loaded otherwise.
bool checkChip(const LaunchPlan &plan, const DeviceInfo &dev,
               std::string &error);

/// Shared memory and thread limits of the loaded function.
bool checkFunctionLimits(const LaunchPlan &plan, const DeviceInfo &dev,
                         const FunctionInfo &fn, std::string &error);

} // namespace kiln

#endif // KILN_RUNTIME_DEVICECHECK_H
