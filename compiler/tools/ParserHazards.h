//===- ParserHazards.h - refuse what crashes MLIR 22.1's parser -*- C++ -*-===//
//
// Two inputs bring down MLIR 22.1's own parser (mlir-opt too), found by
// Kiln's fuzzers:
// - a dense array with the element type `index` (`array<index: 1>`): a null
//   float type is dereferenced in Parser::parseDenseArrayAttr;
// - a huge result number in an SSA use (`%r#2147483648`): the parser sizes
//   its table of the value's results to the number before checking it, and
//   dies asking for tens of GiB.
// The tools that parse MLIR text (kiln-opt, kiln compile of a .mlir file,
// kiln-translate, the fuzz targets) look for them first and refuse the input
// with a message instead of crashing. Tokens may be separated by anything
// MLIR's lexer skips (whitespace, embedded NUL bytes, `//` comments: the
// fuzzer found `array< index` and `array<\t\0 index`), so the text is
// searched with those characters removed, and again with comments removed
// too. The checks are textual: a spelling in a comment or a string is
// refused as well.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TOOLS_PARSERHAZARDS_H
#define KILN_COMPILER_TOOLS_PARSERHAZARDS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kiln {

/// The largest result number an SSA use may name (`%r#N`): far above any
/// op's result count, far below what the parser cannot allocate.
inline constexpr unsigned kMaxResultNumber = 65535;

/// Whether `text` may hold a dense array of `index`.
inline bool mayHaveIndexDenseArray(llvm::StringRef text) {
  std::string squeezed, uncommented;
  bool inComment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n')
      inComment = false;
    else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/')
      inComment = true;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
        c == '\f' || c == '\0')
      continue;
    squeezed += c;
    if (!inComment)
      uncommented += c;
  }
  return llvm::StringRef(squeezed).contains("array<index") ||
         llvm::StringRef(uncommented).contains("array<index");
}

/// Whether `text` has a `#` followed by a decimal number above
/// kMaxResultNumber: the only token of that form is a result number.
inline bool mayHaveHugeResultNumber(llvm::StringRef text) {
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '#' || text[i + 1] < '0' || text[i + 1] > '9')
      continue;
    size_t j = i + 1;
    while (j < text.size() && text[j] == '0')
      ++j;
    uint64_t value = 0;
    for (; j < text.size() && text[j] >= '0' && text[j] <= '9'; ++j) {
      value = value * 10 + static_cast<uint64_t>(text[j] - '0');
      if (value > kMaxResultNumber)
        return true;
    }
  }
  return false;
}

/// What the tools say when they refuse `text`, or nothing when MLIR's
/// parser can read it.
inline std::optional<std::string> findParserHazard(llvm::StringRef text) {
  if (mayHaveIndexDenseArray(text))
    return std::string(
        "a dense array of `index` (`array<index: ...>`) crashes MLIR 22.1's "
        "parser, so the input is refused; write `array<i64: ...>` (the check "
        "is textual: the spelling counts in comments and strings too)");
  if (mayHaveHugeResultNumber(text))
    return "a result number above " + std::to_string(kMaxResultNumber) +
           " (`%r#N`) makes MLIR 22.1's parser run out of memory, so the "
           "input is refused (the check is textual: `#` and a number count "
           "in comments and strings too)";
  return std::nullopt;
}

} // namespace kiln

#endif // KILN_COMPILER_TOOLS_PARSERHAZARDS_H
