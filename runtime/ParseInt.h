//===- ParseInt.h - Decimal integers with a range ---------------*- C++ -*-===//
//
// Numbers typed by a user (kiln-run's options) or taken from a name (a chip's
// compute capability) are parsed here, with the range they must fall in, so
// that a value too large for its type is refused instead of wrapped.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_PARSEINT_H
#define KILN_RUNTIME_PARSEINT_H

#include <cstdint>
#include <string>
#include <string_view>

namespace kiln {

/// Parses all of `text` as a decimal integer (an optional '-', then digits;
/// no spaces, no '+') in [lo, hi]. Never throws. On failure `error` says why,
/// quoting the text: "'12x' is not an integer" or "'99999999999999999999' is
/// outside 0..2147483647".
bool parseIntInRange(std::string_view text, int64_t lo, int64_t hi,
                     int64_t &out, std::string &error);

} // namespace kiln

#endif // KILN_RUNTIME_PARSEINT_H
