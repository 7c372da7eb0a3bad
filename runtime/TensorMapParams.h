//===- TensorMapParams.h - cuTensorMapEncodeTiled arguments ----*- C++ -*-===//
//
// Computes, without calling the driver, the exact arguments the runtime passes
// to cuTensorMapEncodeTiled for one manifest tensor map and one caller tensor,
// and decides whether the tensor can be described at all. Every requirement the
// driver would reject is checked here first, so users see a message naming the
// param and axis instead of CUDA_ERROR_INVALID_VALUE.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_TENSORMAPPARAMS_H
#define KILN_RUNTIME_TENSORMAPPARAMS_H

#include "runtime/LaunchPlan.h"
#include "runtime/Tensor.h"

#include <cstdint>
#include <string>

namespace kiln {

/// CUtensorMapDataType values (Runtime.cpp checks them against cuda.h).
enum class TmaDataType : uint32_t {
  UInt8 = 0,
  Int32 = 3,
  Float16 = 6,
  Float32 = 7,
  BFloat16 = 9,
  U4x16Align8B = 13,
};

/// The CUtensorMapDataType that carries manifest element `e`.
TmaDataType tmaDataType(TmaElement e);

/// The arguments of one cuTensorMapEncodeTiled call; enum fields hold the CUDA
/// enum values.
struct TensorMapEncoding {
  uint32_t dataType = 0;
  uint32_t rank = 0;
  uint64_t address = 0;
  /// Innermost first, in elements of the map's element type.
  uint64_t dims[5] = {};
  /// Byte strides of dims 1..rank-1 (innermost first).
  uint64_t strides[4] = {};
  uint32_t box[5] = {};
  uint32_t elementStrides[5] = {};
  uint32_t interleave = 0;
  uint32_t swizzle = 0;
  uint32_t l2Promotion = 0;
  uint32_t oobFill = 0;

  bool operator==(const TensorMapEncoding &o) const;
  bool operator!=(const TensorMapEncoding &o) const { return !(*this == o); }
};

/// What to pass for one tensor map of one launch.
struct TmaDecision {
  /// True: encode `encoding`, tma_ok = 1. False (optional maps only): pass a
  /// zeroed map and tma_ok = 0; `skipReason` says why.
  bool encode = false;
  TensorMapEncoding encoding;
  std::string skipReason;
};

/// Plans tensor map `map` of `plan` for tensor `t` (the tensor of the map's
/// param). The global dims are the extents reversed (the innermost converted to
/// map elements), the strides the byte strides of axes rank-2..0,
/// box/swizzle/l2/oob from the manifest, element strides 1. An axis of extent 1
/// whose stride TMA cannot take gets stride 16 (TMA never steps it). If the
/// tensor still cannot be described (empty, pointer not 16-byte aligned, inner
/// axis not contiguous, a stride not a positive multiple of 16 bytes or >=
/// 2^40, an extent > 2^32, a packed row of odd length), an optional map is
/// skipped and a required one fails with a message naming param and axis.
bool planTensorMap(const LaunchPlan &plan, int map, const Tensor &t,
                   TmaDecision &out, std::string &error);

} // namespace kiln

#endif // KILN_RUNTIME_TENSORMAPPARAMS_H
