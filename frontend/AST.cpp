//===- AST.cpp - syntax tree of the .kiln language ------------------------===//

#include "frontend/AST.h"

using namespace kiln::ast;

llvm::StringRef kiln::ast::getSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::MatMul:
    return "@";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::And:
    return "&&";
  case BinaryOp::Or:
    return "||";
  }
  return "?";
}

bool kiln::ast::isComparison(BinaryOp op) {
  switch (op) {
  case BinaryOp::Lt:
  case BinaryOp::Le:
  case BinaryOp::Gt:
  case BinaryOp::Ge:
  case BinaryOp::Eq:
  case BinaryOp::Ne:
    return true;
  default:
    return false;
  }
}

namespace {
/// Operator precedence as in the grammar, to parenthesize only where needed.
int getPrecedence(const Expr &expr) {
  auto *binary = llvm::dyn_cast<BinaryExpr>(&expr);
  if (!binary)
    return llvm::isa<UnaryExpr>(expr) ? 6 : 7;
  switch (binary->op) {
  case BinaryOp::Or:
    return 1;
  case BinaryOp::And:
    return 2;
  case BinaryOp::Add:
  case BinaryOp::Sub:
    return 4;
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::MatMul:
    return 5;
  default:
    return 3;
  }
}

void render(const Expr &expr, std::string &out);

void renderOperand(const Expr &operand, int parent, bool rightSide,
                   std::string &out) {
  int prec = getPrecedence(operand);
  bool parens = prec < parent || (rightSide && prec == parent);
  if (parens)
    out += "(";
  render(operand, out);
  if (parens)
    out += ")";
}

void render(const Expr &expr, std::string &out) {
  if (out.size() > 200)
    return;
  switch (expr.getKind()) {
  case ExprKind::Number:
    out += llvm::cast<NumberExpr>(expr).spelling;
    return;
  case ExprKind::Name:
    out += llvm::cast<NameExpr>(expr).name;
    return;
  case ExprKind::Unary: {
    auto &unary = llvm::cast<UnaryExpr>(expr);
    out += unary.op == UnaryOp::Neg ? "-" : "!";
    renderOperand(*unary.operand, 6, false, out);
    return;
  }
  case ExprKind::Binary: {
    auto &binary = llvm::cast<BinaryExpr>(expr);
    int prec = getPrecedence(binary);
    renderOperand(*binary.lhs, prec, false, out);
    out += " " + getSpelling(binary.op).str() + " ";
    renderOperand(*binary.rhs, prec, true, out);
    return;
  }
  case ExprKind::Transpose:
    renderOperand(*llvm::cast<TransposeExpr>(expr).operand, 7, false, out);
    out += "^T";
    return;
  case ExprKind::Call: {
    auto &call = llvm::cast<CallExpr>(expr);
    out += call.callee + "(";
    for (const CallArg &arg : call.args) {
      if (&arg != &call.args.front())
        out += ", ";
      if (!arg.keyword.empty())
        out += arg.keyword + " = ";
      render(*arg.value, out);
    }
    out += ")";
    return;
  }
  case ExprKind::Lambda: {
    auto &lambda = llvm::cast<LambdaExpr>(expr);
    out += "|";
    for (const LambdaExpr::Param &param : lambda.params)
      out += (&param == &lambda.params.front() ? "" : ", ") + param.name;
    out += "| ";
    render(*lambda.body, out);
    return;
  }
  }
}
} // namespace

std::string kiln::ast::renderExpr(const Expr &expr) {
  std::string out;
  render(expr, out);
  constexpr size_t kMaxLength = 40;
  if (out.size() > kMaxLength)
    out = out.substr(0, kMaxLength - 3) + "...";
  return out;
}
