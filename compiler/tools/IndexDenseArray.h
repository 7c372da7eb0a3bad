//===- IndexDenseArray.h - refuse what crashes MLIR 22.1's parser -*- C++ -*-===//
//
// MLIR 22.1's parser dereferences a null float type in
// Parser::parseDenseArrayAttr when a dense array has the element type
// `index` (`array<index: 1>`; mlir-opt segfaults on it too). The tools that
// parse MLIR text (kiln-opt, kiln compile of a .mlir file, kiln-fuzz-ir)
// look for that spelling first and refuse the input with a message instead
// of crashing. The tokens may be separated by anything MLIR's lexer skips
// (whitespace, embedded NUL bytes, `//` comments: the fuzzer found
// `array< index` and `array<\t\0 index`), so the text is searched with those
// characters removed, and again with comments removed too. The check is
// textual: the spelling in a comment or a string is refused as well.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TOOLS_INDEXDENSEARRAY_H
#define KILN_COMPILER_TOOLS_INDEXDENSEARRAY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace kiln {

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

/// What the tools say when they refuse such an input.
inline constexpr const char *kIndexDenseArrayMessage =
    "a dense array of `index` (`array<index: ...>`) crashes MLIR 22.1's "
    "parser, so the input is refused; write `array<i64: ...>` (the check is "
    "textual: the spelling counts in comments and strings too)";

} // namespace kiln

#endif // KILN_COMPILER_TOOLS_INDEXDENSEARRAY_H
