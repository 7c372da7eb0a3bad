//===- SourceText.h - what counts as .kiln source text ----------*- C++ -*-===//
//
// One definition of the text the lexer accepts and of how positions in it are
// counted, shared by the lexer (which rejects bad text, comments included),
// SourceLocator (line numbers) and the driver's diagnostic printer (source
// snippets and carets):
//
// - UTF-8 is decoded strictly: overlong forms, UTF-16 surrogates and code
//   points past U+10FFFF are invalid, not characters;
// - control characters other than whitespace (NUL, ESC, DEL, ...) and the
//   bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F,
//   U+061C), which can make a line display differently from how it compiles,
//   are rejected everywhere;
// - LF, CRLF and a lone CR each end a line.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_SOURCETEXT_H
#define KILN_FRONTEND_SOURCETEXT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

/// The code point of the UTF-8 sequence at `p` and its length in bytes, or
/// length 0 when the bytes there are not strict UTF-8.
std::pair<uint32_t, unsigned> decodeUTF8(const char *p, const char *end);

/// Why the character at `p` may not appear anywhere in a .kiln file (a
/// message for the user), or "" when it may. Sets `length` to the bytes the
/// character takes (1 for an invalid byte).
std::string checkSourceCharacter(const char *p, const char *end,
                                 unsigned &length);

/// Whether `cp` is a bidirectional formatting control.
bool isBidiControl(uint32_t cp);

/// Line starts of a buffer, with LF, CRLF and CR as line ends.
class LineTable {
public:
  explicit LineTable(llvm::StringRef text);

  /// 1-based line and byte column of `offset`.
  std::pair<unsigned, unsigned> getLineAndColumn(size_t offset) const;
  /// The text of 1-based `line`, without its line end; "" past the end.
  llvm::StringRef getLine(unsigned line) const;
  /// The offset where 1-based `line` starts.
  size_t getLineStart(unsigned line) const { return starts[line - 1]; }
  unsigned getNumLines() const { return starts.size(); }

private:
  llvm::StringRef text;
  std::vector<size_t> starts;
};

} // namespace kiln

#endif // KILN_FRONTEND_SOURCETEXT_H
