//===- Limits.h - Bounds on manifests and cubins ----------------*- C++ -*-===//
//
// A manifest and its cubin come from a file anyone may have written, so every
// number in them is checked against these bounds before it is multiplied,
// allocated or handed to the driver. The hardware numbers repeat the
// compiler's (compiler/Target/Chip.h, Chip.cpp): the runtime builds without
// the compiler, so it cannot include them, and test/unit/runtime/LimitsTest.cpp
// checks that the header-only ones agree. Internal to the runtime: not
// installed.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_LIMITS_H
#define KILN_RUNTIME_LIMITS_H

#include <cstdint>

namespace kiln {

/// Threads of one block: CUDA's maxThreadsPerBlock on every chip Kiln targets
/// (target::maxThreadsPerBlock).
inline constexpr int64_t kMaxThreadsPerBlock = 1024;
/// CUDA's maxBlockDimX, Y and Z (the same on every chip since sm_20).
inline constexpr int64_t kMaxBlockDimXY = 1024;
inline constexpr int64_t kMaxBlockDimZ = 64;

/// CTAs of one cluster with the non-portable opt-in
/// (target::maxClusterSizeNonPortable); the runtime sets
/// CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED above
/// kMaxPortableClusterCtas.
inline constexpr int64_t kMaxClusterCtas = 16;
inline constexpr int64_t kMaxPortableClusterCtas = 8;

/// Dynamic shared memory one block may opt into on the chip that offers the
/// most: 227 KiB on sm_90a and sm_100a (ChipInfo::smemPerBlockOptIn, which
/// lives in Chip.cpp). A manifest may not ask for more; the device check at
/// load time compares against the actual device's own limit.
inline constexpr int64_t kMaxDynamicSmemBytes = 232448;

/// Grid extents CUDA accepts: x < 2^31, y and z <= 65535.
inline constexpr int64_t kMaxGridX = 2147483647;
inline constexpr int64_t kMaxGridYZ = 65535;

/// Dims reach the kernel as i32 arguments, and kernels compute tile indices
/// and TMA coordinates in 32 bits (target::maxKernelIndex): every dim value,
/// constant extent, DimExpr operand, grid tile and block-scale block is at
/// most this.
inline constexpr int64_t kMaxKernelIndex = 2147483647;

/// A TMA box holds 1..256 elements along each axis (cuTensorMapEncodeTiled).
inline constexpr int64_t kMaxTmaBoxDim = 256;

/// The largest manifest file the runtime reads. The compiler's manifests are
/// a few KiB; the bound keeps a hostile one from taking the host's memory and
/// keeps every count in it (params, maps, args) far below INT32_MAX.
inline constexpr uint64_t kMaxManifestBytes = uint64_t(16) << 20; // 16 MiB
/// The largest cubin the runtime reads: ours are well under 1 MiB, and the
/// biggest library cubins a few tens of MiB.
inline constexpr uint64_t kMaxCubinBytes = uint64_t(256) << 20; // 256 MiB

} // namespace kiln

#endif // KILN_RUNTIME_LIMITS_H
