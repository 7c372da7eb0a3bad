//===- MLIRGen.cpp - .kiln AST to the tile dialect ------------------------===//

#include "frontend/MLIRGen.h"

#include "compiler/Target/MLIR/ElementTypes.h"
#include "dialects/Tile/IR/TileDialect.h"
#include "dialects/Tile/IR/TileOps.h"
#include "dialects/Tile/IR/TileShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"

#include <cmath>

using namespace kiln;
using namespace kiln::ast;
using namespace mlir;

namespace {

/// Whether `expr` is computed inside a tile.map region (rather than being an
/// input of one).
bool isElementwise(const Expr &expr) {
  if (expr.type.isNumber())
    return true;
  switch (expr.getKind()) {
  case ExprKind::Number:
  case ExprKind::Unary:
    return true;
  case ExprKind::Binary:
    return llvm::cast<BinaryExpr>(expr).op != BinaryOp::MatMul;
  case ExprKind::Call: {
    Builtin builtin = llvm::cast<CallExpr>(expr).builtin;
    return builtin >= Builtin::Silu && builtin <= Builtin::Cast;
  }
  case ExprKind::Name:
    return llvm::cast<NameExpr>(expr).lambdaParam.has_value();
  default:
    return false;
  }
}

/// Strips `^T`s; returns the operand read and whether it is transposed.
std::pair<const Expr *, bool> peelTransposes(const Expr &expr) {
  const Expr *base = &expr;
  bool transposed = false;
  while (auto *transpose = llvm::dyn_cast<TransposeExpr>(base)) {
    base = transpose->operand.get();
    transposed = !transposed;
  }
  return {base, transposed};
}

class Generator {
public:
  Generator(const SourceLocator &locator)
      : locator(locator), ctx(locator.getContext()), builder(ctx) {}

  OwningOpRef<ModuleOp> gen(const Module &module);

private:
  Location loc(llvm::SMLoc pos) { return locator.getLoc(pos); }

  // Types.
  Type getElementType(ElemType dtype);
  RankedTensorType getTensorType(ElemType dtype,
                                 llvm::ArrayRef<std::string> shape) {
    return tile::makeTileTensorType(ctx, shape, getElementType(dtype));
  }
  RankedTensorType getTensorType(const ValueType &type) {
    return getTensorType(type.dtype, type.shape);
  }
  /// What scalar code computes a value of `dtype` in: f32 for every float.
  Type getComputeType(ElemType dtype) {
    return isFloat(dtype) ? Type(builder.getF32Type()) : getElementType(dtype);
  }

  // Kernels and tensors.
  void genKernel(const Kernel &kernel);
  tile::HintsAttr getHintsAttr(const Schedule &schedule);
  Value genStmtValue(const Stmt &stmt);
  Value genTensor(const Expr &expr);
  Value genMatmul(const BinaryExpr &expr);
  /// A block-scaled parameter as an operand of '@': its data, its scale
  /// tensor and the scale's block.
  struct ScaledOperand {
    Value data, scale;
    DenseI64ArrayAttr block;
  };
  /// `expr` as a block-scaled operand, when it names a block-scaled
  /// parameter.
  std::optional<ScaledOperand> scaledOperand(const Expr &expr);
  Value genCall(const CallExpr &expr);
  /// Converts the elements of `value` to `elementType` with a one-input map.
  Value genConversion(Value value, Type elementType, Location location);

  // Scalar regions.
  /// What scalar code sees: a block argument per map input (by leaf
  /// expression), and the lambda's parameters.
  struct Scope {
    llvm::DenseMap<const Expr *, Value> leaves;
    llvm::SmallVector<Value, 3> lambdaArgs;
  };
  Value genMap(const Expr &root, Type resultElementType);
  void collectLeaves(const Expr &expr,
                     llvm::SmallVectorImpl<const Expr *> &leaves);
  /// Generates `expr` as one element in its compute type; numbers become
  /// constants of `numberType`.
  Value genScalar(const Expr &expr, Type numberType, Scope &scope);
  Value genScalarCall(const CallExpr &call, Type numberType, Scope &scope);
  /// The compute type of an operation over `operands`: that of the first
  /// typed operand, else `numberType`.
  Type getOperandType(llvm::ArrayRef<const Expr *> operands, Type numberType);
  Value genConstant(double value, Type type, Location location);
  /// Converts a scalar between element/compute types (extf, truncf, casts).
  Value convertScalar(Value value, Type to, Location location);
  /// Block arguments of a region, converted to their compute types.
  Block *createRegionBlock(Region &region, TypeRange types,
                           llvm::ArrayRef<Location> locations,
                           llvm::SmallVectorImpl<Value> &computeValues);

  const SourceLocator &locator;
  MLIRContext *ctx;
  OpBuilder builder;

  /// The data and (for block-scaled parameters) scale arguments.
  llvm::DenseMap<const TensorDecl *, std::pair<Value, Value>> paramValues;
  llvm::DenseMap<const Stmt *, Value> stmtValues;
};

} // namespace

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type Generator::getElementType(ElemType dtype) {
  if (std::optional<target::ElementType> storage = getStorageType(dtype))
    return target::getMlirType(ctx, *storage);
  return dtype == ElemType::I1 ? Type(builder.getI1Type())
                               : Type(builder.getIndexType());
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Generator::gen(const Module &module) {
  OwningOpRef<ModuleOp> result = ModuleOp::create(
      locator.getLoc(llvm::SMLoc::getFromPointer(locator.getBuffer().data())));
  builder.setInsertionPointToEnd(result->getBody());
  for (const auto &kernel : module.kernels) {
    genKernel(*kernel);
    builder.setInsertionPointToEnd(result->getBody());
  }
  return result;
}

tile::HintsAttr Generator::getHintsAttr(const Schedule &schedule) {
  // Sema checked each hint's kind and range.
  llvm::SmallVector<int64_t> tileSizes, cluster;
  std::optional<int64_t> stages, consumers, groupM, accStages;
  std::optional<bool> persistent, streamK, pingpong, splitK;
  for (const ScheduleItem &item : schedule.items) {
    if (item.key == "tile")
      tileSizes.assign(item.list.begin(), item.list.end());
    else if (item.key == "cluster")
      cluster.assign(item.list.begin(), item.list.end());
    else if (item.key == "stages")
      stages = item.intValue;
    else if (item.key == "consumers")
      consumers = item.intValue;
    else if (item.key == "group_m")
      groupM = item.intValue;
    else if (item.key == "acc_stages")
      accStages = item.intValue;
    else if (item.key == "persistent")
      persistent = item.boolValue;
    else if (item.key == "stream_k")
      streamK = item.boolValue;
    else if (item.key == "pingpong")
      pingpong = item.boolValue;
    else if (item.key == "split_k")
      splitK = item.boolValue;
  }
  return tile::HintsAttr::get(ctx, tileSizes, stages, cluster, consumers,
                              persistent, groupM, streamK, accStages,
                              pingpong, splitK);
}

/// A kernel tensor's attribute dictionary: its #tile.param.
static DictionaryAttr paramAttrs(tile::ParamAttr param) {
  Builder b(param.getContext());
  return b.getDictionaryAttr(
      {b.getNamedAttr(tile::KernelOp::kParamAttrName, param)});
}

void Generator::genKernel(const Kernel &kernel) {
  paramValues.clear();
  stmtValues.clear();

  // Signature: each parameter, followed by its scale tensor if it has one.
  llvm::SmallVector<Type> argTypes;
  llvm::SmallVector<Location> argLocs;
  llvm::SmallVector<Attribute> argAttrs;
  for (const TensorDecl &param : kernel.params) {
    argTypes.push_back(getTensorType(param.type.dtype, param.type.shape));
    argLocs.push_back(loc(param.loc));
    argAttrs.push_back(paramAttrs(
        tile::ParamAttr::get(ctx, param.name, tile::ParamKind::input)));
    if (!param.type.scale)
      continue;
    const BlockScale &scale = *param.type.scale;
    llvm::SmallVector<std::string, 4> shape(param.type.shape);
    size_t rank = shape.size();
    shape[rank - 2] = tile::getScaleDim(shape[rank - 2], scale.rows);
    shape[rank - 1] = tile::getScaleDim(shape[rank - 1], scale.cols);
    argTypes.push_back(getTensorType(scale.dtype, shape));
    argLocs.push_back(
        loc(param.spec.scale ? param.spec.scale->loc : param.spec.dtypeLoc));
    argAttrs.push_back(paramAttrs(tile::ParamAttr::get(
        ctx, builder.getStringAttr(param.name + ".scale"),
        tile::ParamKind::scale, builder.getStringAttr(param.name),
        {scale.rows, scale.cols})));
  }
  llvm::SmallVector<Type> resultTypes;
  llvm::SmallVector<Attribute> resultAttrs;
  for (const TensorDecl &output : kernel.outputs) {
    resultTypes.push_back(getTensorType(output.type.dtype, output.type.shape));
    resultAttrs.push_back(paramAttrs(
        tile::ParamAttr::get(ctx, output.name, tile::ParamKind::output)));
  }

  auto op = tile::KernelOp::create(
      builder, loc(kernel.loc), kernel.name,
      builder.getFunctionType(argTypes, resultTypes),
      builder.getArrayAttr(argAttrs), builder.getArrayAttr(resultAttrs),
      /*hints=*/tile::HintsAttr(), /*tile_cost=*/FloatAttr(), /*tail_cost=*/FloatAttr(),
      /*variant_of=*/FlatSymbolRefAttr(), /*tmem_columns=*/IntegerAttr());
  if (kernel.schedule)
    op.setHintsAttr(getHintsAttr(*kernel.schedule));
  Block *body = builder.createBlock(&op.getBody(), {}, argTypes, argLocs);

  unsigned arg = 0;
  for (const TensorDecl &param : kernel.params) {
    Value data = body->getArgument(arg++);
    Value scale = param.type.scale ? body->getArgument(arg++) : Value();
    paramValues[&param] = {data, scale};
  }

  llvm::DenseMap<const TensorDecl *, Value> outputValues;
  for (const Stmt &stmt : kernel.body) {
    // Number-valued locals are inlined where they are used.
    if (stmt.value->type.isNumber())
      continue;
    Value value = genStmtValue(stmt);
    stmtValues[&stmt] = value;
    if (stmt.output)
      outputValues[stmt.output] = value;
  }
  llvm::SmallVector<Value> results;
  for (const TensorDecl &output : kernel.outputs)
    results.push_back(outputValues.lookup(&output));
  tile::ReturnOp::create(builder, loc(kernel.loc), results);
}

Value Generator::genStmtValue(const Stmt &stmt) {
  const Expr &value = *stmt.value;
  ElemType dtype = stmt.output ? stmt.output->type.dtype : value.type.dtype;
  Type elementType = getElementType(dtype);
  if (isElementwise(value))
    return genMap(value, elementType);
  Value result = genTensor(value);
  if (llvm::cast<RankedTensorType>(result.getType()).getElementType() !=
      elementType)
    result = genConversion(result, elementType, loc(stmt.loc));
  return result;
}

Value Generator::genConversion(Value value, Type elementType,
                               Location location) {
  auto type = llvm::cast<RankedTensorType>(value.getType());
  auto map = tile::MapOp::create(builder, location, type.clone(elementType),
                                 ValueRange{value});
  OpBuilder::InsertionGuard guard(builder);
  Block *block = builder.createBlock(&map.getBody(), {},
                                     {type.getElementType()}, {value.getLoc()});
  Value converted = convertScalar(block->getArgument(0), elementType, location);
  tile::YieldOp::create(builder, location, converted);
  return map.getResult();
}

Value Generator::genTensor(const Expr &expr) {
  if (isElementwise(expr))
    return genMap(expr, getElementType(expr.type.dtype));
  switch (expr.getKind()) {
  case ExprKind::Name: {
    auto &name = llvm::cast<NameExpr>(expr);
    if (name.param)
      return paramValues.lookup(name.param).first;
    return stmtValues.lookup(name.def);
  }
  case ExprKind::Binary:
    return genMatmul(llvm::cast<BinaryExpr>(expr));
  case ExprKind::Call:
    return genCall(llvm::cast<CallExpr>(expr));
  default:
    llvm_unreachable("Sema admits no other tensor expression");
  }
}

std::optional<Generator::ScaledOperand>
Generator::scaledOperand(const Expr &expr) {
  auto *name = llvm::dyn_cast<NameExpr>(&expr);
  if (!name || !name->param || !name->param->type.scale)
    return std::nullopt;
  auto [data, scale] = paramValues.lookup(name->param);
  const BlockScale &block = *name->param->type.scale;
  return ScaledOperand{data, scale,
                       builder.getDenseI64ArrayAttr({block.rows, block.cols})};
}

Value Generator::genMatmul(const BinaryExpr &expr) {
  Location location = loc(expr.getLoc());
  RankedTensorType resultType = getTensorType(expr.type);
  auto [lhsExpr, transposeA] = peelTransposes(*expr.lhs);
  auto [rhsExpr, transposeB] = peelTransposes(*expr.rhs);

  auto *keys = llvm::dyn_cast<CallExpr>(rhsExpr);
  if (keys && keys->builtin == Builtin::Grouped) {
    auto *queries = llvm::cast<CallExpr>(lhsExpr);
    Value q = genTensor(*queries->args[0].value);
    Value qOffsets = genTensor(*queries->args[1].value);
    Value k = genTensor(*keys->args[0].value);
    Value kOffsets = genTensor(*keys->args[1].value);
    return tile::SegmentedMatmulOp::create(builder, location, resultType, q, k,
                                           qOffsets, kOffsets);
  }
  if (auto *grouped = llvm::dyn_cast<CallExpr>(lhsExpr);
      grouped && grouped->builtin == Builtin::Grouped) {
    // Block-scaled operands (Sema admits both or neither) bring their
    // scale tensors.
    if (std::optional<ScaledOperand> x = scaledOperand(*grouped->args[0].value)) {
      ScaledOperand w = *scaledOperand(*rhsExpr);
      Value offsets = genTensor(*grouped->args[1].value);
      return tile::GroupedMatmulOp::create(
          builder, location, resultType, x->data, w.data, offsets, x->scale,
          w.scale, transposeB, x->block, w.block);
    }
    Value x = genTensor(*grouped->args[0].value);
    Value offsets = genTensor(*grouped->args[1].value);
    Value w = genTensor(*rhsExpr);
    return tile::GroupedMatmulOp::create(builder, location, resultType, x, w,
                                         offsets, Value(), Value(), transposeB,
                                         nullptr, nullptr);
  }

  if (std::optional<ScaledOperand> a = scaledOperand(*lhsExpr)) {
    ScaledOperand b = *scaledOperand(*rhsExpr);
    return tile::ScaledMatmulOp::create(builder, location, resultType, a->data,
                                        a->scale, b.data, b.scale, a->block,
                                        b.block, transposeB);
  }

  Value a = genTensor(*lhsExpr);
  Value b = genTensor(*rhsExpr);
  // An f32 operand is rounded to its 16-bit partner's type (Sema admits
  // only that mix), as attention rounds P before P @ V.
  Type ta = llvm::cast<RankedTensorType>(a.getType()).getElementType();
  Type tb = llvm::cast<RankedTensorType>(b.getType()).getElementType();
  if (ta != tb && ta.isF32())
    a = genConversion(a, tb, loc(lhsExpr->getLoc()));
  else if (ta != tb && tb.isF32())
    b = genConversion(b, ta, loc(rhsExpr->getLoc()));
  return tile::MatmulOp::create(builder, location, resultType, a, b, transposeA,
                                transposeB);
}

Value Generator::genCall(const CallExpr &call) {
  Location location = loc(call.getLoc());
  RankedTensorType resultType = getTensorType(call.type);
  Value input = genTensor(*call.args[0].value);
  switch (call.builtin) {
  case Builtin::Sum:
  case Builtin::ReduceMax:
  case Builtin::LogSumExp: {
    tile::ReduceKind kind = call.builtin == Builtin::Sum ? tile::ReduceKind::sum
                            : call.builtin == Builtin::ReduceMax
                                ? tile::ReduceKind::max
                                : tile::ReduceKind::logsumexp;
    return tile::ReduceOp::create(builder, location, resultType, input, kind,
                                  call.axis);
  }
  case Builtin::Softmax:
    return tile::SoftmaxOp::create(builder, location, resultType, input);
  case Builtin::PerGroup: {
    Value offsets = genTensor(*call.args[1].value);
    return tile::PerGroupOp::create(builder, location, resultType, input,
                                    offsets);
  }
  case Builtin::Causal:
    return tile::MaskOp::create(builder, location, resultType, input,
                                /*causal=*/true);
  case Builtin::Mask:
  case Builtin::Modify: {
    bool isMask = call.builtin == Builtin::Mask;
    auto &lambda = llvm::cast<LambdaExpr>(*call.args[1].value);
    Operation *op;
    Region *region;
    if (isMask) {
      auto mask = tile::MaskOp::create(builder, location, resultType, input,
                                       /*causal=*/false);
      op = mask;
      region = &mask.getPredicate();
    } else {
      auto modify =
          tile::ScoreModOp::create(builder, location, resultType, input);
      op = modify;
      region = &modify.getBody();
    }
    OpBuilder::InsertionGuard guard(builder);
    Type index = builder.getIndexType();
    llvm::SmallVector<Type, 3> argTypes;
    if (!isMask)
      argTypes.push_back(resultType.getElementType());
    argTypes.append({index, index});
    llvm::SmallVector<Location, 3> argLocs;
    for (const LambdaExpr::Param &param : lambda.params)
      argLocs.push_back(loc(param.loc));
    Scope scope;
    createRegionBlock(*region, argTypes, argLocs, scope.lambdaArgs);
    Type resultElement =
        isMask ? Type(builder.getI1Type()) : resultType.getElementType();
    Value body =
        genScalar(*lambda.body,
                  getComputeType(isMask ? ElemType::F32 : call.type.dtype), scope);
    Location bodyLoc = loc(lambda.body->getLoc());
    tile::YieldOp::create(builder, bodyLoc,
                          convertScalar(body, resultElement, bodyLoc));
    return op->getResult(0);
  }
  default:
    llvm_unreachable("not a tensor-level builtin");
  }
}

//===----------------------------------------------------------------------===//
// Scalar regions
//===----------------------------------------------------------------------===//

Block *
Generator::createRegionBlock(Region &region, TypeRange types,
                             llvm::ArrayRef<Location> locations,
                             llvm::SmallVectorImpl<Value> &computeValues) {
  Block *block = builder.createBlock(&region, {}, types, locations);
  for (BlockArgument arg : block->getArguments()) {
    Type type = arg.getType();
    Type compute = llvm::isa<FloatType>(type) ? builder.getF32Type() : type;
    computeValues.push_back(convertScalar(arg, compute, arg.getLoc()));
  }
  return block;
}

void Generator::collectLeaves(const Expr &expr,
                              llvm::SmallVectorImpl<const Expr *> &leaves) {
  if (expr.type.isNumber())
    return;
  if (!isElementwise(expr)) {
    leaves.push_back(&expr);
    return;
  }
  switch (expr.getKind()) {
  case ExprKind::Unary:
    collectLeaves(*llvm::cast<UnaryExpr>(expr).operand, leaves);
    break;
  case ExprKind::Binary:
    collectLeaves(*llvm::cast<BinaryExpr>(expr).lhs, leaves);
    collectLeaves(*llvm::cast<BinaryExpr>(expr).rhs, leaves);
    break;
  case ExprKind::Call:
    for (const CallArg &arg : llvm::cast<CallExpr>(expr).args)
      collectLeaves(*arg.value, leaves);
    break;
  default:
    break;
  }
}

Value Generator::genMap(const Expr &root, Type resultElementType) {
  // Inputs first, outside the map: each distinct tensor the tree reads.
  llvm::SmallVector<const Expr *> leaves;
  collectLeaves(root, leaves);
  llvm::SmallVector<Value> inputs;
  llvm::SmallVector<Location> inputLocs;
  llvm::DenseMap<const Expr *, unsigned> leafIndex;
  for (const Expr *leaf : leaves) {
    Value value = genTensor(*leaf);
    auto it = llvm::find(inputs, value);
    leafIndex[leaf] = it - inputs.begin();
    if (it == inputs.end()) {
      inputs.push_back(value);
      inputLocs.push_back(loc(leaf->getLoc()));
    }
  }

  Location location = loc(root.getLoc());
  RankedTensorType resultType =
      tile::makeTileTensorType(ctx, root.type.shape, resultElementType);
  auto map = tile::MapOp::create(builder, location, resultType, inputs);
  OpBuilder::InsertionGuard guard(builder);
  llvm::SmallVector<Type> argTypes;
  for (Value input : inputs)
    argTypes.push_back(
        llvm::cast<RankedTensorType>(input.getType()).getElementType());
  Scope scope;
  llvm::SmallVector<Value> args;
  createRegionBlock(map.getBody(), argTypes, inputLocs, args);
  for (auto [leaf, index] : leafIndex)
    scope.leaves[leaf] = args[index];
  // A float cast at the root is the rounding to the result type itself.
  const Expr *body = &root;
  while (auto *cast = llvm::dyn_cast<CallExpr>(body)) {
    const Expr &operand = *cast->args.front().value;
    if (cast->builtin != Builtin::Cast || operand.type.isNumber() ||
        !isFloat(operand.type.dtype) ||
        getElementType(cast->castType) != resultElementType)
      break;
    body = &operand;
  }
  Value result = genScalar(*body, getComputeType(body->type.dtype), scope);
  tile::YieldOp::create(builder, location,
                        convertScalar(result, resultElementType, location));
  return map.getResult();
}

Value Generator::genConstant(double value, Type type, Location location) {
  TypedAttr attr;
  if (llvm::isa<FloatType>(type))
    attr = builder.getFloatAttr(type, value);
  else if (type.isInteger(1))
    attr = builder.getBoolAttr(value != 0);
  else if (type.isIndex())
    attr = builder.getIndexAttr(static_cast<int64_t>(value));
  else
    attr = builder.getIntegerAttr(type, static_cast<int64_t>(value));
  return arith::ConstantOp::create(builder, location, attr);
}

Value Generator::convertScalar(Value value, Type to, Location location) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromFloat = llvm::dyn_cast<FloatType>(from);
  auto toFloat = llvm::dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(builder, location, to, value);
    // Floats of one width (f16 and bf16, e4m3 and e5m2) convert through f32:
    // exact there, then rounded once. arith has no cast between them.
    if (fromFloat.getWidth() == toFloat.getWidth())
      value = arith::ExtFOp::create(builder, location, builder.getF32Type(),
                                    value);
    return arith::TruncFOp::create(builder, location, to, value);
  }
  if (toFloat) {
    if (from.isIndex())
      value = arith::IndexCastOp::create(builder, location,
                                         builder.getI64Type(), value);
    if (from.isInteger(1))
      return arith::UIToFPOp::create(builder, location, to, value);
    return arith::SIToFPOp::create(builder, location, to, value);
  }
  if (fromFloat)
    return arith::FPToSIOp::create(builder, location, to, value);
  if (from.isIndex() || to.isIndex())
    return arith::IndexCastOp::create(builder, location, to, value);
  if (from.isInteger(1))
    return arith::ExtUIOp::create(builder, location, to, value);
  return value;
}

Type Generator::getOperandType(llvm::ArrayRef<const Expr *> operands,
                               Type numberType) {
  for (const Expr *operand : operands)
    if (!operand->type.isNumber())
      return getComputeType(operand->type.dtype);
  return numberType;
}

Value Generator::genScalar(const Expr &expr, Type numberType, Scope &scope) {
  Location location = loc(expr.getLoc());
  if (expr.type.isNumber())
    return genConstant(expr.type.number, numberType, location);
  if (auto it = scope.leaves.find(&expr); it != scope.leaves.end())
    return it->second;

  switch (expr.getKind()) {
  case ExprKind::Name:
    return scope.lambdaArgs[*llvm::cast<NameExpr>(expr).lambdaParam];
  case ExprKind::Unary: {
    auto &unary = llvm::cast<UnaryExpr>(expr);
    Type type = getOperandType({unary.operand.get()}, numberType);
    Value operand = genScalar(*unary.operand, type, scope);
    if (unary.op == UnaryOp::Not)
      return arith::XOrIOp::create(builder, location, operand,
                                   genConstant(1, operand.getType(), location));
    if (llvm::isa<FloatType>(type))
      return arith::NegFOp::create(builder, location, operand);
    return arith::SubIOp::create(builder, location,
                                 genConstant(0, type, location), operand);
  }
  case ExprKind::Binary: {
    auto &binary = llvm::cast<BinaryExpr>(expr);
    Type type =
        getOperandType({binary.lhs.get(), binary.rhs.get()}, numberType);
    Value lhs = genScalar(*binary.lhs, type, scope);
    Value rhs = genScalar(*binary.rhs, type, scope);
    bool isF = llvm::isa<FloatType>(type);
    switch (binary.op) {
    case BinaryOp::Add:
      return isF ? arith::AddFOp::create(builder, location, lhs, rhs)
                       .getResult()
                 : arith::AddIOp::create(builder, location, lhs, rhs)
                       .getResult();
    case BinaryOp::Sub:
      return isF ? arith::SubFOp::create(builder, location, lhs, rhs)
                       .getResult()
                 : arith::SubIOp::create(builder, location, lhs, rhs)
                       .getResult();
    case BinaryOp::Mul:
      return isF ? arith::MulFOp::create(builder, location, lhs, rhs)
                       .getResult()
                 : arith::MulIOp::create(builder, location, lhs, rhs)
                       .getResult();
    case BinaryOp::Div:
      return isF ? arith::DivFOp::create(builder, location, lhs, rhs)
                       .getResult()
                 : arith::DivSIOp::create(builder, location, lhs, rhs)
                       .getResult();
    case BinaryOp::And:
      return arith::AndIOp::create(builder, location, lhs, rhs);
    case BinaryOp::Or:
      return arith::OrIOp::create(builder, location, lhs, rhs);
    case BinaryOp::MatMul:
      llvm_unreachable("matmuls are map inputs");
    default:
      break;
    }
    // Comparisons: ordered for floats (NaN compares false), except '!='.
    if (isF) {
      arith::CmpFPredicate predicate;
      switch (binary.op) {
      case BinaryOp::Lt:
        predicate = arith::CmpFPredicate::OLT;
        break;
      case BinaryOp::Le:
        predicate = arith::CmpFPredicate::OLE;
        break;
      case BinaryOp::Gt:
        predicate = arith::CmpFPredicate::OGT;
        break;
      case BinaryOp::Ge:
        predicate = arith::CmpFPredicate::OGE;
        break;
      case BinaryOp::Eq:
        predicate = arith::CmpFPredicate::OEQ;
        break;
      default:
        predicate = arith::CmpFPredicate::UNE;
        break;
      }
      return arith::CmpFOp::create(builder, location, predicate, lhs, rhs);
    }
    arith::CmpIPredicate predicate;
    switch (binary.op) {
    case BinaryOp::Lt:
      predicate = arith::CmpIPredicate::slt;
      break;
    case BinaryOp::Le:
      predicate = arith::CmpIPredicate::sle;
      break;
    case BinaryOp::Gt:
      predicate = arith::CmpIPredicate::sgt;
      break;
    case BinaryOp::Ge:
      predicate = arith::CmpIPredicate::sge;
      break;
    case BinaryOp::Eq:
      predicate = arith::CmpIPredicate::eq;
      break;
    default:
      predicate = arith::CmpIPredicate::ne;
      break;
    }
    return arith::CmpIOp::create(builder, location, predicate, lhs, rhs);
  }
  case ExprKind::Call:
    return genScalarCall(llvm::cast<CallExpr>(expr), numberType, scope);
  default:
    llvm_unreachable("not a scalar expression");
  }
}

Value Generator::genScalarCall(const CallExpr &call, Type numberType,
                               Scope &scope) {
  Location location = loc(call.getLoc());
  auto arg = [&](unsigned i) -> const Expr & { return *call.args[i].value; };

  if (call.builtin == Builtin::Cast) {
    Value operand =
        genScalar(arg(0), getOperandType({&arg(0)}, numberType), scope);
    Type target = getElementType(call.castType);
    Type compute = getComputeType(call.castType);
    // Round to the target type, then continue in its compute type.
    Value rounded = convertScalar(convertScalar(operand, compute, location),
                                  target, location);
    return convertScalar(rounded, compute, location);
  }
  if (call.builtin == Builtin::Where) {
    Value cond = genScalar(arg(0), builder.getI1Type(), scope);
    Type type = getOperandType({&arg(1), &arg(2)}, builder.getF32Type());
    Value a = genScalar(arg(1), type, scope);
    Value b = genScalar(arg(2), type, scope);
    return arith::SelectOp::create(builder, location, cond, a, b);
  }
  if (call.builtin == Builtin::Maximum || call.builtin == Builtin::Minimum) {
    Type type = getOperandType({&arg(0), &arg(1)}, numberType);
    Value a = genScalar(arg(0), type, scope);
    Value b = genScalar(arg(1), type, scope);
    bool isMax = call.builtin == Builtin::Maximum;
    if (llvm::isa<FloatType>(type))
      return isMax ? arith::MaximumFOp::create(builder, location, a, b)
                         .getResult()
                   : arith::MinimumFOp::create(builder, location, a, b)
                         .getResult();
    return isMax ? arith::MaxSIOp::create(builder, location, a, b).getResult()
                 : arith::MinSIOp::create(builder, location, a, b).getResult();
  }

  // Float functions of one argument, in f32.
  Type f32 = builder.getF32Type();
  Value x = genScalar(arg(0), f32, scope);
  auto constant = [&](double v) { return genConstant(v, f32, location); };
  // sigmoid(x) = 1 / (1 + exp(-x)), with the hardware's approximate exp2
  // and division (`afn`: ex2.approx, div.approx; a few ulp of f32, far below
  // the 16-bit outputs' rounding), which keeps SwiGLU's epilogue a small
  // fraction of the tile's time (docs/language.md).
  auto approx = arith::FastMathFlagsAttr::get(builder.getContext(),
                                              arith::FastMathFlags::afn);
  auto sigmoid = [&](Value v) -> Value {
    Value e = math::ExpOp::create(builder, location,
                                  arith::NegFOp::create(builder, location, v),
                                  approx);
    Value denominator =
        arith::AddFOp::create(builder, location, constant(1), e);
    return arith::DivFOp::create(builder, location, constant(1), denominator,
                                 approx);
  };
  switch (call.builtin) {
  case Builtin::Silu:
    return arith::MulFOp::create(builder, location, x, sigmoid(x));
  case Builtin::Sigmoid:
    return sigmoid(x);
  case Builtin::Gelu: {
    // torch's default gelu: x/2 * (1 + erf(x / sqrt(2))).
    Value scaled =
        arith::MulFOp::create(builder, location, x, constant(M_SQRT1_2));
    Value erf = math::ErfOp::create(builder, location, scaled);
    Value onePlus = arith::AddFOp::create(builder, location, constant(1), erf);
    Value half = arith::MulFOp::create(builder, location, x, constant(0.5));
    return arith::MulFOp::create(builder, location, half, onePlus);
  }
  case Builtin::Tanh:
    return math::TanhOp::create(builder, location, x);
  case Builtin::Exp:
    return math::ExpOp::create(builder, location, x);
  case Builtin::Relu:
    return arith::MaximumFOp::create(builder, location, x, constant(0));
  case Builtin::Rsqrt:
    return math::RsqrtOp::create(builder, location, x);
  default:
    llvm_unreachable("not an elementwise builtin");
  }
}

OwningOpRef<ModuleOp> kiln::genModule(const Module &module,
                                      const SourceLocator &locator) {
  return Generator(locator).gen(module);
}
