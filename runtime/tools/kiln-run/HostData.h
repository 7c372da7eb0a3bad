//===- HostData.h - Host-side element codecs and random data ---*- C++ -*-===//
//
// kiln-run fills inputs on the host and reads outputs back for its reference
// check; these are the exact encodings of every manifest dtype.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_TOOLS_KILNRUN_HOSTDATA_H
#define KILN_RUNTIME_TOOLS_KILNRUN_HOSTDATA_H

#include "runtime/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace kiln {
namespace tools {

/// Bytes that hold `count` elements of `t` (e2m1 rounds up to whole bytes).
/// `count` must be at most kMaxBufferElements.
size_t storageBytes(DType t, int64_t count);

/// The most elements kiln-run allocates for one param: 2^56, so that the
/// element count and its size in bits (at most 32 per element) stay within
/// int64. No device holds that much; cuMemAlloc refuses far less.
inline constexpr int64_t kMaxBufferElements = int64_t(1) << 56;

/// The elements and bytes of a contiguous buffer of `shape` (non-negative
/// extents). False, with `numel` and `bytes` unspecified, when the element
/// count overflows or exceeds kMaxBufferElements.
bool bufferSize(DType t, const std::vector<int64_t> &shape, int64_t &numel,
                size_t &bytes);

/// The value of element `index` of a buffer of `t` (e2m1: element 2i is the low
/// nibble of byte i, as in PyTorch's float4_e2m1fn_x2 and CUTLASS). NaN codes
/// decode to NaN.
double decodeElement(DType t, const uint8_t *bytes, int64_t index);

/// What random data is for.
enum class Fill {
  /// Operands: both signs, magnitudes about 2^-4 .. 1, exactly representable.
  Data,
  /// Block scales: positive powers of two near 1 (2^-2 .. 2^2), so scaled sums
  /// stay exact-ish.
  Scale,
};

/// Fills `count` elements of `t` with random finite values.
void fillRandom(DType t, Fill fill, std::vector<uint8_t> &bytes, int64_t count,
                std::mt19937_64 &rng);

} // namespace tools
} // namespace kiln

#endif // KILN_RUNTIME_TOOLS_KILNRUN_HOSTDATA_H
