//===- CanonicalLayout.cpp - Canonical MMA operand tiles in smem ----------===//

#include "compiler/Target/CanonicalLayout.h"

#include <string>

namespace kiln::target {

namespace {

/// Every wgmma and tcgen05 k-step consumes 32 bytes of K per row, whatever
/// the element type (brief §5.2, §5.6).
constexpr uint32_t mmaKBytesPerStep = 32;

/// Descriptor fields are 14 bits of 16-byte units: 256 KiB.
constexpr uint64_t descriptorByteLimit = uint64_t{1} << 18;

std::string rowsError(uint32_t rows) {
  return "canonical tile needs a positive multiple of 8 rows, got " +
         std::to_string(rows);
}

ValueOrError<uint32_t> checkedOffset(uint64_t bytes) {
  if (bytes >= descriptorByteLimit)
    return ValueOrError<uint32_t>::failure(
        "offset of " + std::to_string(bytes) +
        " B is beyond the 256 KiB a shared-memory descriptor can address");
  return static_cast<uint32_t>(bytes);
}

} // namespace

ValueOrError<CanonicalStrides>
canonicalStrides(OperandMajor major, SwizzleMode swizzle, uint32_t rows) {
  if (rows == 0 || rows % 8 != 0)
    return ValueOrError<CanonicalStrides>::failure(rowsError(rows));
  uint64_t span = swizzleSpanBytes(swizzle);
  uint64_t chunkStride = uint64_t{rows} * span;
  if (chunkStride >= descriptorByteLimit)
    return ValueOrError<CanonicalStrides>::failure(
        "a " + std::to_string(rows) + "-row tile is too large for a " +
        "shared-memory descriptor stride");
  uint32_t eightRows = static_cast<uint32_t>(8 * span);
  CanonicalStrides strides;
  if (major == OperandMajor::K) {
    strides.strideByteOffset = eightRows;
    if (swizzle == SwizzleMode::None) {
      strides.leadingByteOffset = static_cast<uint32_t>(chunkStride);
    } else {
      strides.leadingByteOffset = 0;
      strides.leadingUsed = false;
    }
    return strides;
  }
  if (swizzle == SwizzleMode::None) {
    // The unswizzled MN-major layout swaps the roles of LBO and SBO.
    strides.leadingByteOffset = eightRows;
    strides.strideByteOffset = static_cast<uint32_t>(chunkStride);
  } else {
    strides.leadingByteOffset = static_cast<uint32_t>(chunkStride);
    strides.strideByteOffset = eightRows;
  }
  return strides;
}

ValueOrError<uint32_t> canonicalKOffsetBytes(OperandMajor major,
                                             SwizzleMode swizzle,
                                             ElementType element, uint32_t rows,
                                             uint32_t kElements) {
  if (rows == 0 || rows % 8 != 0)
    return ValueOrError<uint32_t>::failure(rowsError(rows));
  uint64_t span = swizzleSpanBytes(swizzle);
  if (major == OperandMajor::MN) {
    if (kElements % 8 != 0)
      return ValueOrError<uint32_t>::failure(
          "MN-major K offset " + std::to_string(kElements) +
          " is not a multiple of the 8-row core matrix");
    return checkedOffset(uint64_t{kElements} * span);
  }
  std::optional<uint64_t> kBytes = elementBytes(element, kElements);
  if (!kBytes || *kBytes % mmaKBytesPerStep != 0)
    return ValueOrError<uint32_t>::failure(
        "K offset of " + std::to_string(kElements) + " x " +
        std::string(elementTypeName(element)) +
        " is not a multiple of the 32 B an MMA k-step consumes per row");
  uint64_t chunk = *kBytes / span;
  uint64_t withinChunk = *kBytes % span;
  return checkedOffset(chunk * rows * span + withinChunk);
}

ValueOrError<uint32_t> canonicalMNOffsetBytes(OperandMajor major,
                                              SwizzleMode swizzle,
                                              ElementType element,
                                              uint32_t rows,
                                              uint32_t mnElements) {
  if (rows == 0 || rows % 8 != 0)
    return ValueOrError<uint32_t>::failure(rowsError(rows));
  uint64_t span = swizzleSpanBytes(swizzle);
  if (major == OperandMajor::K) {
    if (mnElements % 8 != 0)
      return ValueOrError<uint32_t>::failure(
          "K-major M/N offset " + std::to_string(mnElements) +
          " is not a multiple of the 8-row core matrix");
    return checkedOffset(uint64_t{mnElements} * span);
  }
  std::optional<uint64_t> mnBytes = elementBytes(element, mnElements);
  if (!mnBytes || *mnBytes % span != 0)
    return ValueOrError<uint32_t>::failure(
        "MN-major M/N offset of " + std::to_string(mnElements) + " x " +
        std::string(elementTypeName(element)) + " is not a whole number of " +
        std::to_string(span) + " B chunks");
  return checkedOffset(*mnBytes / span * rows * span);
}

} // namespace kiln::target
