//===- OffsetsCheck.cpp - Group offsets that keep their contract ----------===//

#include "runtime/OffsetsCheck.h"

#include <cstdlib>
#include <cstring>

namespace kiln {

bool checkGroupOffsets(const int32_t *o, size_t count, int64_t rows,
                       const std::string &param, const std::string &rowsDim,
                       std::string &error) {
  auto entry = [&](size_t i) {
    return param + "[" + std::to_string(i) + "] = " + std::to_string(o[i]);
  };
  if (count == 0) {
    error = param + " is empty: it needs E + 1 entries";
    return false;
  }
  if (o[0] != 0) {
    error = entry(0) + ": the first group starts at row 0";
    return false;
  }
  for (size_t i = 1; i < count; ++i) {
    if (o[i] < o[i - 1]) {
      error = entry(i) + " is below " + entry(i - 1) +
              ": offsets never decrease";
      return false;
    }
    if (o[i] > rows) {
      error = entry(i) + " is past the " + std::to_string(rows) +
              " rows of " + rowsDim;
      return false;
    }
  }
  if (o[count - 1] != rows) {
    error = entry(count - 1) + ": the last group ends at " + rowsDim + " = " +
            std::to_string(rows) + " (rows past it would not be written)";
    return false;
  }
  return true;
}

bool checkOffsetsFromEnvironment() {
  const char *v = std::getenv("KILN_CHECK_OFFSETS");
  return v && *v && std::strcmp(v, "0") != 0;
}

} // namespace kiln
