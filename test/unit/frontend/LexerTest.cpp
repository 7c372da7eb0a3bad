//===- LexerTest.cpp - tokens of the .kiln language -----------------------===//

#include "frontend/Lexer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace kiln;

namespace {

/// Lexes `text` and records its tokens and diagnostics.
struct Lexed {
  explicit Lexed(llvm::StringRef text) {
    sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "t.kiln"),
                          llvm::SMLoc());
    mlir::ScopedDiagnosticHandler handler(
        &ctx, [&](mlir::Diagnostic &diag) { errors.push_back(diag.str()); });
    SourceLocator locator(sm, sm.getMainFileID(), &ctx);
    Lexer lexer(locator);
    for (;;) {
      Token token = lexer.lex();
      kinds.push_back(token.kind);
      spellings.push_back(token.spelling.str());
      if (token.is(TokenKind::eof) || token.is(TokenKind::error))
        break;
    }
  }
  llvm::SourceMgr sm;
  mlir::MLIRContext ctx;
  std::vector<TokenKind> kinds;
  std::vector<std::string> spellings;
  std::vector<std::string> errors;
};

TEST(Lexer, Punctuation) {
  Lexed l("a @ b^T -> <= >= == != && || | ! ; : , ( ) [ ] { }");
  std::vector<TokenKind> expected = {
      TokenKind::identifier, TokenKind::at,        TokenKind::identifier,
      TokenKind::caret_t,    TokenKind::arrow,     TokenKind::lesseq,
      TokenKind::greatereq,  TokenKind::eqeq,      TokenKind::noteq,
      TokenKind::ampamp,     TokenKind::pipepipe,  TokenKind::pipe,
      TokenKind::bang,       TokenKind::semicolon, TokenKind::colon,
      TokenKind::comma,      TokenKind::l_paren,   TokenKind::r_paren,
      TokenKind::l_square,   TokenKind::r_square,  TokenKind::l_brace,
      TokenKind::r_brace,    TokenKind::eof};
  EXPECT_EQ(l.kinds, expected);
  EXPECT_TRUE(l.errors.empty());
}

TEST(Lexer, Numbers) {
  Lexed l("128 0.5 1e-3 2.5E+4 1x128");
  std::vector<TokenKind> expected = {
      TokenKind::integer,  TokenKind::floating,    TokenKind::floating,
      TokenKind::floating, TokenKind::block_shape, TokenKind::eof};
  EXPECT_EQ(l.kinds, expected);
  EXPECT_EQ(l.spellings[4], "1x128");
}

TEST(Lexer, CommentsAreSkipped) {
  Lexed l("a // line\n/* block\n * comment */ b");
  std::vector<std::string> expected = {"a", "b", ""};
  EXPECT_EQ(l.spellings, expected);
}

TEST(Lexer, ErrorsStopWithOneDiagnostic) {
  for (llvm::StringRef text : {"a $ b", "1.", "2e", "12abc", ".5", "a & b",
                               "b^t", "/* open", "\xff"}) {
    Lexed l(text);
    EXPECT_EQ(l.kinds.back(), TokenKind::error) << text.str();
    EXPECT_EQ(l.errors.size(), 1u) << text.str();
  }
}

} // namespace
