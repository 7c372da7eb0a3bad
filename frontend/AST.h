//===- AST.h - syntax tree of the .kiln language ----------------*- C++ -*-===//
//
// The parser builds this tree; Sema resolves names, builtins and types in
// place (the fields marked "Sema"), so the printer and MLIRGen read one
// structure. Every node keeps the position of the token that names it, which
// becomes the FileLineColLoc of its diagnostics and of the ops made from it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_AST_H
#define KILN_FRONTEND_AST_H

#include "frontend/Types.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::ast {

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

/// One extent as written: `M`, `128`, or `E + 1` (name, op, value).
struct DimSpec {
  llvm::SMLoc loc;
  std::string name; ///< empty for a constant
  char op = 0;      ///< 0, '+', '-' or '*'
  int64_t value = 0;
  llvm::SMLoc valueLoc;
};

/// `scaled(f32, 1x128)`.
struct ScaleSpec {
  llvm::SMLoc loc; ///< the `scaled` keyword
  std::string dtype;
  llvm::SMLoc dtypeLoc;
  int64_t rows = 0, cols = 0;
  llvm::SMLoc blockLoc;
};

/// `bf16[M, K]`, `e4m3[M, K] scaled(f32, 1x128)`.
struct TypeSpec {
  std::string dtype;
  llvm::SMLoc dtypeLoc;
  llvm::SMLoc shapeLoc; ///< the '['
  std::vector<DimSpec> dims;
  std::optional<ScaleSpec> scale;
};

/// `a: bf16[M, K]`, a parameter or an output.
struct TensorDecl {
  std::string name;
  llvm::SMLoc loc;
  TypeSpec spec;
  TensorType type; ///< Sema: the resolved type
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Stmt;

enum class ExprKind { Number, Name, Unary, Binary, Transpose, Call, Lambda };

/// Base of expressions. `loc` is the token that names the operation: the
/// operator of a binary expression, the callee of a call.
class Expr {
public:
  virtual ~Expr() = default;
  ExprKind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return loc; }

  /// Sema: the inferred type.
  ValueType type;

protected:
  Expr(ExprKind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}

private:
  ExprKind kind;
  llvm::SMLoc loc;
};

/// `128`, `0.5`, `1e-3`.
class NumberExpr : public Expr {
public:
  NumberExpr(llvm::SMLoc loc, llvm::StringRef spelling, double value,
             bool isInteger)
      : Expr(ExprKind::Number, loc), spelling(spelling.str()), value(value),
        isInteger(isInteger) {}
  static bool classof(const Expr *e) {
    return e->getKind() == ExprKind::Number;
  }

  std::string spelling;
  double value;
  bool isInteger;
};

/// A reference to a parameter, a local, an output or a lambda parameter.
class NameExpr : public Expr {
public:
  NameExpr(llvm::SMLoc loc, llvm::StringRef name)
      : Expr(ExprKind::Name, loc), name(name.str()) {}
  static bool classof(const Expr *e) { return e->getKind() == ExprKind::Name; }

  std::string name;

  /// Sema: what the name refers to (exactly one is set, or none for `inf`).
  const TensorDecl *param = nullptr;
  const Stmt *def = nullptr;
  std::optional<unsigned> lambdaParam;
};

enum class UnaryOp { Neg, Not };

class UnaryExpr : public Expr {
public:
  UnaryExpr(llvm::SMLoc loc, UnaryOp op, ExprPtr operand)
      : Expr(ExprKind::Unary, loc), op(op), operand(std::move(operand)) {}
  static bool classof(const Expr *e) { return e->getKind() == ExprKind::Unary; }

  UnaryOp op;
  ExprPtr operand;
};

enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,
  MatMul,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  And,
  Or
};

/// The source spelling of a binary operator.
llvm::StringRef getSpelling(BinaryOp op);
bool isComparison(BinaryOp op);

class BinaryExpr : public Expr {
public:
  BinaryExpr(llvm::SMLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(ExprKind::Binary, loc), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  static bool classof(const Expr *e) {
    return e->getKind() == ExprKind::Binary;
  }

  BinaryOp op;
  ExprPtr lhs, rhs;
};

/// `x^T`: swaps the last two axes; only a matmul operand may be transposed.
class TransposeExpr : public Expr {
public:
  TransposeExpr(llvm::SMLoc loc, ExprPtr operand)
      : Expr(ExprKind::Transpose, loc), operand(std::move(operand)) {}
  static bool classof(const Expr *e) {
    return e->getKind() == ExprKind::Transpose;
  }

  ExprPtr operand;
};

/// The functions of the language, resolved by Sema from a call's name and
/// arguments (`max(a, b)` is elementwise, `max(x, axis = 0)` a reduction).
enum class Builtin {
  Unresolved,
  Silu,
  Gelu,
  Sigmoid,
  Tanh,
  Exp,
  Relu,
  Rsqrt,
  Maximum,
  Minimum,
  Where,
  Cast,
  Sum,
  ReduceMax,
  LogSumExp,
  Softmax,
  Causal,
  Mask,
  Modify,
  Grouped,
  PerGroup,
};

/// One argument: positional, or `axis = -1`.
struct CallArg {
  std::string keyword; ///< empty for positional arguments
  llvm::SMLoc keywordLoc;
  ExprPtr value;
};

class CallExpr : public Expr {
public:
  CallExpr(llvm::SMLoc loc, llvm::StringRef callee)
      : Expr(ExprKind::Call, loc), callee(callee.str()) {}
  static bool classof(const Expr *e) { return e->getKind() == ExprKind::Call; }

  std::string callee;
  std::vector<CallArg> args;
  llvm::SMLoc rparenLoc;

  /// Sema: the function called, the target of a cast, a reduction's axis
  /// (non-negative).
  Builtin builtin = Builtin::Unresolved;
  ElemType castType = ElemType::F32;
  int64_t axis = 0;
};

/// `|i, j| i >= j`, the predicate of mask(...) or the body of modify(...).
class LambdaExpr : public Expr {
public:
  struct Param {
    std::string name;
    llvm::SMLoc loc;
  };
  LambdaExpr(llvm::SMLoc loc) : Expr(ExprKind::Lambda, loc) {}
  static bool classof(const Expr *e) {
    return e->getKind() == ExprKind::Lambda;
  }

  std::vector<Param> params;
  ExprPtr body;
};

/// The expression as source text (`x @ w1^T`), for messages; long texts are
/// shortened with "...".
std::string renderExpr(const Expr &expr);

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// `name = expr`.
struct Stmt {
  std::string target;
  llvm::SMLoc loc;
  ExprPtr value;
  /// Sema: the output this statement defines, if it assigns one.
  const TensorDecl *output = nullptr;
};

/// One `key = value` of a schedule hint.
struct ScheduleItem {
  enum class Kind { Int, Bool, List };
  std::string key;
  llvm::SMLoc keyLoc;
  Kind kind = Kind::Int;
  llvm::SMLoc valueLoc;
  int64_t intValue = 0;
  bool boolValue = false;
  std::vector<int64_t> list;
  std::vector<llvm::SMLoc> listLocs;
};

/// `@schedule(tile = [128, 256, 64], stages = 4)`.
struct Schedule {
  llvm::SMLoc loc;
  std::vector<ScheduleItem> items;
};

struct Kernel {
  std::string name;
  llvm::SMLoc loc; ///< the name
  std::optional<Schedule> schedule;
  std::vector<TensorDecl> params;
  std::vector<TensorDecl> outputs;
  std::vector<Stmt> body;
  llvm::SMLoc bodyLoc; ///< the '{'
};

/// A parsed .kiln file.
struct Module {
  std::vector<std::unique_ptr<Kernel>> kernels;
};

} // namespace kiln::ast

#endif // KILN_FRONTEND_AST_H
