//===- KernelArgs.h - The entry function's parameter list ------*- C++ -*-===//
//
// How manifest kernel_args become the `kernelParams` of cuLaunchKernelEx: one
// pointer per entry parameter, in manifest order, each to a value of the
// parameter's exact size:
//
//   tensor_map  128-byte CUtensorMap, 128-byte aligned (__grid_constant__)
//   pointer     u64 device address of the param
//   dim         i32 bound dim value
//   stride      i64 stride of the param's axis, in elements of its dtype
//   tma_ok      i32 1 if that map was encoded, 0 if optional and skipped
//
// The driver copies the values at launch, so the storage only has to outlive
// the launch call.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_KERNELARGS_H
#define KILN_RUNTIME_KERNELARGS_H

#include "runtime/ArgCheck.h"
#include "runtime/LaunchPlan.h"
#include "runtime/Tensor.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// Bytes a kernel argument of kind `k` occupies in the entry's parameter list.
size_t kernelArgBytes(KernelArgKind k);

/// Checks the manifest's kernel_args against the parameter sizes the cubin
/// declares for the entry (cuFuncGetParamInfo), so a manifest that drifted from
/// its cubin fails before a launch passes garbage.
bool checkEntryParams(const LaunchPlan &plan,
                      const std::vector<size_t> &entrySizes,
                      std::string &error);

/// Opaque storage of one CUtensorMap: 128 bytes, aligned as cuda.h (CUDA 13)
/// declares it; the encoder itself needs 64.
struct alignas(128) TensorMapBytes {
  unsigned char bytes[128];
};

/// The argument values of one launch and the pointer array cuLaunchKernelEx
/// takes.
struct KernelArgPack {
  union Slot {
    int32_t i32;
    int64_t i64;
    uint64_t u64;
  };
  /// One per manifest tensor map; the runtime encodes into it (zeroed when
  /// skipped).
  std::vector<TensorMapBytes> maps;
  /// One per manifest tensor map: the tma_ok value.
  std::vector<int32_t> tmaOk;
  /// One per kernel arg (unused for tensor maps).
  std::vector<Slot> slots;
  /// One per kernel arg: the `kernelParams` array.
  std::vector<void *> params;
  /// The zeroed scratch buffer a `Workspace` arg passes (0 when the kernel
  /// takes none).
  uint64_t workspace = 0;

  /// Sizes the storage for `plan`, zeroing the maps and setting every tma_ok
  /// to 1.
  void reset(const LaunchPlan &plan);
};

/// Fills `pack.slots` and `pack.params` from the tensors and bound dims;
/// `pack.maps` and `pack.tmaOk` must already hold this launch's tensor maps.
void packKernelArgs(const LaunchPlan &plan, const Tensor *args,
                    const BoundDims &dims, KernelArgPack &pack);

/// One line per kernel arg ("  3 tma_ok map 2 = 0"), for kiln-run --verbose.
std::string describeKernelArgs(const LaunchPlan &plan,
                               const KernelArgPack &pack);

} // namespace kiln

#endif // KILN_RUNTIME_KERNELARGS_H
