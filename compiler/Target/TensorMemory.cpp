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

uint32_t tmemLaneBaseForWarp(uint32_t warpIndex) {
  return 32 * (warpIndex % 4);
}

} // namespace kiln::target
