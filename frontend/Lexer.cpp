//===- Lexer.cpp - tokens of the .kiln language ---------------------------===//

#include "frontend/Lexer.h"
#include "frontend/SourceText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;

llvm::StringRef kiln::describe(TokenKind kind) {
  switch (kind) {
  case TokenKind::eof:
    return "end of file";
  case TokenKind::error:
    return "invalid token";
  case TokenKind::identifier:
    return "a name";
  case TokenKind::integer:
    return "an integer";
  case TokenKind::floating:
    return "a number";
  case TokenKind::block_shape:
    return "a block shape";
  case TokenKind::l_paren:
    return "'('";
  case TokenKind::r_paren:
    return "')'";
  case TokenKind::l_brace:
    return "'{'";
  case TokenKind::r_brace:
    return "'}'";
  case TokenKind::l_square:
    return "'['";
  case TokenKind::r_square:
    return "']'";
  case TokenKind::comma:
    return "','";
  case TokenKind::colon:
    return "':'";
  case TokenKind::semicolon:
    return "';'";
  case TokenKind::equal:
    return "'='";
  case TokenKind::arrow:
    return "'->'";
  case TokenKind::plus:
    return "'+'";
  case TokenKind::minus:
    return "'-'";
  case TokenKind::star:
    return "'*'";
  case TokenKind::slash:
    return "'/'";
  case TokenKind::at:
    return "'@'";
  case TokenKind::caret_t:
    return "'^T'";
  case TokenKind::pipe:
    return "'|'";
  case TokenKind::pipepipe:
    return "'||'";
  case TokenKind::ampamp:
    return "'&&'";
  case TokenKind::bang:
    return "'!'";
  case TokenKind::less:
    return "'<'";
  case TokenKind::lesseq:
    return "'<='";
  case TokenKind::greater:
    return "'>'";
  case TokenKind::greatereq:
    return "'>='";
  case TokenKind::eqeq:
    return "'=='";
  case TokenKind::noteq:
    return "'!='";
  }
  return "a token";
}

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

Lexer::Lexer(const SourceLocator &locator)
    : locator(locator), cur(locator.getBuffer().begin()),
      end(locator.getBuffer().end()) {}

Token Lexer::error(const char *pos, const llvm::Twine &message) {
  locator.emitError(llvm::SMLoc::getFromPointer(pos)) << message.str();
  failed = true;
  return {TokenKind::error, llvm::StringRef(pos, 0)};
}

bool Lexer::skipTrivia() {
  // Comments are text too: a NUL, a malformed UTF-8 sequence or a
  // bidirectional control inside one is as much an error as in code (the
  // last can make a comment hide code that compiles).
  auto checkCommentChar = [&]() {
    unsigned length;
    std::string problem = checkSourceCharacter(cur, end, length);
    if (!problem.empty()) {
      error(cur, problem);
      return false;
    }
    cur += length;
    return true;
  };
  while (cur != end) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
        c == '\f') {
      ++cur;
      continue;
    }
    if (c == '/' && cur + 1 != end && cur[1] == '/') {
      // CR alone ends a line as LF and CRLF do.
      while (cur != end && *cur != '\n' && *cur != '\r')
        if (!checkCommentChar())
          return false;
      continue;
    }
    if (c == '/' && cur + 1 != end && cur[1] == '*') {
      const char *start = cur;
      cur += 2;
      while (cur != end && !(*cur == '*' && cur + 1 != end && cur[1] == '/'))
        if (!checkCommentChar())
          return false;
      if (cur == end) {
        error(start, "unterminated block comment; expected '*/'");
        return false;
      }
      cur += 2;
      continue;
    }
    return true;
  }
  return true;
}

Token Lexer::lex() {
  if (failed)
    return {TokenKind::error, llvm::StringRef(end, 0)};
  if (!skipTrivia())
    return {TokenKind::error, llvm::StringRef(end, 0)};
  if (cur == end)
    return {TokenKind::eof, llvm::StringRef(end, 0)};

  const char *start = cur;
  char c = *cur++;
  auto next = [&](char expected) {
    if (cur != end && *cur == expected) {
      ++cur;
      return true;
    }
    return false;
  };

  if (llvm::isDigit(c))
    return lexNumber(start);
  if (isIdentStart(c))
    return lexIdentifier(start);

  switch (c) {
  case '(':
    return make(TokenKind::l_paren, start);
  case ')':
    return make(TokenKind::r_paren, start);
  case '{':
    return make(TokenKind::l_brace, start);
  case '}':
    return make(TokenKind::r_brace, start);
  case '[':
    return make(TokenKind::l_square, start);
  case ']':
    return make(TokenKind::r_square, start);
  case ',':
    return make(TokenKind::comma, start);
  case ':':
    return make(TokenKind::colon, start);
  case ';':
    return make(TokenKind::semicolon, start);
  case '+':
    return make(TokenKind::plus, start);
  case '*':
    return make(TokenKind::star, start);
  case '/':
    return make(TokenKind::slash, start);
  case '@':
    return make(TokenKind::at, start);
  case '-':
    return make(next('>') ? TokenKind::arrow : TokenKind::minus, start);
  case '=':
    return make(next('=') ? TokenKind::eqeq : TokenKind::equal, start);
  case '!':
    return make(next('=') ? TokenKind::noteq : TokenKind::bang, start);
  case '<':
    return make(next('=') ? TokenKind::lesseq : TokenKind::less, start);
  case '>':
    return make(next('=') ? TokenKind::greatereq : TokenKind::greater, start);
  case '|':
    return make(next('|') ? TokenKind::pipepipe : TokenKind::pipe, start);
  case '&':
    if (next('&'))
      return make(TokenKind::ampamp, start);
    return error(start, "unexpected character '&'; did you mean '&&'?");
  case '^':
    if (cur != end && *cur == 'T' && (cur + 1 == end || !isIdentChar(cur[1]))) {
      ++cur;
      return make(TokenKind::caret_t, start);
    }
    return error(start, "expected 'T' after '^'; '^T' (transpose) is the only "
                        "use of '^'");
  case '.':
    if (cur != end && llvm::isDigit(*cur)) {
      while (cur != end && llvm::isDigit(*cur))
        ++cur;
      return error(start, "a number must start with a digit; write '0" +
                              llvm::StringRef(start, cur - start) + "'");
    }
    // numpy's and torch's transpose, `b.T`.
    if (cur != end && *cur == 'T' &&
        (cur + 1 == end || !(llvm::isAlnum(cur[1]) || cur[1] == '_')))
      return error(start, "unexpected character '.'; write 'b^T' to "
                          "transpose (not 'b.T')");
    return error(start, "unexpected character '.'");
  default:
    return lexStrayCharacter(start);
  }
}

Token Lexer::lexNumber(const char *start) {
  while (cur != end && llvm::isDigit(*cur))
    ++cur;

  // `1x128`: the block shape of a scaled(...) type.
  if (cur + 1 < end && *cur == 'x' && llvm::isDigit(cur[1])) {
    ++cur;
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
    if (cur == end || !isIdentChar(*cur))
      return make(TokenKind::block_shape, start);
  }

  bool isFloat = false;
  if (cur != end && *cur == '.') {
    ++cur;
    if (cur == end || !llvm::isDigit(*cur))
      return error(start, "expected a digit after '.' in number '" +
                              llvm::StringRef(start, cur - start) + "'");
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
    isFloat = true;
  }
  if (cur != end && (*cur == 'e' || *cur == 'E')) {
    const char *exponent = cur++;
    if (cur != end && (*cur == '+' || *cur == '-'))
      ++cur;
    if (cur == end || !llvm::isDigit(*cur)) {
      // Report the whole malformed word, not just its prefix.
      while (cur != end && isIdentChar(*cur))
        ++cur;
      return error(exponent, "expected exponent digits in number '" +
                                 llvm::StringRef(start, cur - start) + "'");
    }
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
    isFloat = true;
  }
  if (cur != end && (isIdentChar(*cur) || *cur == '.')) {
    while (cur != end && (isIdentChar(*cur) || *cur == '.'))
      ++cur;
    return error(start, "invalid number '" +
                            llvm::StringRef(start, cur - start) + "'");
  }
  return make(isFloat ? TokenKind::floating : TokenKind::integer, start);
}

Token Lexer::lexIdentifier(const char *start) {
  while (cur != end && isIdentChar(*cur))
    ++cur;
  return make(TokenKind::identifier, start);
}

Token Lexer::lexStrayCharacter(const char *start) {
  unsigned char c = static_cast<unsigned char>(*start);
  unsigned charLength;
  std::string problem = checkSourceCharacter(start, end, charLength);
  if (!problem.empty())
    return error(start, problem);
  std::string message;
  llvm::raw_string_ostream os(message);
  if (c < 0x80) {
    if (llvm::isPrint(c))
      os << "unexpected character '" << *start << "'";
    else
      os << "unexpected character " << llvm::format("U+%04X", c);
    return error(start, message);
  }
  auto [cp, length] = decodeUTF8(start, end);
  os << "unexpected character '" << llvm::StringRef(start, length) << "' "
     << llvm::format("(U+%04X)", cp);
  // Characters that come in when formulas are pasted from papers.
  switch (cp) {
  case 0x1D40: // ᵀ
    os << "; write '^T' to transpose";
    break;
  case 0x00D7: // ×
  case 0x00B7: // ·
  case 0x22C5: // ⋅
    os << "; write '@' for a matrix product or '*' for an elementwise one";
    break;
  case 0x2212: // −
    os << "; write '-'";
    break;
  default:
    break;
  }
  return error(start, message);
}
