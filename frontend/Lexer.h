//===- Lexer.h - tokens of the .kiln language -------------------*- C++ -*-===//
//
// A hand-written lexer over one SourceMgr buffer. Tokens are views into the
// buffer, so their spelling doubles as their location. Malformed input (a
// stray character, an unterminated comment, a bad number) is reported once,
// at its position, and yields an `error` token that stops the parser.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_LEXER_H
#define KILN_FRONTEND_LEXER_H

#include "frontend/SourceLocator.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace kiln {

enum class TokenKind {
  eof,
  error,
  identifier,
  integer,     // 128
  floating,    // 0.5, 1e-3
  block_shape, // 1x128 (only meaningful inside scaled(...))
  l_paren,
  r_paren,
  l_brace,
  r_brace,
  l_square,
  r_square,
  comma,
  colon,
  semicolon,
  equal,   // =
  arrow,   // ->
  plus,    // +
  minus,   // -
  star,    // *
  slash,   // /
  at,      // @ (matmul, and the start of @schedule)
  caret_t, // ^T
  pipe,    // | (lambda parameters)
  pipepipe,
  ampamp,
  bang,
  less,
  lesseq,
  greater,
  greatereq,
  eqeq,
  noteq,
};

/// A short description of a token kind for diagnostics ("')'", "a number").
llvm::StringRef describe(TokenKind kind);

/// One token: its kind and its text in the buffer.
struct Token {
  TokenKind kind = TokenKind::eof;
  llvm::StringRef spelling;

  bool is(TokenKind k) const { return kind == k; }
  bool isIdent(llvm::StringRef name) const {
    return kind == TokenKind::identifier && spelling == name;
  }
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data());
  }
  /// The position just past the token.
  llvm::SMLoc getEndLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data() + spelling.size());
  }
};

/// Splits a .kiln buffer into tokens.
class Lexer {
public:
  explicit Lexer(const SourceLocator &locator);

  /// Returns the next token; `eof` forever at the end, `error` after a
  /// diagnostic has been emitted.
  Token lex();

private:
  Token make(TokenKind kind, const char *start) const {
    return {kind, llvm::StringRef(start, cur - start)};
  }
  Token error(const char *pos, const llvm::Twine &message);
  /// Skips spaces and comments; returns false after reporting an unterminated
  /// block comment.
  bool skipTrivia();
  Token lexNumber(const char *start);
  Token lexIdentifier(const char *start);
  Token lexStrayCharacter(const char *start);

  const SourceLocator &locator;
  const char *cur;
  const char *end;
  bool failed = false;
};

} // namespace kiln

#endif // KILN_FRONTEND_LEXER_H
