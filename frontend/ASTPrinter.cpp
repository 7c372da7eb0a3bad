//===- ASTPrinter.cpp - textual dump of a checked .kiln AST ---------------===//
//
// Format, one node per line, children indented by two spaces:
//
//   Kernel 'matmul' <2:8>
//     Param 'a' bf16[M, K] <2:15>
//     Assign 'c' output <3:3>
//       MatMul '@' : f32[M, N] <3:9>
//
//===----------------------------------------------------------------------===//

#include "frontend/ASTPrinter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace kiln;
using namespace kiln::ast;

namespace {

llvm::StringRef getBuiltinName(Builtin builtin) {
  switch (builtin) {
  case Builtin::Unresolved:
    return "unresolved";
  case Builtin::Silu:
    return "silu";
  case Builtin::Gelu:
    return "gelu";
  case Builtin::Sigmoid:
    return "sigmoid";
  case Builtin::Tanh:
    return "tanh";
  case Builtin::Exp:
    return "exp";
  case Builtin::Relu:
    return "relu";
  case Builtin::Rsqrt:
    return "rsqrt";
  case Builtin::Maximum:
    return "maximum";
  case Builtin::Minimum:
    return "minimum";
  case Builtin::Where:
    return "where";
  case Builtin::Cast:
    return "cast";
  case Builtin::Sum:
    return "sum";
  case Builtin::ReduceMax:
    return "reduce-max";
  case Builtin::LogSumExp:
    return "logsumexp";
  case Builtin::Softmax:
    return "softmax";
  case Builtin::Causal:
    return "causal";
  case Builtin::Mask:
    return "mask";
  case Builtin::Modify:
    return "modify";
  case Builtin::Grouped:
    return "grouped";
  case Builtin::PerGroup:
    return "per_group";
  }
  return "?";
}

class Printer {
public:
  Printer(const llvm::SourceMgr &sm, llvm::raw_ostream &os) : sm(sm), os(os) {}

  void print(const Module &module) {
    for (const auto &kernel : module.kernels)
      print(*kernel);
  }

private:
  /// " <line:col>"
  std::string pos(llvm::SMLoc loc) {
    if (!loc.isValid())
      return "";
    auto [line, col] = sm.getLineAndColumn(loc);
    return llvm::formatv(" <{0}:{1}>", line, col).str();
  }
  llvm::raw_ostream &line() { return os.indent(indent); }

  void print(const Kernel &kernel) {
    line() << "Kernel '" << kernel.name << "'" << pos(kernel.loc) << "\n";
    indent += 2;
    if (kernel.schedule) {
      line() << "Schedule" << pos(kernel.schedule->loc) << "\n";
      indent += 2;
      for (const ScheduleItem &item : kernel.schedule->items) {
        line() << "Hint '" << item.key << "' = ";
        switch (item.kind) {
        case ScheduleItem::Kind::Int:
          os << item.intValue;
          break;
        case ScheduleItem::Kind::Bool:
          os << (item.boolValue ? "true" : "false");
          break;
        case ScheduleItem::Kind::List:
          os << "[";
          llvm::interleaveComma(item.list, os);
          os << "]";
          break;
        }
        os << pos(item.keyLoc) << "\n";
      }
      indent -= 2;
    }
    for (const TensorDecl &param : kernel.params)
      line() << "Param '" << param.name << "' " << formatType(param.type)
             << pos(param.loc) << "\n";
    for (const TensorDecl &output : kernel.outputs)
      line() << "Output '" << output.name << "' " << formatType(output.type)
             << pos(output.loc) << "\n";
    for (const Stmt &stmt : kernel.body) {
      line() << "Assign '" << stmt.target << "' "
             << (stmt.output ? "output" : "local") << pos(stmt.loc) << "\n";
      indent += 2;
      print(*stmt.value);
      indent -= 2;
    }
    indent -= 2;
  }

  void print(const Expr &expr) {
    line();
    switch (expr.getKind()) {
    case ExprKind::Number:
      os << "Number " << llvm::cast<NumberExpr>(expr).spelling;
      break;
    case ExprKind::Name: {
      auto &name = llvm::cast<NameExpr>(expr);
      os << "Name '" << name.name << "' "
         << (name.param                     ? "param"
             : name.lambdaParam             ? "lambda-param"
             : name.def && name.def->output ? "output"
             : name.def                     ? "local"
                                            : "constant");
      break;
    }
    case ExprKind::Unary:
      os << "Unary '"
         << (llvm::cast<UnaryExpr>(expr).op == UnaryOp::Neg ? "-" : "!") << "'";
      break;
    case ExprKind::Binary: {
      auto &binary = llvm::cast<BinaryExpr>(expr);
      os << (binary.op == BinaryOp::MatMul ? "MatMul" : "Binary") << " '"
         << getSpelling(binary.op) << "'";
      break;
    }
    case ExprKind::Transpose:
      os << "Transpose '^T'";
      break;
    case ExprKind::Call: {
      auto &call = llvm::cast<CallExpr>(expr);
      os << "Call '" << call.callee << "'";
      // Name what the call resolved to where the callee alone does not say.
      if (getBuiltinName(call.builtin) != call.callee)
        os << " " << getBuiltinName(call.builtin);
      if (call.builtin == Builtin::Cast)
        os << " to " << getDTypeName(call.castType);
      if (call.builtin == Builtin::Sum || call.builtin == Builtin::ReduceMax ||
          call.builtin == Builtin::LogSumExp)
        os << " axis=" << call.axis;
      break;
    }
    case ExprKind::Lambda: {
      os << "Lambda |";
      auto &lambda = llvm::cast<LambdaExpr>(expr);
      for (const LambdaExpr::Param &param : lambda.params)
        os << (&param == &lambda.params.front() ? "" : ", ") << param.name;
      os << "|";
      break;
    }
    }
    if (!expr.type.isInvalid())
      os << " : " << expr.type.str();
    os << pos(expr.getLoc()) << "\n";

    indent += 2;
    switch (expr.getKind()) {
    case ExprKind::Unary:
      print(*llvm::cast<UnaryExpr>(expr).operand);
      break;
    case ExprKind::Binary:
      print(*llvm::cast<BinaryExpr>(expr).lhs);
      print(*llvm::cast<BinaryExpr>(expr).rhs);
      break;
    case ExprKind::Transpose:
      print(*llvm::cast<TransposeExpr>(expr).operand);
      break;
    case ExprKind::Call:
      for (const CallArg &arg : llvm::cast<CallExpr>(expr).args) {
        if (!arg.keyword.empty()) {
          line() << "Keyword '" << arg.keyword << "'" << pos(arg.keywordLoc)
                 << "\n";
          indent += 2;
          print(*arg.value);
          indent -= 2;
        } else {
          print(*arg.value);
        }
      }
      break;
    case ExprKind::Lambda:
      print(*llvm::cast<LambdaExpr>(expr).body);
      break;
    default:
      break;
    }
    indent -= 2;
  }

  const llvm::SourceMgr &sm;
  llvm::raw_ostream &os;
  unsigned indent = 0;
};

} // namespace

void kiln::printAST(const Module &module, const llvm::SourceMgr &sm,
                    llvm::raw_ostream &os) {
  Printer(sm, os).print(module);
}
