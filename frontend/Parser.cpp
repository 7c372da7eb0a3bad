//===- Parser.cpp - recursive-descent parser for .kiln --------------------===//

#include "frontend/Parser.h"
#include "frontend/Lexer.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace kiln;
using namespace kiln::ast;
using mlir::failure;
using mlir::ParseResult;
using mlir::success;

namespace {

/// Nesting (parentheses, unary operators, calls) beyond this is rejected
/// rather than risking the stack in the recursive stages that follow.
constexpr unsigned kMaxNesting = 128;
/// Expressions with more nodes than this are rejected for the same reason:
/// a long chain `a + a + ...` is a deep left-leaning tree.
constexpr unsigned kMaxNodes = 4096;

class Parser {
public:
  explicit Parser(const SourceLocator &locator)
      : locator(locator), lexer(locator) {
    tok = lexer.lex();
  }

  std::unique_ptr<Module> parseModule();

private:
  //===--------------------------------------------------------------------===//
  // Tokens
  //===--------------------------------------------------------------------===//

  void consume() {
    if (peeked) {
      tok = *peeked;
      peeked.reset();
    } else {
      tok = lexer.lex();
    }
  }
  const Token &peek() {
    if (!peeked)
      peeked = lexer.lex();
    return *peeked;
  }
  bool consumeIf(TokenKind kind) {
    if (!tok.is(kind))
      return false;
    consume();
    return true;
  }

  /// "'foo'", "')'", "end of file": how a token is named in messages.
  static std::string describeToken(const Token &t) {
    if (t.is(TokenKind::eof))
      return "end of file";
    return "'" + t.spelling.str() + "'";
  }

  /// Reports `message` at `pos` unless the lexer already reported the current
  /// token (one error per problem).
  ParseResult emitError(llvm::SMLoc pos, const llvm::Twine &message) {
    if (!tok.is(TokenKind::error))
      locator.emitError(pos) << message.str();
    return failure();
  }
  /// "expected <what>, got <current token>" at the current token.
  ParseResult emitExpected(const llvm::Twine &what) {
    return emitError(tok.getLoc(),
                     "expected " + what + ", got " + describeToken(tok));
  }
  /// Reports a missing closing bracket with a note at the opening one.
  ParseResult emitUnclosed(llvm::StringRef close, llvm::SMLoc open,
                           const llvm::Twine &what) {
    if (tok.is(TokenKind::error))
      return failure();
    auto diag = locator.emitError(tok.getLoc())
                << "expected '" << close << "' to close " << what.str()
                << ", got " << describeToken(tok);
    diag.attachNote(locator.getLoc(open)) << "opened here";
    return failure();
  }
  ParseResult expect(TokenKind kind, const llvm::Twine &context) {
    if (consumeIf(kind))
      return success();
    return emitExpected(describe(kind) + " " + context);
  }
  ParseResult parseIdentifier(std::string &name, llvm::SMLoc &loc,
                              const llvm::Twine &what) {
    if (!tok.is(TokenKind::identifier))
      return emitExpected(what);
    name = tok.spelling.str();
    loc = tok.getLoc();
    consume();
    return success();
  }
  ParseResult parseInteger(int64_t &value, const llvm::Twine &what);

  //===--------------------------------------------------------------------===//
  // Declarations
  //===--------------------------------------------------------------------===//

  ParseResult parseSchedule(Schedule &schedule);
  ParseResult parseScheduleItem(ScheduleItem &item);
  ParseResult parseKernel(Kernel &kernel);
  ParseResult parseTensorDecl(TensorDecl &decl, llvm::StringRef role);
  ParseResult parseTypeSpec(TypeSpec &spec, llvm::StringRef name);
  ParseResult parseDim(DimSpec &dim);
  ParseResult parseScaleSpec(ScaleSpec &scale);
  ParseResult parseStmt(Stmt &stmt);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  ExprPtr parseExpr();
  ExprPtr parseOr();
  ExprPtr parseAnd();
  ExprPtr parseComparison();
  ExprPtr parseAdditive();
  ExprPtr parseMultiplicative();
  ExprPtr parseUnary();
  ExprPtr parsePostfix();
  ExprPtr parsePrimary();
  ExprPtr parseNumber();
  ExprPtr parseCall(const Token &callee);
  ExprPtr parseLambda();

  /// Counts a new node and nesting level; false (after an error) past the
  /// limits.
  bool enterNode();
  ExprPtr makeBinary(const Token &op, BinaryOp kind, ExprPtr lhs, ExprPtr rhs) {
    if (!enterNode())
      return nullptr;
    return std::make_unique<BinaryExpr>(op.getLoc(), kind, std::move(lhs),
                                        std::move(rhs));
  }

  const SourceLocator &locator;
  Lexer lexer;
  Token tok;
  std::optional<Token> peeked;
  unsigned nesting = 0;
  unsigned nodes = 0;
};

/// Restores the nesting depth when a recursive parse returns.
struct NestingScope {
  explicit NestingScope(unsigned &depth) : depth(depth) { ++depth; }
  ~NestingScope() { --depth; }
  unsigned &depth;
};

} // namespace

bool Parser::enterNode() {
  if (++nodes > kMaxNodes) {
    (void)emitError(tok.getLoc(), "expression is too large (more than " +
                                llvm::Twine(kMaxNodes) +
                                " operations); split it into statements");
    return false;
  }
  return true;
}

ParseResult Parser::parseInteger(int64_t &value, const llvm::Twine &what) {
  if (!tok.is(TokenKind::integer))
    return emitExpected(what);
  if (tok.spelling.getAsInteger(10, value))
    return emitError(tok.getLoc(),
                     "integer '" + tok.spelling + "' is too large");
  consume();
  return success();
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>();
  while (!tok.is(TokenKind::eof)) {
    auto kernel = std::make_unique<Kernel>();
    if (tok.is(TokenKind::at)) {
      Schedule schedule;
      if (parseSchedule(schedule))
        return nullptr;
      kernel->schedule = std::move(schedule);
      if (tok.is(TokenKind::at)) {
        (void)emitError(tok.getLoc(), "a kernel takes at most one @schedule(...); "
                                "put all hints in one");
        return nullptr;
      }
      if (!tok.isIdent("kernel")) {
        (void)emitExpected("'kernel' after @schedule(...)");
        return nullptr;
      }
    }
    if (!tok.isIdent("kernel")) {
      (void)emitExpected("'kernel' or '@schedule' at the top level");
      return nullptr;
    }
    if (parseKernel(*kernel))
      return nullptr;
    module->kernels.push_back(std::move(kernel));
  }
  return module;
}

ParseResult Parser::parseSchedule(Schedule &schedule) {
  llvm::SMLoc atLoc = tok.getLoc();
  schedule.loc = atLoc;
  consume(); // '@'
  if (!tok.is(TokenKind::identifier) ||
      tok.getLoc().getPointer() != atLoc.getPointer() + 1)
    return emitError(atLoc, "expected '@schedule'");
  if (tok.spelling != "schedule")
    return emitError(atLoc, "unknown annotation '@" + tok.spelling +
                                "'; expected '@schedule'");
  consume();
  llvm::SMLoc open = tok.getLoc();
  if (expect(TokenKind::l_paren, "after '@schedule'"))
    return failure();
  do {
    ScheduleItem item;
    if (parseScheduleItem(item))
      return failure();
    schedule.items.push_back(std::move(item));
  } while (consumeIf(TokenKind::comma));
  if (!consumeIf(TokenKind::r_paren))
    return emitUnclosed(")", open, "'@schedule('");
  return success();
}

ParseResult Parser::parseScheduleItem(ScheduleItem &item) {
  if (parseIdentifier(item.key, item.keyLoc,
                      "a schedule hint name (tile, stages, cluster, ...)"))
    return failure();
  if (expect(TokenKind::equal, "after '" + item.key + "'"))
    return failure();
  item.valueLoc = tok.getLoc();
  if (tok.isIdent("true") || tok.isIdent("false")) {
    item.kind = ScheduleItem::Kind::Bool;
    item.boolValue = tok.spelling == "true";
    consume();
    return success();
  }
  auto parseSigned = [&](int64_t &value) -> ParseResult {
    bool negative = consumeIf(TokenKind::minus);
    if (parseInteger(value, "an integer"))
      return failure();
    if (negative)
      value = -value;
    return success();
  };
  if (tok.is(TokenKind::l_square)) {
    llvm::SMLoc open = tok.getLoc();
    consume();
    item.kind = ScheduleItem::Kind::List;
    do {
      item.listLocs.push_back(tok.getLoc());
      item.list.emplace_back();
      if (parseSigned(item.list.back()))
        return failure();
    } while (consumeIf(TokenKind::comma));
    if (!consumeIf(TokenKind::r_square))
      return emitUnclosed("]", open, "the list");
    return success();
  }
  if (tok.is(TokenKind::integer) || tok.is(TokenKind::minus)) {
    item.kind = ScheduleItem::Kind::Int;
    return parseSigned(item.intValue);
  }
  return emitExpected("an integer, true, false or a list like [128, 256, 64] "
                      "for '" +
                      item.key + "'");
}

ParseResult Parser::parseKernel(Kernel &kernel) {
  consume(); // 'kernel'
  if (parseIdentifier(kernel.name, kernel.loc, "a kernel name after 'kernel'"))
    return failure();

  llvm::SMLoc open = tok.getLoc();
  if (expect(TokenKind::l_paren,
             "and the parameters after the kernel name '" + kernel.name + "'"))
    return failure();
  while (!tok.is(TokenKind::r_paren)) {
    kernel.params.emplace_back();
    if (parseTensorDecl(kernel.params.back(), "a parameter"))
      return failure();
    if (consumeIf(TokenKind::comma))
      continue;
    if (!tok.is(TokenKind::r_paren))
      return emitUnclosed(")", open, "the parameters of '" + kernel.name + "'");
  }
  consume(); // ')'

  if (!tok.is(TokenKind::arrow))
    return emitExpected("'->' and the outputs after the parameters of '" +
                        kernel.name + "'");
  consume();
  if (tok.is(TokenKind::l_paren)) {
    llvm::SMLoc outOpen = tok.getLoc();
    consume();
    do {
      kernel.outputs.emplace_back();
      if (parseTensorDecl(kernel.outputs.back(), "an output"))
        return failure();
      if (!consumeIf(TokenKind::comma))
        break;
    } while (!tok.is(TokenKind::r_paren));
    if (!consumeIf(TokenKind::r_paren))
      return emitUnclosed(")", outOpen, "the outputs of '" + kernel.name + "'");
  } else {
    kernel.outputs.emplace_back();
    if (parseTensorDecl(kernel.outputs.back(), "an output"))
      return failure();
  }

  kernel.bodyLoc = tok.getLoc();
  if (!tok.is(TokenKind::l_brace))
    return emitExpected("'{' to start the body of '" + kernel.name + "'");
  consume();
  while (!tok.is(TokenKind::r_brace)) {
    if (tok.is(TokenKind::eof) || tok.is(TokenKind::error))
      return emitUnclosed("}", kernel.bodyLoc,
                          "the body of '" + kernel.name + "'");
    kernel.body.emplace_back();
    if (parseStmt(kernel.body.back()))
      return failure();
  }
  consume(); // '}'
  return success();
}

ParseResult Parser::parseTensorDecl(TensorDecl &decl, llvm::StringRef role) {
  if (parseIdentifier(decl.name, decl.loc, role + " name"))
    return failure();
  if (!tok.is(TokenKind::colon))
    return emitExpected("':' and a type after '" + decl.name + "'");
  consume();
  return parseTypeSpec(decl.spec, decl.name);
}

ParseResult Parser::parseTypeSpec(TypeSpec &spec, llvm::StringRef name) {
  if (parseIdentifier(spec.dtype, spec.dtypeLoc,
                      "a dtype (bf16, f16, f32, ...) for '" + name + "'"))
    return failure();
  spec.shapeLoc = tok.getLoc();
  if (!tok.is(TokenKind::l_square))
    return emitExpected("'[' and a shape after '" + spec.dtype +
                        "'; every value is a tensor, e.g. " + spec.dtype +
                        "[N]");
  consume();
  do {
    spec.dims.emplace_back();
    if (parseDim(spec.dims.back()))
      return failure();
  } while (consumeIf(TokenKind::comma));
  if (!consumeIf(TokenKind::r_square))
    return emitUnclosed("]", spec.shapeLoc, "the shape of '" + name + "'");

  if (tok.isIdent("scaled")) {
    spec.scale.emplace();
    return parseScaleSpec(*spec.scale);
  }
  return success();
}

ParseResult Parser::parseDim(DimSpec &dim) {
  dim.loc = tok.getLoc();
  if (tok.is(TokenKind::integer))
    return parseInteger(dim.value, "a dim");
  if (!tok.is(TokenKind::identifier))
    return emitExpected("a dim (a name like M or an integer)");
  dim.name = tok.spelling.str();
  consume();
  char op = tok.is(TokenKind::plus)    ? '+'
            : tok.is(TokenKind::minus) ? '-'
            : tok.is(TokenKind::star)  ? '*'
                                       : 0;
  if (!op)
    return success();
  consume();
  dim.op = op;
  dim.valueLoc = tok.getLoc();
  return parseInteger(dim.value,
                      "an integer after '" + dim.name + " " + llvm::Twine(op) +
                          "'; a dim is NAME, INT or NAME (+|-|*) INT");
}

ParseResult Parser::parseScaleSpec(ScaleSpec &scale) {
  scale.loc = tok.getLoc();
  consume(); // 'scaled'
  llvm::SMLoc open = tok.getLoc();
  if (expect(TokenKind::l_paren, "after 'scaled'"))
    return failure();
  if (parseIdentifier(scale.dtype, scale.dtypeLoc,
                      "the scale dtype (f32, e4m3 or ue8m0)"))
    return failure();
  if (expect(TokenKind::comma, "after the scale dtype"))
    return failure();
  scale.blockLoc = tok.getLoc();
  if (!tok.is(TokenKind::block_shape))
    return emitExpected("a block shape like 1x128");
  auto [rows, cols] = tok.spelling.split('x');
  if (rows.getAsInteger(10, scale.rows) || cols.getAsInteger(10, scale.cols))
    return emitError(tok.getLoc(),
                     "block shape '" + tok.spelling + "' is too large");
  consume();
  if (!consumeIf(TokenKind::r_paren))
    return emitUnclosed(")", open, "'scaled('");
  return success();
}

ParseResult Parser::parseStmt(Stmt &stmt) {
  if (!tok.is(TokenKind::identifier))
    return emitExpected("a statement 'name = expression' or '}'");
  stmt.target = tok.spelling.str();
  stmt.loc = tok.getLoc();
  consume();
  if (!tok.is(TokenKind::equal))
    return emitExpected("'=' after '" + stmt.target + "'");
  consume();
  nodes = 0;
  stmt.value = parseExpr();
  if (!stmt.value)
    return failure();
  while (consumeIf(TokenKind::semicolon)) {
  }
  if (!tok.is(TokenKind::identifier) && !tok.is(TokenKind::r_brace) &&
      !tok.is(TokenKind::eof))
    return emitError(tok.getLoc(), "unexpected " + describeToken(tok) +
                                       " after the value of '" + stmt.target +
                                       "'; expected an operator or the next "
                                       "statement");
  return success();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

ExprPtr Parser::parseExpr() { return parseOr(); }

ExprPtr Parser::parseOr() {
  ExprPtr lhs = parseAnd();
  while (lhs && tok.is(TokenKind::pipepipe)) {
    Token op = tok;
    consume();
    ExprPtr rhs = parseAnd();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op, BinaryOp::Or, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseAnd() {
  ExprPtr lhs = parseComparison();
  while (lhs && tok.is(TokenKind::ampamp)) {
    Token op = tok;
    consume();
    ExprPtr rhs = parseComparison();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op, BinaryOp::And, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

static std::optional<BinaryOp> getComparison(TokenKind kind) {
  switch (kind) {
  case TokenKind::less:
    return BinaryOp::Lt;
  case TokenKind::lesseq:
    return BinaryOp::Le;
  case TokenKind::greater:
    return BinaryOp::Gt;
  case TokenKind::greatereq:
    return BinaryOp::Ge;
  case TokenKind::eqeq:
    return BinaryOp::Eq;
  case TokenKind::noteq:
    return BinaryOp::Ne;
  default:
    return std::nullopt;
  }
}

ExprPtr Parser::parseComparison() {
  ExprPtr lhs = parseAdditive();
  if (!lhs)
    return nullptr;
  std::optional<BinaryOp> kind = getComparison(tok.kind);
  if (!kind)
    return lhs;
  Token op = tok;
  consume();
  ExprPtr rhs = parseAdditive();
  if (!rhs)
    return nullptr;
  if (getComparison(tok.kind)) {
    (void)emitError(tok.getLoc(), "comparisons cannot be chained; combine them "
                            "with '&&'");
    return nullptr;
  }
  return makeBinary(op, *kind, std::move(lhs), std::move(rhs));
}

ExprPtr Parser::parseAdditive() {
  ExprPtr lhs = parseMultiplicative();
  while (lhs && (tok.is(TokenKind::plus) || tok.is(TokenKind::minus))) {
    Token op = tok;
    consume();
    ExprPtr rhs = parseMultiplicative();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(op, op.is(TokenKind::plus) ? BinaryOp::Add : BinaryOp::Sub,
                     std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseMultiplicative() {
  ExprPtr lhs = parseUnary();
  while (lhs && (tok.is(TokenKind::star) || tok.is(TokenKind::slash) ||
                 tok.is(TokenKind::at))) {
    Token op = tok;
    consume();
    ExprPtr rhs = parseUnary();
    if (!rhs)
      return nullptr;
    BinaryOp kind = op.is(TokenKind::star)    ? BinaryOp::Mul
                    : op.is(TokenKind::slash) ? BinaryOp::Div
                                              : BinaryOp::MatMul;
    lhs = makeBinary(op, kind, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseUnary() {
  if (!tok.is(TokenKind::minus) && !tok.is(TokenKind::bang))
    return parsePostfix();
  Token op = tok;
  NestingScope scope(nesting);
  if (nesting > kMaxNesting || !enterNode()) {
    if (nesting > kMaxNesting)
      (void)emitError(tok.getLoc(), "expression is nested too deeply (more than " +
                                  llvm::Twine(kMaxNesting) + " levels)");
    return nullptr;
  }
  consume();
  ExprPtr operand = parseUnary();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryExpr>(
      op.getLoc(), op.is(TokenKind::minus) ? UnaryOp::Neg : UnaryOp::Not,
      std::move(operand));
}

ExprPtr Parser::parsePostfix() {
  ExprPtr expr = parsePrimary();
  while (expr && tok.is(TokenKind::caret_t)) {
    if (!enterNode())
      return nullptr;
    expr = std::make_unique<TransposeExpr>(tok.getLoc(), std::move(expr));
    consume();
  }
  return expr;
}

ExprPtr Parser::parsePrimary() {
  NestingScope scope(nesting);
  if (nesting > kMaxNesting) {
    (void)emitError(tok.getLoc(), "expression is nested too deeply (more than " +
                                llvm::Twine(kMaxNesting) + " levels)");
    return nullptr;
  }
  switch (tok.kind) {
  case TokenKind::integer:
  case TokenKind::floating:
    return parseNumber();
  case TokenKind::identifier: {
    Token name = tok;
    consume();
    if (tok.is(TokenKind::l_paren))
      return parseCall(name);
    if (!enterNode())
      return nullptr;
    return std::make_unique<NameExpr>(name.getLoc(), name.spelling);
  }
  case TokenKind::l_paren: {
    llvm::SMLoc open = tok.getLoc();
    consume();
    ExprPtr inner = parseExpr();
    if (!inner)
      return nullptr;
    if (!consumeIf(TokenKind::r_paren)) {
      (void)emitUnclosed(")", open, "'('");
      return nullptr;
    }
    return inner;
  }
  case TokenKind::pipe:
    (void)emitError(tok.getLoc(), "a lambda '|...| expr' can only be an argument of "
                            "mask(...) or modify(...)");
    return nullptr;
  default:
    (void)emitExpected("an expression");
    return nullptr;
  }
}

ExprPtr Parser::parseNumber() {
  Token number = tok;
  consume();
  if (!enterNode())
    return nullptr;
  if (number.is(TokenKind::integer)) {
    int64_t value;
    // Sema folds numbers as doubles, which hold every integer up to 2^53.
    if (number.spelling.getAsInteger(10, value) ||
        value > (int64_t(1) << 53)) {
      (void)emitError(number.getLoc(), "integer '" + number.spelling +
                                     "' is too large (numbers are exact up "
                                     "to 2^53 = 9007199254740992)");
      return nullptr;
    }
    return std::make_unique<NumberExpr>(number.getLoc(), number.spelling,
                                        static_cast<double>(value), true);
  }
  double value;
  if (number.spelling.getAsDouble(value) || !std::isfinite(value)) {
    (void)emitError(number.getLoc(),
              "number '" + number.spelling + "' is out of range");
    return nullptr;
  }
  // getAsDouble accepts an underflow: a nonzero number that rounds to 0.
  llvm::StringRef digits =
      number.spelling.take_until([](char c) { return c == 'e' || c == 'E'; });
  if (value == 0 && digits.find_first_of("123456789") != llvm::StringRef::npos) {
    (void)emitError(number.getLoc(), "number '" + number.spelling +
                                   "' underflows to 0 (the smallest double is "
                                   "about 4.9e-324)");
    return nullptr;
  }
  return std::make_unique<NumberExpr>(number.getLoc(), number.spelling, value,
                                      false);
}

ExprPtr Parser::parseCall(const Token &callee) {
  llvm::SMLoc open = tok.getLoc();
  consume(); // '('
  if (!enterNode())
    return nullptr;
  auto call = std::make_unique<CallExpr>(callee.getLoc(), callee.spelling);
  while (!tok.is(TokenKind::r_paren)) {
    CallArg arg;
    if (tok.is(TokenKind::identifier) && peek().is(TokenKind::equal)) {
      arg.keyword = tok.spelling.str();
      arg.keywordLoc = tok.getLoc();
      consume();
      consume();
    }
    arg.value = tok.is(TokenKind::pipe) ? parseLambda() : parseExpr();
    if (!arg.value)
      return nullptr;
    call->args.push_back(std::move(arg));
    if (consumeIf(TokenKind::comma))
      continue;
    if (!tok.is(TokenKind::r_paren)) {
      (void)emitUnclosed(")", open, "the arguments of '" + callee.spelling + "'");
      return nullptr;
    }
  }
  call->rparenLoc = tok.getLoc();
  consume();
  return call;
}

ExprPtr Parser::parseLambda() {
  auto lambda = std::make_unique<LambdaExpr>(tok.getLoc());
  consume(); // '|'
  if (!enterNode())
    return nullptr;
  do {
    LambdaExpr::Param param;
    if (parseIdentifier(param.name, param.loc, "a lambda parameter name"))
      return nullptr;
    lambda->params.push_back(std::move(param));
  } while (consumeIf(TokenKind::comma));
  if (!tok.is(TokenKind::pipe)) {
    (void)emitExpected("'|' after the lambda parameters");
    return nullptr;
  }
  consume();
  lambda->body = parseExpr();
  if (!lambda->body)
    return nullptr;
  return lambda;
}

std::unique_ptr<Module> kiln::parseModule(const SourceLocator &locator) {
  return Parser(locator).parseModule();
}
