//===- ParseInt.cpp - Decimal integers with a range -----------------------===//
//
// std::from_chars: no locale, no leading spaces or '+', no exceptions, and an
// explicit out-of-range result where strtoll would clamp and set errno.
//
//===----------------------------------------------------------------------===//

#include "runtime/ParseInt.h"

#include <charconv>
#include <system_error>

namespace kiln {

bool parseIntInRange(std::string_view text, int64_t lo, int64_t hi,
                     int64_t &out, std::string &error) {
  std::string quoted = "'" + std::string(text) + "'";
  std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  const char *begin = text.data(), *end = text.data() + text.size();
  int64_t v = 0;
  std::from_chars_result r = std::from_chars(begin, end, v, 10);
  if (text.empty() || r.ptr != end ||
      (r.ec != std::errc() && r.ec != std::errc::result_out_of_range)) {
    error = quoted + " is not an integer";
    return false;
  }
  if (r.ec == std::errc::result_out_of_range || v < lo || v > hi) {
    error = quoted + " is outside " + range;
    return false;
  }
  out = v;
  return true;
}

} // namespace kiln
