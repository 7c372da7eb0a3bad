//===- Sema.cpp - name, type and shape checking of .kiln ------------------===//
//
// Checks kernels statement by statement. Each expression gets a ValueType;
// an error yields the Invalid type, which silences checks that depend on it
// so that one mistake is reported once. Number literals are folded here, so
// `1 / 128` or `rsqrt(128.0)` reach MLIRGen as constants.
//
//===----------------------------------------------------------------------===//

#include "frontend/Sema.h"
#include "frontend/Suggest.h"

#include "dialects/Tile/IR/TileShapes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"

#include <cmath>

using namespace kiln;
using namespace kiln::ast;
using mlir::failure;
using mlir::LogicalResult;
using mlir::success;

/// The elementwise code of one kernel becomes its epilogue, unrolled over
/// every accumulator element a thread holds (64 to 128), and ptxas's time
/// grows faster than linearly in it: unbounded, a few lines of nested math
/// take minutes to assemble. docs/language.md lists the costs.
static llvm::cl::opt<unsigned> maxElementwiseCost(
    "max-elementwise-cost",
    llvm::cl::desc("Largest estimated instruction count of one output "
                   "element's elementwise math in a kernel (0: no limit)"),
    llvm::cl::init(512));

namespace {

//===----------------------------------------------------------------------===//
// Builtins
//===----------------------------------------------------------------------===//

constexpr llvm::StringLiteral kFunctionNames[] = {
    "silu",   "gelu", "sigmoid", "tanh",    "exp",  "relu",
    "rsqrt",  "max",  "min",     "where",   "sum",  "logsumexp",
    "softmax", "causal", "mask", "modify",  "grouped", "per_group", "bf16",
    "f16",    "f32",    "i32",  "e4m3",    "e5m2"};

/// Elementwise functions of one float argument.
std::optional<Builtin> lookupUnaryFloatFunction(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Builtin>>(name)
      .Case("silu", Builtin::Silu)
      .Case("gelu", Builtin::Gelu)
      .Case("sigmoid", Builtin::Sigmoid)
      .Case("tanh", Builtin::Tanh)
      .Case("exp", Builtin::Exp)
      .Case("relu", Builtin::Relu)
      .Case("rsqrt", Builtin::Rsqrt)
      .Default(std::nullopt);
}

/// Targets of casts: a dtype used as a function (every plain dtype except
/// the block-scale-only e2m1 and ue8m0).
std::optional<ElemType> lookupCast(llvm::StringRef name) {
  std::optional<ElemType> type = parsePlainDType(name);
  if (type == ElemType::E2M1 || type == ElemType::UE8M0)
    return std::nullopt;
  return type;
}

/// Estimated instructions one element of `fn` costs once lowered (the
/// hardware approximations and libdevice's expansions), beyond the one every
/// elementwise operation is counted.
unsigned elementwiseCost(Builtin fn) {
  switch (fn) {
  case Builtin::Exp:
    return 8; // libdevice's range reduction around ex2.approx
  case Builtin::Sigmoid:
  case Builtin::Silu:
    return 4; // ex2.approx and rcp.approx with their scaling
  case Builtin::Gelu:
    return 40; // libdevice's erf polynomial
  case Builtin::Rsqrt:
    return 2;
  default:
    return 0; // tanh.approx, relu's max
  }
}

double foldUnaryFloat(Builtin fn, double x) {
  auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  switch (fn) {
  case Builtin::Silu:
    return x * sigmoid(x);
  case Builtin::Gelu:
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
  case Builtin::Sigmoid:
    return sigmoid(x);
  case Builtin::Tanh:
    return std::tanh(x);
  case Builtin::Exp:
    return std::exp(x);
  case Builtin::Relu:
    return x > 0 ? x : 0.0;
  case Builtin::Rsqrt:
    return 1.0 / std::sqrt(x);
  default:
    return x;
  }
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// What an elementwise operation accepts.
enum class Operands {
  Numeric, ///< floats, i32 and indices (+, -, *, /, comparisons, max, min)
  Float,   ///< floats only (silu, exp, ...)
  Logical, ///< predicates only (&&, ||, !)
};

/// The wider of two (non-narrow) floats; bf16 and f16 meet at f32.
ElemType promoteFloats(ElemType a, ElemType b) {
  if (a == b)
    return a;
  return ElemType::F32;
}

/// Numpy broadcasting of two shapes, or nullopt (with the first clashing
/// pair) if they do not broadcast.
std::optional<llvm::SmallVector<std::string, 4>>
broadcastShapes(llvm::ArrayRef<std::string> a, llvm::ArrayRef<std::string> b,
                std::pair<std::string, std::string> &clash) {
  size_t rank = std::max(a.size(), b.size());
  llvm::SmallVector<std::string, 4> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    std::string da = i < a.size() ? a[a.size() - 1 - i] : "1";
    std::string db = i < b.size() ? b[b.size() - 1 - i] : "1";
    if (da == db || db == "1") {
      result[rank - 1 - i] = da;
    } else if (da == "1") {
      result[rank - 1 - i] = db;
    } else {
      clash = {da, db};
      return std::nullopt;
    }
  }
  return result;
}

/// Whether the integer `value` is representable in `dtype` (i32 or index).
bool fitsInteger(double value, ElemType dtype) {
  double limit = dtype == ElemType::I32 ? 2147483648.0 : 9223372036854775808.0;
  return value >= -limit && value < limit;
}

/// "K=64" for a constant contraction extent, the name otherwise.
std::string describeDim(llvm::StringRef dim, llvm::StringRef role) {
  if (tile::getConstantDim(dim))
    return role.str() + "=" + dim.str();
  return dim.str();
}

/// The expression as quoted in messages.
std::string quote(const Expr &expr) { return "'" + renderExpr(expr) + "'"; }

//===----------------------------------------------------------------------===//
// KernelChecker
//===----------------------------------------------------------------------===//

class KernelChecker {
public:
  KernelChecker(Kernel &kernel, const SourceLocator &locator)
      : kernel(kernel), locator(locator) {}

  LogicalResult run();

private:
  mlir::InFlightDiagnostic error(llvm::SMLoc loc) {
    hadError = true;
    ++errorCount;
    return locator.emitError(loc);
  }
  /// Whether the next error may carry a "did you mean": only the first
  /// kMaxSuggestedErrors do. Past those the driver's error limit hides the
  /// message anyway, and a suggestion costs a scan of every visible name
  /// (20,000 unknown names among 20,000 bound ones took minutes).
  bool maySuggest() const { return errorCount < kMaxSuggestedErrors; }

  // Declarations and statements.
  void declareTensors();
  void checkStmt(Stmt &stmt);
  /// The row extent of the `x` of each `grouped(x, offsets)` (by offsets
  /// name), from collectGroupedRows.
  llvm::StringMap<std::string> groupedRows;
  void checkOutputValue(const Stmt &stmt, const TensorDecl &output);
  void warnUnused();

  // Expressions. Each sets and returns `expr.type`.
  ValueType check(Expr &expr);
  ValueType checkName(NameExpr &expr);
  ValueType checkUnary(UnaryExpr &expr);
  ValueType checkBinary(BinaryExpr &expr);
  ValueType checkMatmul(BinaryExpr &expr);
  ValueType checkCall(CallExpr &expr);

  /// Reports a folded constant `result` of `expr` that left the range of the
  /// numbers Sema folds exactly: infinite from finite operands (overflow), 0
  /// from nonzero ones (`nonzeroExpected`, underflow), or an integer beyond
  /// 2^53 (where doubles stop holding every integer).
  LogicalResult checkFolded(const Expr &expr, double result,
                            bool finiteOperands, bool nonzeroExpected,
                            bool integer);

  /// Types an elementwise operation over `operands` (already checked); folds
  /// when all operands are numbers is left to the caller.
  ValueType combine(llvm::SMLoc loc, llvm::StringRef what,
                    llvm::ArrayRef<const Expr *> operands, Operands accepts);
  /// Whether `operand` may be read by an operation accepting `accepts`.
  bool checkOperandKind(llvm::SMLoc loc, llvm::StringRef what,
                        const Expr &operand, Operands accepts);
  /// Types one operand of '@': peels `^T`, resolves `grouped(...)`.
  struct MatmulOperand {
    Expr *base = nullptr;
    bool transposed = false;
    llvm::SMLoc transposeLoc;
    const TensorDecl *scaled = nullptr; ///< block-scaled parameter
    CallExpr *grouped = nullptr;
    ValueType type; ///< as multiplied (after transposes)
  };
  MatmulOperand checkMatmulOperand(ExprPtr &operand, bool isLhs);
  ValueType checkGroupedMatmul(BinaryExpr &expr, MatmulOperand &lhs,
                               MatmulOperand &rhs);
  /// Whether `offsets` is an i32 vector; else an error naming its
  /// extent `count`+1.
  bool checkOffsets(const Expr &offsets, llvm::StringRef count,
                    llvm::StringRef form = "grouped(x, offsets)");
  /// Whether `offsets` (i32[B+1]) has one entry more than `groups`, the
  /// leading extent of `what` (an error at `offsets` if not).
  bool checkOffsetsCount(const Expr &offsets, const Expr &what,
                         const std::string &groups);
  /// per_group(b, offsets): b's row e for each row of group e.
  ValueType checkPerGroup(CallExpr &call);
  /// Records, for each offsets tensor of a `grouped(x, offsets)` product,
  /// the row extent T of its `x` (which per_group(b, offsets) takes).
  void collectGroupedRows();
  /// The broadcast of the batch axes (all but the last two) of `sa` (of `a`)
  /// and `sb` (of `b`), or an error at `expr`.
  std::optional<llvm::SmallVector<std::string>>
  checkBatchBroadcast(const BinaryExpr &expr, const Expr &a,
                      llvm::ArrayRef<std::string> sa, const Expr &b,
                      llvm::ArrayRef<std::string> sb);
  /// Records a contraction of `mmaType` operands (the narrowest decides the
  /// kernel's defaults).
  void noteContraction(ElemType mmaType);
  /// grouped(q, cu_q) @ grouped(k, cu_k)^T: the products of q's row segment
  /// b with k's row segment b (varlen attention's scores).
  ValueType checkSegmentedMatmul(BinaryExpr &expr, MatmulOperand &lhs,
                                 MatmulOperand &rhs);
  /// The element type the MMA multiplies, or nullopt after an error.
  std::optional<ElemType> checkMmaTypes(BinaryExpr &expr, const MatmulOperand &lhs,
                                     const MatmulOperand &rhs);
  /// Block scales of the operands of '@': both or neither, the lhs
  /// untransposed, one scale type, one block along K (recorded in
  /// `contractions`); false after an error.
  bool checkScalePair(BinaryExpr &expr, const MatmulOperand &lhs,
                      const MatmulOperand &rhs);
  ValueType checkLambda(LambdaExpr &lambda, llvm::ArrayRef<ElemType> paramTypes,
                        llvm::StringRef what, llvm::StringRef paramNames);

  /// Splits `call`'s arguments; checks arity and keywords. `keywords` lists
  /// the allowed keyword names.
  bool checkArity(CallExpr &call, size_t positional,
                  llvm::ArrayRef<llvm::StringRef> keywords,
                  llvm::StringRef argNames);
  /// The value of the `axis` keyword (default -1), normalized for `rank`.
  std::optional<int64_t> getAxis(CallExpr &call, const ValueType &input);
  /// Checks that the only argument of a tensor-level function is a tensor of
  /// floats with at least `minRank` axes.
  bool checkFloatTensor(CallExpr &call, const ValueType &input, size_t minRank);

  Kernel &kernel;
  const SourceLocator &locator;
  bool hadError = false;
  unsigned errorCount = 0;
  /// Estimated instructions per element of all the kernel's elementwise
  /// operations (maxElementwiseCost bounds it).
  uint64_t cost = 0;

  llvm::StringMap<TensorDecl *> params;
  llvm::StringMap<TensorDecl *> outputs;
  /// The current value of each local and assigned output.
  struct Binding {
    const Stmt *def;
    ValueType type;
  };
  llvm::StringMap<Binding> bindings;
  llvm::StringMap<const Stmt *> assignedOutputs;
  llvm::DenseSet<const Stmt *> usedDefs;
  llvm::DenseSet<const TensorDecl *> usedParams;
  /// Declarations with errors; what reads them is not checked further.
  llvm::DenseSet<const TensorDecl *> badDecls;

  /// Inside a lambda: its parameters and their types.
  LambdaExpr *lambda = nullptr;
  llvm::SmallVector<ElemType, 3> lambdaTypes;
  /// Set while checking the base of a matmul operand, where block-scaled
  /// parameters may appear.
  bool allowScaled = false;

  ContractionInfo contractions;
};

} // namespace

//===----------------------------------------------------------------------===//
// Declarations and statements
//===----------------------------------------------------------------------===//

void KernelChecker::declareTensors() {
  llvm::StringSet<> boundDims;
  for (TensorDecl &param : kernel.params) {
    if (failed(resolveTensorDecl(param, /*isOutput=*/false, locator))) {
      hadError = true;
      badDecls.insert(&param);
    }
    auto [it, inserted] = params.try_emplace(param.name, &param);
    if (!inserted) {
      auto diag = error(param.loc);
      diag << "parameter '" << param.name << "' is declared twice";
      diag.attachNote(locator.getLoc(it->second->loc)) << "first declared here";
    }
    for (const DimSpec &dim : param.spec.dims)
      if (!dim.name.empty())
        boundDims.insert(dim.name);
  }
  for (TensorDecl &output : kernel.outputs) {
    if (failed(resolveTensorDecl(output, /*isOutput=*/true, locator))) {
      hadError = true;
      badDecls.insert(&output);
    }
    if (auto it = params.find(output.name); it != params.end()) {
      auto diag = error(output.loc);
      diag << "'" << output.name << "' is both a parameter and an output";
      diag.attachNote(locator.getLoc(it->second->loc))
          << "parameter declared here";
      badDecls.insert(it->second);
      continue;
    }
    auto [it, inserted] = outputs.try_emplace(output.name, &output);
    if (!inserted) {
      auto diag = error(output.loc);
      diag << "output '" << output.name << "' is declared twice";
      diag.attachNote(locator.getLoc(it->second->loc)) << "first declared here";
    }
    // Extents are bound at launch from the inputs' shapes; an output can only
    // use extents some input has.
    for (const DimSpec &dim : output.spec.dims)
      if (!dim.name.empty() && !boundDims.contains(dim.name)) {
        error(dim.loc) << "dim '" << dim.name << "' of output '" << output.name
                       << "' is not bound by any parameter; an output's "
                          "extents must follow from the inputs";
        badDecls.insert(&output);
        break;
      }
  }
}

void KernelChecker::checkStmt(Stmt &stmt) {
  ValueType value = check(*stmt.value);
  if (auto it = params.find(stmt.target); it != params.end()) {
    // A name that is also an output was reported with the declarations.
    if (!badDecls.contains(it->second))
      error(stmt.loc) << "cannot assign to parameter '" << stmt.target
                      << "'; parameters are read-only";
    return;
  }
  auto output = outputs.find(stmt.target);
  if (output == outputs.end()) {
    // A local: (re)bind it. Locals may hold numbers, which are inlined.
    bindings[stmt.target] = Binding{&stmt, value};
    return;
  }
  auto [it, inserted] = assignedOutputs.try_emplace(stmt.target, &stmt);
  if (!inserted) {
    auto diag = error(stmt.loc);
    diag << "output '" << stmt.target << "' is assigned twice";
    diag.attachNote(locator.getLoc(it->second->loc)) << "first assigned here";
    return;
  }
  stmt.output = output->second;
  if (!badDecls.contains(output->second))
    checkOutputValue(stmt, *output->second);
  ValueType declared =
      ValueType::tensor(output->second->type.dtype, output->second->type.shape);
  bool valid = !value.isInvalid() && !badDecls.contains(output->second);
  bindings[stmt.target] =
      Binding{&stmt, valid ? declared : ValueType::invalid()};
}

void KernelChecker::checkOutputValue(const Stmt &stmt,
                                     const TensorDecl &output) {
  const ValueType &value = stmt.value->type;
  const TensorType &type = output.type;
  if (value.isInvalid())
    return;
  if (value.isNumber()) {
    error(stmt.loc) << "cannot assign a number to output '" << output.name
                    << "'; outputs are tensors (" << formatType(type) << ")";
    return;
  }
  if (value.shape != type.shape) {
    error(stmt.loc) << "output '" << output.name << "' is declared "
                    << tile::formatDims(type.shape)
                    << " but is assigned a value of shape "
                    << tile::formatDims(value.shape);
    return;
  }
  if (value.dtype == ElemType::I1) {
    error(stmt.loc) << "cannot assign a predicate (i1) to output '"
                    << output.name << "'; select values with where(...)";
    return;
  }
  // Float results convert to the output's float type; crossing between
  // floats and integers must be spelled out.
  if (isFloat(value.dtype) != isFloat(type.dtype))
    error(stmt.loc) << "cannot assign " << getDTypeName(value.dtype)
                    << " values to " << getDTypeName(type.dtype) << " output '"
                    << output.name << "' without a cast; write "
                    << getDTypeName(type.dtype) << "(...)";
}

void KernelChecker::warnUnused() {
  for (const TensorDecl &param : kernel.params)
    if (!usedParams.contains(&param))
      locator.emitWarning(param.loc)
          << "parameter '" << param.name << "' is never used";
  for (const Stmt &stmt : kernel.body)
    if (!stmt.output && !usedDefs.contains(&stmt))
      locator.emitWarning(stmt.loc)
          << "'" << stmt.target << "' is assigned but never used";
}

LogicalResult KernelChecker::run() {
  declareTensors();
  collectGroupedRows();
  // Statements are checked even after declaration errors, so that all
  // problems are reported in one run; Invalid types keep them independent.
  for (Stmt &stmt : kernel.body)
    checkStmt(stmt);
  for (TensorDecl &output : kernel.outputs)
    if (outputs.lookup(output.name) == &output &&
        !assignedOutputs.contains(output.name))
      error(output.loc) << "output '" << output.name << "' is never assigned";
  if (kernel.schedule && !hadError &&
      failed(checkSchedule(*kernel.schedule, contractions, locator)))
    hadError = true;
  if (!hadError && maxElementwiseCost != 0 && cost > maxElementwiseCost)
    error(kernel.loc) << "kernel '" << kernel.name
                      << "' computes about " << cost
                      << " instructions of elementwise math per output "
                         "element, more than the limit of "
                      << maxElementwiseCost.getValue()
                      << " (ptxas's time grows quickly with it); split it "
                         "into several kernels or raise the limit with "
                         "--max-elementwise-cost=N";
  if (hadError)
    return failure();
  warnUnused();
  return success();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

ValueType KernelChecker::check(Expr &expr) {
  ValueType type;
  switch (expr.getKind()) {
  case ExprKind::Number: {
    auto &number = llvm::cast<NumberExpr>(expr);
    type = ValueType::literal(number.value, number.isInteger);
    break;
  }
  case ExprKind::Name:
    type = checkName(llvm::cast<NameExpr>(expr));
    break;
  case ExprKind::Unary:
    type = checkUnary(llvm::cast<UnaryExpr>(expr));
    break;
  case ExprKind::Binary:
    type = checkBinary(llvm::cast<BinaryExpr>(expr));
    break;
  case ExprKind::Transpose:
    error(expr.getLoc()) << "'^T' can only transpose an operand of '@' (it "
                            "changes how the matmul reads it)";
    break;
  case ExprKind::Call:
    type = checkCall(llvm::cast<CallExpr>(expr));
    break;
  case ExprKind::Lambda:
    error(expr.getLoc()) << "a lambda can only be the second argument of "
                            "mask(...) or modify(...)";
    break;
  }
  expr.type = type;
  return type;
}

ValueType KernelChecker::checkName(NameExpr &expr) {
  if (lambda) {
    for (auto [index, param] : llvm::enumerate(lambda->params))
      if (param.name == expr.name) {
        expr.lambdaParam = index;
        return ValueType::scalar(lambdaTypes[index]);
      }
  }

  const ValueType *type = nullptr;
  if (auto it = bindings.find(expr.name); it != bindings.end()) {
    expr.def = it->second.def;
    usedDefs.insert(expr.def);
    type = &it->second.type;
    if (type->isInvalid())
      return ValueType::invalid();
    if (!lambda || type->isNumber())
      return *type;
  } else if (auto it = params.find(expr.name); it != params.end()) {
    const TensorDecl &param = *it->second;
    expr.param = &param;
    usedParams.insert(&param);
    if (badDecls.contains(&param))
      return ValueType::invalid();
    if (param.type.scale && !allowScaled && !lambda) {
      error(expr.getLoc())
          << "'" << param.name << "' is block-scaled ("
          << formatType(param.type)
          << "); it can only be an operand of '@', which applies its scales";
      return ValueType::invalid();
    }
    if (!lambda)
      return ValueType::tensor(param.type.dtype, param.type.shape);
  } else if (outputs.count(expr.name)) {
    error(expr.getLoc()) << "output '" << expr.name
                         << "' is used before it is assigned";
    return ValueType::invalid();
  } else if (expr.name == "inf") {
    return ValueType::literal(INFINITY, /*isInteger=*/false);
  } else {
    std::string hint;
    if (maySuggest()) {
      llvm::SmallVector<llvm::StringRef> visible;
      for (auto &entry : bindings)
        visible.push_back(entry.getKey());
      for (auto &entry : params)
        visible.push_back(entry.getKey());
      if (lambda)
        for (const LambdaExpr::Param &param : lambda->params)
          visible.push_back(param.name);
      hint = didYouMean(expr.name, visible);
    }
    error(expr.getLoc()) << "'" << expr.name << "' is not defined" << hint;
    return ValueType::invalid();
  }

  // A tensor named inside a lambda.
  std::string list;
  for (const LambdaExpr::Param &param : lambda->params)
    list += (list.empty() ? "" : ", ") + param.name;
  error(expr.getLoc()) << "a lambda body can only use its parameters (" << list
                       << ") and numbers, but '" << expr.name
                       << "' is a tensor";
  return ValueType::invalid();
}

bool KernelChecker::checkOperandKind(llvm::SMLoc loc, llvm::StringRef what,
                                     const Expr &operand, Operands accepts) {
  const ValueType &type = operand.type;
  if (type.isNumber()) {
    if (accepts == Operands::Logical) {
      error(loc) << what << " needs predicates (comparisons), but "
                 << quote(operand) << " is a number";
      return false;
    }
    return true;
  }
  ElemType dtype = type.dtype;
  if (accepts == Operands::Logical) {
    if (dtype == ElemType::I1)
      return true;
    error(loc) << what << " needs predicates (comparisons), but "
               << quote(operand) << " is " << type.str();
    return false;
  }
  if (dtype == ElemType::I1) {
    error(loc) << what << " needs numbers, but " << quote(operand)
               << " is a predicate (" << type.str()
               << "); select values with where(...)";
    return false;
  }
  if (isNarrowFloat(dtype)) {
    error(loc) << what << " cannot read " << getDTypeName(dtype) << " values ("
               << quote(operand) << " is " << type.str()
               << "); cast them first, e.g. f32(...)";
    return false;
  }
  if (accepts == Operands::Float && !isFloat(dtype)) {
    error(loc) << what << " needs floating-point values, but " << quote(operand)
               << " is " << type.str() << "; cast it with f32(...)";
    return false;
  }
  return true;
}

ValueType KernelChecker::combine(llvm::SMLoc loc, llvm::StringRef what,
                                 llvm::ArrayRef<const Expr *> operands,
                                 Operands accepts) {
  for (const Expr *operand : operands)
    if (operand->type.isInvalid())
      return ValueType::invalid();
  ++cost;
  for (const Expr *operand : operands)
    if (!checkOperandKind(loc, what, *operand, accepts))
      return ValueType::invalid();

  // The element type: the promotion of every non-number operand.
  const Expr *typed = nullptr;
  ElemType dtype = ElemType::F32;
  for (const Expr *operand : operands) {
    if (operand->type.isNumber())
      continue;
    ElemType next = operand->type.dtype;
    if (!typed) {
      typed = operand;
      dtype = next;
      continue;
    }
    if (isFloat(dtype) && isFloat(next)) {
      dtype = promoteFloats(dtype, next);
    } else if (dtype != next) {
      llvm::StringRef fix = isFloat(dtype) || isFloat(next)
                                ? "cast one side, e.g. f32(...)"
                                : "cast one side with i32(...)";
      error(loc) << "cannot mix " << getDTypeName(dtype) << " ("
                 << quote(*typed) << ") and " << getDTypeName(next) << " ("
                 << quote(*operand) << ") in " << what << "; " << fix;
      return ValueType::invalid();
    }
  }
  if (!typed)
    return ValueType::literal(0, true); // all numbers: the caller folds

  // Numbers take the operation's type; a fraction cannot become an integer,
  // nor can an integer that does not fit.
  if (!isFloat(dtype))
    for (const Expr *operand : operands) {
      if (!operand->type.isNumber())
        continue;
      if (!operand->type.isInteger) {
        error(loc) << "cannot mix " << getDTypeName(dtype) << " ("
                   << quote(*typed) << ") and the number " << quote(*operand)
                   << " in " << what;
        return ValueType::invalid();
      }
      if (!fitsInteger(operand->type.number, dtype)) {
        error(operand->getLoc()) << "the number " << quote(*operand)
                                 << " does not fit in " << getDTypeName(dtype);
        return ValueType::invalid();
      }
    }

  // The shape: tensors broadcast; scalars (inside lambdas) stay scalars.
  std::optional<llvm::SmallVector<std::string, 4>> shape;
  for (const Expr *operand : operands) {
    if (!operand->type.isTensor())
      continue;
    if (!shape) {
      shape = operand->type.shape;
      continue;
    }
    std::pair<std::string, std::string> clash;
    auto next = broadcastShapes(*shape, operand->type.shape, clash);
    if (!next) {
      error(loc) << "cannot broadcast " << tile::formatDims(*shape) << " with "
                 << tile::formatDims(operand->type.shape) << " in " << what
                 << ": " << clash.first << " and " << clash.second << " differ";
      return ValueType::invalid();
    }
    shape = std::move(next);
  }
  if (shape)
    return ValueType::tensor(dtype, *shape);
  return ValueType::scalar(dtype);
}

LogicalResult KernelChecker::checkFolded(const Expr &expr, double result,
                                         bool finiteOperands,
                                         bool nonzeroExpected, bool integer) {
  constexpr double kMaxExactInteger = 9007199254740992.0; // 2^53
  if (!std::isfinite(result) && finiteOperands) {
    error(expr.getLoc()) << "constant " << quote(expr)
                         << " overflows: its value is beyond the largest "
                            "double (about 1.8e308)";
    return failure();
  }
  if (result == 0 && nonzeroExpected) {
    error(expr.getLoc()) << "constant " << quote(expr)
                         << " underflows to 0 (below the smallest double, "
                            "about 4.9e-324)";
    return failure();
  }
  if (integer && std::fabs(result) > kMaxExactInteger) {
    error(expr.getLoc()) << "integer constant " << quote(expr)
                         << " overflows: it is beyond 2^53, the largest "
                            "integer folded exactly";
    return failure();
  }
  return success();
}

ValueType KernelChecker::checkUnary(UnaryExpr &expr) {
  const ValueType &operand = check(*expr.operand);
  if (operand.isInvalid())
    return operand;
  if (expr.op == UnaryOp::Neg) {
    if (operand.isNumber())
      return ValueType::literal(-operand.number, operand.isInteger);
    return combine(expr.getLoc(), "'-'", {expr.operand.get()},
                   Operands::Numeric);
  }
  return combine(expr.getLoc(), "'!'", {expr.operand.get()}, Operands::Logical);
}

ValueType KernelChecker::checkBinary(BinaryExpr &expr) {
  if (expr.op == BinaryOp::MatMul)
    return checkMatmul(expr);
  const ValueType &lhs = check(*expr.lhs);
  const ValueType &rhs = check(*expr.rhs);
  if (lhs.isInvalid() || rhs.isInvalid())
    return ValueType::invalid();
  std::string what = "'" + getSpelling(expr.op).str() + "'";

  if (expr.op == BinaryOp::And || expr.op == BinaryOp::Or)
    return combine(expr.getLoc(), what, {expr.lhs.get(), expr.rhs.get()},
                   Operands::Logical);

  if (lhs.isNumber() && rhs.isNumber()) {
    if (isComparison(expr.op)) {
      error(expr.getLoc()) << "comparing two numbers has a constant result; "
                              "compare a tensor or a lambda parameter";
      return ValueType::invalid();
    }
    double a = lhs.number, b = rhs.number;
    bool integer = lhs.isInteger && rhs.isInteger;
    double result;
    switch (expr.op) {
    case BinaryOp::Add:
      result = a + b;
      break;
    case BinaryOp::Sub:
      result = a - b;
      break;
    case BinaryOp::Mul:
      result = a * b;
      break;
    default: // '/' is true division, as in Python.
      if (b == 0) {
        error(expr.getLoc()) << "division by zero in " << quote(expr);
        return ValueType::invalid();
      }
      result = a / b;
      integer = false;
      break;
    }
    bool scaling = expr.op == BinaryOp::Mul || expr.op == BinaryOp::Div;
    if (failed(checkFolded(expr, result, std::isfinite(a) && std::isfinite(b),
                           scaling && a != 0 && b != 0, integer)))
      return ValueType::invalid();
    return ValueType::literal(result, integer);
  }

  // Dividing by a constant zero is a mistake for floats (every element
  // becomes an infinity or NaN) and undefined for integers.
  if (expr.op == BinaryOp::Div && rhs.isNumber() && rhs.number == 0) {
    error(expr.getLoc()) << "division by zero in " << quote(expr);
    return ValueType::invalid();
  }

  ValueType result = combine(
      expr.getLoc(), what, {expr.lhs.get(), expr.rhs.get()}, Operands::Numeric);
  if (!result.isInvalid() && isComparison(expr.op))
    result.dtype = ElemType::I1;
  return result;
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

KernelChecker::MatmulOperand KernelChecker::checkMatmulOperand(ExprPtr &operand,
                                                               bool isLhs) {
  MatmulOperand result;
  llvm::SmallVector<TransposeExpr *> transposes;
  Expr *base = operand.get();
  while (auto *transpose = llvm::dyn_cast<TransposeExpr>(base)) {
    transposes.push_back(transpose);
    base = transpose->operand.get();
  }
  result.base = base;
  result.transposed = transposes.size() % 2 == 1;
  if (!transposes.empty())
    result.transposeLoc = transposes.front()->getLoc();

  auto *call = llvm::dyn_cast<CallExpr>(base);
  if (call && call->callee == "grouped") {
    // On the left untransposed (a grouped GEMM, or the queries of varlen
    // attention); on the right only transposed, the keys of varlen
    // attention: grouped(q, cu_q) @ grouped(k, cu_k)^T.
    if (isLhs ? !transposes.empty() : !result.transposed) {
      error(call->getLoc())
          << "grouped(x, offsets) can only be the left operand of '@', "
             "untransposed, or the transposed right operand of a segmented "
             "product (grouped(q, cu_q) @ grouped(k, cu_k)^T)";
      return result;
    }
    call->builtin = Builtin::Grouped;
    if (!checkArity(*call, 2, {}, "(x, offsets)"))
      return result;
    // x may be block-scaled: the grouped product applies its scales.
    allowScaled = true;
    const ValueType &x = check(*call->args[0].value);
    allowScaled = false;
    if (auto *name = llvm::dyn_cast<NameExpr>(call->args[0].value.get());
        name && name->param && name->param->type.scale)
      result.scaled = name->param;
    check(*call->args[1].value);
    if (x.isInvalid() || call->args[1].value->type.isInvalid())
      return result;
    call->type = x;
    result.grouped = call;
    result.type = x;
    return result;
  }

  allowScaled = true;
  ValueType type = check(*base);
  allowScaled = false;
  if (auto *name = llvm::dyn_cast<NameExpr>(base);
      name && name->param && name->param->type.scale)
    result.scaled = name->param;
  if (type.isInvalid())
    return result;
  if (!type.isTensor()) {
    error(base->getLoc()) << "'@' needs tensors on both sides, but "
                          << quote(*base) << " is " << type.str();
    return result;
  }
  // Each ^T swaps the last two axes of what it reads.
  for (TransposeExpr *transpose : llvm::reverse(transposes)) {
    if (type.shape.size() < 2) {
      error(transpose->getLoc()) << "'^T' needs at least 2 axes, but "
                                 << quote(*base) << " is " << type.str();
      return result;
    }
    std::swap(type.shape[type.shape.size() - 1],
              type.shape[type.shape.size() - 2]);
    transpose->type = type;
  }
  result.type = type;
  return result;
}

std::optional<ElemType> KernelChecker::checkMmaTypes(BinaryExpr &expr,
                                                  const MatmulOperand &lhs,
                                                  const MatmulOperand &rhs) {
  const Expr &a = *lhs.base, &b = *rhs.base;
  ElemType ta = lhs.type.dtype, tb = rhs.type.dtype;
  for (auto [operand, dtype] : {std::pair{&a, ta}, std::pair{&b, tb}})
    if (!isFloat(dtype)) {
      error(expr.getLoc()) << "'@' needs floating-point operands, but "
                           << quote(*operand) << " is " << operand->type.str();
      return std::nullopt;
    }
  if (ta == ElemType::F32 && tb == ElemType::F32) {
    error(expr.getLoc()) << "'@' does not multiply two f32 operands (the "
                            "tensor cores read bf16, f16 or fp8); cast one, "
                            "e.g. bf16("
                         << renderExpr(a) << ")";
    return std::nullopt;
  }
  // A computed f32 operand (attention's probabilities) is rounded to its
  // 16-bit partner's type, as FlashAttention does before P @ V.
  if (ta == ElemType::F32 && getBitWidth(tb) == 16)
    return tb;
  if (tb == ElemType::F32 && getBitWidth(ta) == 16)
    return ta;
  // The two fp8 formats mix; everything else must match.
  if (ta == tb || (getBitWidth(ta) == 8 && getBitWidth(tb) == 8))
    return getBitWidth(ta) <= getBitWidth(tb) ? ta : tb;
  if (lhs.scaled || rhs.scaled) {
    error(expr.getLoc()) << "'@' cannot multiply " << getDTypeName(ta)
                         << " data (" << quote(a) << ") with "
                         << getDTypeName(tb) << " data (" << quote(b)
                         << "); block-scaled operands are both fp4 or both fp8";
    return std::nullopt;
  }
  error(expr.getLoc()) << "'@' operand types differ: " << getDTypeName(ta)
                       << " from " << quote(a) << ", " << getDTypeName(tb)
                       << " from " << quote(b) << "; cast one of them";
  return std::nullopt;
}

bool KernelChecker::checkScalePair(BinaryExpr &expr, const MatmulOperand &lhs,
                                   const MatmulOperand &rhs) {
  if (bool(lhs.scaled) != bool(rhs.scaled)) {
    const MatmulOperand &s = lhs.scaled ? lhs : rhs;
    const MatmulOperand &u = lhs.scaled ? rhs : lhs;
    error(expr.getLoc()) << quote(*s.base) << " is block-scaled ("
                         << formatType(s.scaled->type) << ") but "
                         << quote(*u.base) << " is not; both operands of "
                         << "'@' must carry block scales";
    return false;
  }
  if (!lhs.scaled)
    return true;
  const BlockScale &sa = *lhs.scaled->type.scale, &sb = *rhs.scaled->type.scale;
  if (lhs.transposed) {
    error(lhs.transposeLoc) << "the left operand of a block-scaled '@' "
                               "cannot be transposed";
    return false;
  }
  if (sa.dtype != sb.dtype) {
    error(expr.getLoc()) << "scale types differ: " << getDTypeName(sa.dtype)
                         << " for " << quote(*lhs.base) << ", "
                         << getDTypeName(sb.dtype) << " for "
                         << quote(*rhs.base);
    return false;
  }
  int64_t kA = sa.cols, kB = rhs.transposed ? sb.cols : sb.rows;
  if (kA != kB) {
    error(expr.getLoc()) << "scale blocks along K differ: " << kA << " for "
                         << quote(*lhs.base) << ", " << kB << " for "
                         << quote(*expr.rhs);
    return false;
  }
  contractions.scaleBlockK = kA;
  return true;
}

ValueType KernelChecker::checkMatmul(BinaryExpr &expr) {
  if (lambda) {
    error(expr.getLoc()) << "'@' cannot be used inside a lambda; a lambda "
                            "body computes one element";
    return ValueType::invalid();
  }
  MatmulOperand lhs = checkMatmulOperand(expr.lhs, /*isLhs=*/true);
  MatmulOperand rhs = checkMatmulOperand(expr.rhs, /*isLhs=*/false);
  if (lhs.type.isInvalid() || rhs.type.isInvalid())
    return ValueType::invalid();
  if (lhs.grouped && rhs.grouped)
    return checkSegmentedMatmul(expr, lhs, rhs);
  if (rhs.grouped) {
    error(rhs.grouped->getLoc())
        << "a grouped right operand of '@' needs a grouped left operand: "
           "grouped(q, cu_q) @ grouped(k, cu_k)^T";
    return ValueType::invalid();
  }
  if (lhs.grouped)
    return checkGroupedMatmul(expr, lhs, rhs);

  const Expr &a = *expr.lhs, &b = *expr.rhs;
  for (auto *operand : {&lhs, &rhs})
    if (operand->type.shape.size() < 2) {
      error(expr.getLoc()) << "'@' needs operands with at least 2 axes, but "
                           << quote(*operand->base) << " is "
                           << operand->type.str();
      return ValueType::invalid();
    }

  if (!checkScalePair(expr, lhs, rhs))
    return ValueType::invalid();
  std::optional<ElemType> mmaType = checkMmaTypes(expr, lhs, rhs);
  if (!mmaType)
    return ValueType::invalid();
  if (lhs.scaled)
    for (const MatmulOperand *operand : {&lhs, &rhs})
      if (operand->type.shape.size() != 2) {
        error(expr.getLoc()) << "block-scaled operands of '@' must have rank "
                                "2, but "
                             << quote(*operand->base) << " has rank "
                             << operand->type.shape.size();
        return ValueType::invalid();
      }

  llvm::ArrayRef<std::string> sa = lhs.type.shape, sb = rhs.type.shape;
  const std::string &kA = sa.back(), &kB = sb[sb.size() - 2];
  if (kA != kB) {
    error(expr.getLoc()) << "contraction dims differ: " << describeDim(kA, "K")
                         << " from " << renderExpr(a) << ", "
                         << describeDim(kB, "K") << " from " << renderExpr(b);
    return ValueType::invalid();
  }
  auto batch = checkBatchBroadcast(expr, a, sa, b, sb);
  if (!batch)
    return ValueType::invalid();
  batch->push_back(sa[sa.size() - 2]);
  batch->push_back(sb.back());
  noteContraction(*mmaType);
  return ValueType::tensor(ElemType::F32, *batch);
}

bool KernelChecker::checkOffsets(const Expr &offsets, llvm::StringRef count,
                                 llvm::StringRef form) {
  const ValueType &to = offsets.type;
  if (to.isTensor() && to.dtype == ElemType::I32 && to.shape.size() == 1)
    return true;
  error(offsets.getLoc()) << "the offsets of " << form << " must be i32["
                          << count << "+1], but " << quote(offsets) << " is "
                          << to.str();
  return false;
}

bool KernelChecker::checkOffsetsCount(const Expr &offsets, const Expr &what,
                                      const std::string &groups) {
  // offsets has one boundary per group plus the end.
  const std::string &boundaries = offsets.type.shape[0];
  std::optional<std::string> expected;
  if (std::optional<int64_t> e = tile::getConstantDim(groups))
    expected = std::to_string(*e + 1);
  else if (groups.find_first_of("+-*") == std::string::npos)
    expected = groups + "+1";
  if (!expected || boundaries == *expected)
    return true;
  error(offsets.getLoc()) << "offsets has " << boundaries << " entries but "
                          << renderExpr(what) << " has " << groups
                          << " experts; expected " << *expected
                          << " (one boundary per expert, plus the end)";
  return false;
}

/// Calls `visit` on every call in `expr` (lambda bodies aside).
static void forEachCall(Expr &expr,
                        llvm::function_ref<void(CallExpr &)> visit) {
  switch (expr.getKind()) {
  case ExprKind::Unary:
    forEachCall(*llvm::cast<UnaryExpr>(expr).operand, visit);
    return;
  case ExprKind::Binary: {
    auto &binary = llvm::cast<BinaryExpr>(expr);
    forEachCall(*binary.lhs, visit);
    forEachCall(*binary.rhs, visit);
    return;
  }
  case ExprKind::Transpose:
    forEachCall(*llvm::cast<TransposeExpr>(expr).operand, visit);
    return;
  case ExprKind::Call: {
    auto &call = llvm::cast<CallExpr>(expr);
    visit(call);
    for (CallArg &arg : call.args)
      forEachCall(*arg.value, visit);
    return;
  }
  default:
    return;
  }
}

void KernelChecker::collectGroupedRows() {
  for (Stmt &stmt : kernel.body)
    forEachCall(*stmt.value, [&](CallExpr &call) {
      if (call.callee != "grouped" || call.args.size() != 2)
        return;
      auto *x = llvm::dyn_cast<NameExpr>(call.args[0].value.get());
      auto *offsets = llvm::dyn_cast<NameExpr>(call.args[1].value.get());
      if (!x || !offsets)
        return;
      auto param = params.find(x->name);
      if (param == params.end() || param->second->type.shape.size() != 2)
        return;
      groupedRows.try_emplace(offsets->name, param->second->type.shape[0]);
    });
}

ValueType KernelChecker::checkPerGroup(CallExpr &call) {
  const Expr &b = *call.args[0].value, &offsets = *call.args[1].value;
  const ValueType &tb = b.type;
  if (!tb.isTensor() || tb.shape.size() != 2) {
    error(b.getLoc()) << "per_group(b, offsets) needs b of rank 2 [E, N] or "
                         "[E, 1] (one row per group), but "
                      << quote(b) << " is " << tb.str();
    return ValueType::invalid();
  }
  if (!checkOffsets(offsets, "E", "per_group(b, offsets)") ||
      !checkOffsetsCount(offsets, b, tb.shape[0]))
    return ValueType::invalid();
  auto *name = llvm::dyn_cast<NameExpr>(&offsets);
  auto rows = name ? groupedRows.find(name->name) : groupedRows.end();
  if (rows == groupedRows.end()) {
    error(call.getLoc())
        << "per_group(b, " << renderExpr(offsets)
        << ") expands b to the rows of a grouped product, but the kernel has "
           "no grouped(x, "
        << renderExpr(offsets) << ") with x a parameter [T, K]";
    return ValueType::invalid();
  }
  return ValueType::tensor(tb.dtype, {rows->second, tb.shape[1]});
}

std::optional<llvm::SmallVector<std::string>>
KernelChecker::checkBatchBroadcast(const BinaryExpr &expr, const Expr &a,
                                   llvm::ArrayRef<std::string> sa,
                                   const Expr &b,
                                   llvm::ArrayRef<std::string> sb) {
  std::pair<std::string, std::string> clash;
  auto batch = broadcastShapes(sa.drop_back(2), sb.drop_back(2), clash);
  if (!batch)
    error(expr.getLoc()) << "cannot broadcast batch dims "
                         << tile::formatDims(sa.drop_back(2)) << " of "
                         << renderExpr(a) << " with "
                         << tile::formatDims(sb.drop_back(2)) << " of "
                         << renderExpr(b) << ": " << clash.first << " and "
                         << clash.second << " differ";
  return batch;
}

void KernelChecker::noteContraction(ElemType mmaType) {
  if (!contractions.any ||
      getBitWidth(mmaType) < getBitWidth(contractions.narrowest))
    contractions.narrowest = mmaType;
  contractions.any = true;
}

ValueType KernelChecker::checkSegmentedMatmul(BinaryExpr &expr,
                                              MatmulOperand &lhs,
                                              MatmulOperand &rhs) {
  for (const MatmulOperand *operand : {&lhs, &rhs})
    if (operand->scaled) {
      error(expr.getLoc()) << "a segmented '@' (grouped(q, cu_q) @ "
                              "grouped(k, cu_k)^T) does not take block-scaled "
                              "operands, but "
                           << quote(*operand->grouped->args[0].value) << " is "
                           << formatType(operand->scaled->type);
      return ValueType::invalid();
    }
  const Expr &q = *lhs.grouped->args[0].value,
             &qOffsets = *lhs.grouped->args[1].value;
  const Expr &k = *rhs.grouped->args[0].value,
             &kOffsets = *rhs.grouped->args[1].value;
  const ValueType &tq = q.type, &tk = k.type;
  for (const Expr *operand : {&q, &k})
    if (!operand->type.isTensor() || operand->type.shape.size() < 2) {
      error(operand->getLoc())
          << "a segmented '@' needs operands of rank 2 or more [.., rows, D], "
             "but "
          << quote(*operand) << " is " << operand->type.str();
      return ValueType::invalid();
    }
  for (const Expr *offsets : {&qOffsets, &kOffsets})
    if (!checkOffsets(*offsets, "B"))
      return ValueType::invalid();
  if (qOffsets.type.shape[0] != kOffsets.type.shape[0]) {
    error(expr.getLoc()) << "the segments of a segmented '@' pair up: "
                         << quote(qOffsets) << " has "
                         << qOffsets.type.shape[0] << " entries and "
                         << quote(kOffsets) << " "
                         << kOffsets.type.shape[0];
    return ValueType::invalid();
  }
  if (tq.shape.size() != tk.shape.size()) {
    error(expr.getLoc()) << "a segmented '@' needs operands of one rank, but "
                         << quote(q) << " is " << tq.str() << " and "
                         << quote(k) << " " << tk.str();
    return ValueType::invalid();
  }
  std::optional<ElemType> mmaType = checkMmaTypes(expr, lhs, rhs);
  if (!mmaType)
    return ValueType::invalid();
  if (tq.dtype == ElemType::F32 || tk.dtype == ElemType::F32) {
    error(expr.getLoc()) << "a segmented '@' multiplies 16-bit or fp8 "
                            "operands, not f32";
    return ValueType::invalid();
  }
  if (tq.shape.back() != tk.shape.back()) {
    error(expr.getLoc()) << "contraction dims differ: "
                         << describeDim(tq.shape.back(), "D") << " from "
                         << renderExpr(q) << ", "
                         << describeDim(tk.shape.back(), "D") << " from "
                         << renderExpr(k);
    return ValueType::invalid();
  }
  llvm::ArrayRef<std::string> sq = tq.shape, sk = tk.shape;
  auto shape = checkBatchBroadcast(expr, q, sq, k, sk);
  if (!shape)
    return ValueType::invalid();
  // The scores keep q's leading axes: only k's may broadcast (one key/value
  // head for several query heads), as tile.segmented_matmul's verifier
  // requires.
  for (size_t axis = 0; axis + 2 < sq.size(); ++axis)
    if (sk[axis] != sq[axis] && sk[axis] != "1") {
      error(expr.getLoc())
          << "a segmented '@' broadcasts only its right operand's leading "
             "axes (one key/value head for several query heads): axis "
          << axis << " is " << sk[axis] << " in " << renderExpr(k)
          << " and " << sq[axis] << " in " << renderExpr(q)
          << " (use the same extent, or 1 in the right operand)";
      return ValueType::invalid();
    }
  shape->push_back(sq[sq.size() - 2]);
  shape->push_back(sk[sk.size() - 2]);
  noteContraction(*mmaType);
  return ValueType::tensor(ElemType::F32, *shape);
}

ValueType KernelChecker::checkGroupedMatmul(BinaryExpr &expr,
                                            MatmulOperand &lhs,
                                            MatmulOperand &rhs) {
  CallExpr &call = *lhs.grouped;
  const Expr &x = *call.args[0].value, &offsets = *call.args[1].value;
  const Expr &w = *expr.rhs;
  const ValueType &tx = x.type, &tw = rhs.type;
  if (!tx.isTensor() || tx.shape.size() != 2) {
    error(x.getLoc()) << "grouped(x, offsets) needs x of rank 2 [T, K], but "
                      << quote(x) << " is " << tx.str();
    return ValueType::invalid();
  }
  if (!checkOffsets(offsets, "E"))
    return ValueType::invalid();
  if (tw.shape.size() != 3) {
    error(expr.getLoc()) << "a grouped '@' needs a right operand of rank 3 "
                            "[E, K, N] (one matrix per expert), but "
                         << quote(w) << " is " << tw.str();
    return ValueType::invalid();
  }

  if (!checkOffsetsCount(offsets, w, tw.shape[0]))
    return ValueType::invalid();
  if (!checkScalePair(expr, lhs, rhs))
    return ValueType::invalid();
  std::optional<ElemType> mmaType = checkMmaTypes(expr, lhs, rhs);
  if (!mmaType)
    return ValueType::invalid();
  // No implicit cast of an f32 operand to its 16-bit partner's type here
  // (a plain '@' has one): the grouped product takes both as they are.
  if ((tx.dtype == ElemType::F32) != (tw.dtype == ElemType::F32)) {
    error(expr.getLoc()) << "'@' operand types differ: "
                         << getDTypeName(tx.dtype) << " from "
                         << quote(*expr.lhs) << ", " << getDTypeName(tw.dtype)
                         << " from " << quote(w)
                         << "; a grouped '@' does not cast, cast one of them";
    return ValueType::invalid();
  }
  if (tx.shape[1] != tw.shape[1]) {
    error(expr.getLoc()) << "contraction dims differ: "
                         << describeDim(tx.shape[1], "K") << " from "
                         << renderExpr(x) << ", "
                         << describeDim(tw.shape[1], "K") << " from "
                         << renderExpr(w);
    return ValueType::invalid();
  }
  noteContraction(*mmaType);
  return ValueType::tensor(ElemType::F32, {tx.shape[0], tw.shape[2]});
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

bool KernelChecker::checkArity(CallExpr &call, size_t positional,
                               llvm::ArrayRef<llvm::StringRef> keywords,
                               llvm::StringRef argNames) {
  size_t count = 0;
  llvm::StringSet<> seen;
  for (const CallArg &arg : call.args) {
    if (arg.keyword.empty()) {
      if (!seen.empty()) {
        error(arg.value->getLoc()) << "positional arguments of '" << call.callee
                                   << "' must come before keyword arguments";
        return false;
      }
      ++count;
      continue;
    }
    if (!llvm::is_contained(keywords, arg.keyword)) {
      auto diag = error(arg.keywordLoc);
      if (keywords.empty())
        diag << "'" << call.callee << "' takes no keyword arguments";
      else
        diag << "unknown keyword argument '" << arg.keyword << "' for '"
             << call.callee << "'; expected '" << llvm::join(keywords, "', '")
             << "'";
      return false;
    }
    if (!seen.insert(arg.keyword).second) {
      error(arg.keywordLoc) << "'" << arg.keyword << "' is given twice";
      return false;
    }
  }
  if (count != positional) {
    error(call.getLoc()) << "'" << call.callee << "' takes " << positional
                         << (positional == 1 ? " argument " : " arguments ")
                         << argNames << ", got " << count;
    return false;
  }
  return true;
}

std::optional<int64_t> KernelChecker::getAxis(CallExpr &call,
                                              const ValueType &input) {
  int64_t rank = input.shape.size();
  for (CallArg &arg : call.args) {
    if (arg.keyword != "axis")
      continue;
    const ValueType &axis = check(*arg.value);
    if (axis.isInvalid())
      return std::nullopt;
    if (!axis.isNumber() || !axis.isInteger) {
      error(arg.value->getLoc())
          << "axis must be an integer constant, got " << axis.str();
      return std::nullopt;
    }
    if (axis.number < -rank || axis.number >= rank) {
      error(arg.value->getLoc())
          << "axis " << formatNumber(axis.number, true)
          << " is out of range for " << input.str() << " (rank " << rank
          << "; use " << -rank << " .. " << rank - 1 << ")";
      return std::nullopt;
    }
    int64_t value = static_cast<int64_t>(axis.number);
    return value < 0 ? value + rank : value;
  }
  return rank - 1;
}

bool KernelChecker::checkFloatTensor(CallExpr &call, const ValueType &input,
                                     size_t minRank) {
  const Expr &arg = *call.args[0].value;
  if (input.isInvalid())
    return false;
  if (!input.isTensor() || !isFloat(input.dtype) ||
      isNarrowFloat(input.dtype)) {
    error(arg.getLoc()) << "'" << call.callee
                        << "' needs a tensor of bf16, f16 or f32, but "
                        << quote(arg) << " is " << input.str();
    return false;
  }
  if (input.shape.size() < minRank) {
    error(arg.getLoc()) << "'" << call.callee << "' needs at least " << minRank
                        << " axes, but " << quote(arg) << " is " << input.str();
    return false;
  }
  return true;
}

ValueType KernelChecker::checkLambda(LambdaExpr &expr,
                                     llvm::ArrayRef<ElemType> paramTypes,
                                     llvm::StringRef what,
                                     llvm::StringRef paramNames) {
  if (expr.params.size() != paramTypes.size()) {
    error(expr.getLoc()) << what << " takes " << paramTypes.size()
                         << " parameters (" << paramNames << "), got "
                         << expr.params.size();
    return ValueType::invalid();
  }
  for (auto [i, param] : llvm::enumerate(expr.params))
    for (const LambdaExpr::Param &earlier :
         llvm::ArrayRef(expr.params).take_front(i))
      if (earlier.name == param.name) {
        error(param.loc) << "lambda parameter '" << param.name
                         << "' is declared twice";
        return ValueType::invalid();
      }
  lambda = &expr;
  lambdaTypes.assign(paramTypes.begin(), paramTypes.end());
  ValueType body = check(*expr.body);
  lambda = nullptr;
  expr.type = body;
  return body;
}

ValueType KernelChecker::checkCall(CallExpr &call) {
  llvm::StringRef callee = call.callee;
  // Lambdas are only allowed where a function expects one; everything else
  // goes through check(), which rejects them.
  auto checkArgs = [&]() {
    bool ok = true;
    for (CallArg &arg : call.args)
      if (check(*arg.value).isInvalid())
        ok = false;
    return ok;
  };
  auto insideLambda = [&]() {
    if (!lambda)
      return false;
    error(call.getLoc()) << "'" << callee << "' cannot be used inside a "
                         << "lambda; a lambda body computes one element";
    return true;
  };

  if (std::optional<Builtin> fn = lookupUnaryFloatFunction(callee)) {
    call.builtin = *fn;
    if (!checkArity(call, 1, {}, "(x)") || !checkArgs())
      return ValueType::invalid();
    const Expr &arg = *call.args[0].value;
    if (arg.type.isNumber()) {
      double x = arg.type.number;
      if (*fn == Builtin::Rsqrt && x <= 0) {
        error(call.getLoc()) << quote(call) << " has no finite value: rsqrt "
                             << "needs a positive number";
        return ValueType::invalid();
      }
      double result = foldUnaryFloat(*fn, x);
      if (failed(checkFolded(call, result, std::isfinite(x),
                             /*nonzeroExpected=*/false, /*integer=*/false)))
        return ValueType::invalid();
      return ValueType::literal(result, false);
    }
    cost += elementwiseCost(*fn);
    return combine(call.getLoc(), "'" + callee.str() + "'", {&arg},
                   Operands::Float);
  }

  if (std::optional<ElemType> target = lookupCast(callee)) {
    call.builtin = Builtin::Cast;
    call.castType = *target;
    if (!checkArity(call, 1, {}, "(x)") || !checkArgs())
      return ValueType::invalid();
    ValueType type = call.args[0].value->type;
    if (type.isNumber()) {
      if (isFloat(*target))
        return ValueType::literal(type.number, false);
      double value = std::trunc(type.number);
      if (!std::isfinite(value) || !fitsInteger(value, *target)) {
        error(call.getLoc()) << "the number " << quote(*call.args[0].value)
                             << " does not fit in " << callee;
        return ValueType::invalid();
      }
      return ValueType::literal(value, true);
    }
    type.dtype = *target;
    return type;
  }
  if (callee == "e2m1" || callee == "ue8m0" || callee == "nvfp4" ||
      callee == "mxfp8" || callee == "mxfp4") {
    error(call.getLoc()) << "cannot cast to " << callee
                         << ": block-scaled and scale types are inputs only";
    return ValueType::invalid();
  }

  bool hasAxis = llvm::any_of(
      call.args, [](const CallArg &arg) { return arg.keyword == "axis"; });
  if (callee == "max" || callee == "min") {
    if (call.args.size() == 2 && !hasAxis) {
      // Two arguments: the elementwise maximum or minimum.
      call.builtin = callee == "max" ? Builtin::Maximum : Builtin::Minimum;
      if (!checkArity(call, 2, {}, "(a, b)") || !checkArgs())
        return ValueType::invalid();
      const ValueType &a = call.args[0].value->type,
                      &b = call.args[1].value->type;
      if (a.isNumber() && b.isNumber())
        return ValueType::literal(callee == "max"
                                      ? std::max(a.number, b.number)
                                      : std::min(a.number, b.number),
                                  a.isInteger && b.isInteger);
      return combine(call.getLoc(), "'" + callee.str() + "'",
                     {call.args[0].value.get(), call.args[1].value.get()},
                     Operands::Numeric);
    }
    if (callee == "min") {
      error(call.getLoc())
          << "'min' takes 2 arguments (the elementwise minimum); only "
             "sum(...), max(...) and logsumexp(...) reduce along an axis";
      return ValueType::invalid();
    }
  }

  if (callee == "where") {
    call.builtin = Builtin::Where;
    if (!checkArity(call, 3, {}, "(condition, a, b)") || !checkArgs())
      return ValueType::invalid();
    const Expr &cond = *call.args[0].value;
    if (!checkOperandKind(cond.getLoc(), "the condition of 'where'", cond,
                          Operands::Logical))
      return ValueType::invalid();
    ValueType values =
        combine(call.getLoc(), "'where'",
                {call.args[1].value.get(), call.args[2].value.get()},
                Operands::Numeric);
    if (values.isInvalid())
      return values;
    // Numbers in both branches are f32.
    ElemType dtype = values.isNumber() ? ElemType::F32 : values.dtype;
    if (!cond.type.isTensor())
      return ValueType::scalar(dtype);
    std::pair<std::string, std::string> clash;
    llvm::ArrayRef<std::string> valueShape;
    if (values.isTensor())
      valueShape = values.shape;
    auto shape = broadcastShapes(cond.type.shape, valueShape, clash);
    if (!shape) {
      error(call.getLoc()) << "cannot broadcast "
                           << tile::formatDims(cond.type.shape) << " with "
                           << tile::formatDims(valueShape)
                           << " in 'where': " << clash.first << " and "
                           << clash.second << " differ";
      return ValueType::invalid();
    }
    return ValueType::tensor(dtype, *shape);
  }

  if (callee == "sum" || callee == "max" || callee == "logsumexp") {
    call.builtin = llvm::StringSwitch<Builtin>(callee)
                       .Case("sum", Builtin::Sum)
                       .Case("max", Builtin::ReduceMax)
                       .Default(Builtin::LogSumExp);
    if (insideLambda() || !checkArity(call, 1, {"axis"}, "(x, axis = -1)"))
      return ValueType::invalid();
    const ValueType &input = check(*call.args[0].value);
    if (!checkFloatTensor(call, input, 1))
      return ValueType::invalid();
    std::optional<int64_t> axis = getAxis(call, input);
    if (!axis)
      return ValueType::invalid();
    if (input.shape.size() == 1) {
      error(call.getLoc()) << "'" << callee
                           << "' would reduce the only axis of "
                           << quote(*call.args[0].value) << " (" << input.str()
                           << "); results keep at least one axis";
      return ValueType::invalid();
    }
    call.axis = *axis;
    ValueType result = input;
    result.shape.erase(result.shape.begin() + *axis);
    return result;
  }

  if (callee == "softmax") {
    call.builtin = Builtin::Softmax;
    if (insideLambda() || !checkArity(call, 1, {"axis"}, "(x)"))
      return ValueType::invalid();
    const ValueType &input = check(*call.args[0].value);
    if (!checkFloatTensor(call, input, 1))
      return ValueType::invalid();
    std::optional<int64_t> axis = getAxis(call, input);
    if (!axis)
      return ValueType::invalid();
    if (*axis != static_cast<int64_t>(input.shape.size()) - 1) {
      error(call.getLoc()) << "softmax normalizes over the last axis only; "
                              "axis "
                           << *axis << " of " << input.str()
                           << " is not the last";
      return ValueType::invalid();
    }
    call.axis = *axis;
    return input;
  }

  if (callee == "causal") {
    call.builtin = Builtin::Causal;
    if (insideLambda() || !checkArity(call, 1, {}, "(scores)"))
      return ValueType::invalid();
    const ValueType &input = check(*call.args[0].value);
    if (!checkFloatTensor(call, input, 2))
      return ValueType::invalid();
    return input;
  }

  if (callee == "mask" || callee == "modify") {
    bool isMask = callee == "mask";
    call.builtin = isMask ? Builtin::Mask : Builtin::Modify;
    if (insideLambda() ||
        !checkArity(call, 2, {},
                    isMask ? "(scores, |i, j| predicate)"
                           : "(scores, |x, i, j| expression)"))
      return ValueType::invalid();
    const ValueType &input = check(*call.args[0].value);
    if (!checkFloatTensor(call, input, 2))
      return ValueType::invalid();
    auto *fn = llvm::dyn_cast<LambdaExpr>(call.args[1].value.get());
    if (!fn) {
      error(call.args[1].value->getLoc())
          << "the second argument of '" << callee << "' must be a lambda, "
          << (isMask ? "e.g. |i, j| j <= i" : "e.g. |x, i, j| x * 0.5");
      return ValueType::invalid();
    }
    ValueType body =
        isMask
            ? checkLambda(*fn, {ElemType::Index, ElemType::Index}, "mask's predicate",
                          "the query index i and the "
                          "key index j")
            : checkLambda(*fn, {input.dtype, ElemType::Index, ElemType::Index},
                          "modify's lambda",
                          "the score x, the query index "
                          "i and the key index j");
    if (body.isInvalid())
      return body;
    if (isMask && (body.isNumber() || body.dtype != ElemType::I1)) {
      error(fn->body->getLoc())
          << "mask's predicate must be a comparison (i1), "
             "but "
          << quote(*fn->body) << " is " << body.str();
      return ValueType::invalid();
    }
    if (!isMask && !body.isNumber() &&
        (!isFloat(body.dtype) || isNarrowFloat(body.dtype))) {
      error(fn->body->getLoc()) << "modify's lambda must compute a float "
                                   "score, but "
                                << quote(*fn->body) << " is " << body.str();
      return ValueType::invalid();
    }
    return input;
  }

  if (callee == "per_group") {
    call.builtin = Builtin::PerGroup;
    if (insideLambda() || !checkArity(call, 2, {}, "(b, offsets)") ||
        !checkArgs())
      return ValueType::invalid();
    return checkPerGroup(call);
  }

  if (callee == "grouped") {
    error(call.getLoc()) << "grouped(x, offsets) can only be the left operand "
                            "of '@', as in grouped(x, offsets) @ w^T";
    return ValueType::invalid();
  }

  llvm::SmallVector<llvm::StringRef> names(std::begin(kFunctionNames),
                                           std::end(kFunctionNames));
  std::string hint = didYouMean(callee, names);
  if (hint.empty())
    hint = "; expected one of " + llvm::join(names, ", ");
  error(call.getLoc()) << "unknown function '" << callee << "'" << hint;
  return ValueType::invalid();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

LogicalResult kiln::checkModule(Module &module, const SourceLocator &locator) {
  bool ok = true;
  llvm::StringMap<const Kernel *> names;
  for (auto &kernel : module.kernels) {
    auto [it, inserted] = names.try_emplace(kernel->name, kernel.get());
    if (!inserted) {
      auto diag = locator.emitError(kernel->loc);
      diag << "kernel '" << kernel->name << "' is defined twice";
      diag.attachNote(locator.getLoc(it->second->loc)) << "first defined here";
      ok = false;
    }
    ok &= succeeded(KernelChecker(*kernel, locator).run());
  }
  return mlir::success(ok);
}
