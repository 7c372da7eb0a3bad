//===- TensorMemory.cpp - sm_100a tensor memory (TMEM) rules --------------===//

#include "compiler/Target/TensorMemory.h"

#include <string>

namespace kiln::target {

ValueOrError<uint32_t> tmemAllocationColumns(uint32_t requiredColumns) {
  if (requiredColumns == 0)
    return ValueOrError<uint32_t>::failure(
        "a TMEM allocation needs at least one column");
  if (requiredColumns > tmemColumns)
    return ValueOrError<uint32_t>::failure(
        "a CTA needs " + std::to_string(requiredColumns) +
        " TMEM columns but an SM has only " + std::to_string(tmemColumns));
  uint32_t columns = tmemMinAllocationColumns;
  while (columns < requiredColumns)
    columns *= 2;
  return columns;
}

ValueOrError<uint32_t> tmemAddress(uint32_t lane, uint32_t column) {
  if (lane >= tmemLanes || column >= tmemColumns)
    return ValueOrError<uint32_t>::failure(
        "TMEM position (lane " + std::to_string(lane) + ", column " +
        std::to_string(column) + ") is outside the 128 x 512 tensor memory");
  return (lane << 16) | column;
}

ValueOrError<uint32_t> tmemColumnsOf(uint32_t elementBits, uint32_t elements) {
  if (elementBits != 16 && elementBits != 32)
    return ValueOrError<uint32_t>::failure(
        "tensor memory holds 32-bit elements or packed pairs of 16-bit ones, "
        "not " + std::to_string(elementBits) + "-bit elements");
  uint64_t bits = uint64_t{elementBits} * elements;
  if (bits % tmemColumnBits != 0)
    return ValueOrError<uint32_t>::failure(
        std::to_string(elements) + " elements of " +
        std::to_string(elementBits) + " bits do not fill whole 32-bit "
        "tensor-memory columns");
  return static_cast<uint32_t>(bits / tmemColumnBits);
}

uint32_t tmemOperandKStepColumns(unsigned step) {
  // 32 bytes of K per instruction: 8 columns of 4 bytes.
  return step * (32 * 8 / tmemColumnBits);
}

uint32_t tmemLaneBaseForWarp(uint32_t warpIndex) {
  return 32 * (warpIndex % 4);
}

} // namespace kiln::target
