//===- ProgramSignature.cpp - the ABI of a cta.program from a kernel ------===//

#include "compiler/Conversion/TileToCta/ProgramSignature.h"

#include "dialects/Tile/IR/TileShapes.h"
#include "runtime/DimExpr.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace kiln;

void ProgramSignature::addTensor(RankedTensorType type, tile::ParamAttr param,
                                 ArrayRef<tile::DimExprAttr> layout) {
  SmallVector<tile::DimExprAttr> shapeDims = tile::getDimAttrs(type);
  if (!layout.empty())
    shapeDims.assign(layout.begin(), layout.end());
  int64_t rank = shapeDims.size();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  strides.back() = 1;
  argTypes.push_back(MemRefType::get(shape, type.getElementType(),
                                     StridedLayoutAttr::get(ctx, 0, strides)));
  for (tile::DimExprAttr dim : shapeDims)
    if (dim.getKind() != DimExpr::Kind::Const)
      dims.insert({dim.getName().getValue(), Value()});
  NamedAttrList attrs;
  attrs.set(cta::ProgramOp::kParamAttrName,
            cta::ParamAttr::get(ctx, param.getName(), param.getKind(),
                                shapeDims, param.getScaleOf(),
                                param.getBlock()));
  argAttrs.push_back(attrs);
}

cta::ProgramOp ProgramSignature::create(OpBuilder &builder,
                                        tile::KernelOp kernel,
                                        target::Chip chip) {
  unsigned numTensors = argTypes.size();
  for (auto &dim : dims) {
    argTypes.push_back(builder.getIndexType());
    NamedAttrList attrs;
    attrs.set(cta::ProgramOp::kDimAttrName,
              cta::DimAttr::get(ctx, StringAttr::get(ctx, dim.first)));
    argAttrs.push_back(attrs);
  }
  Location loc = kernel.getLoc();
  builder.setInsertionPoint(kernel);
  auto program = cta::ProgramOp::create(builder, loc, kernel.getSymName(),
                                        builder.getFunctionType(argTypes, {}));
  SmallVector<DictionaryAttr> argDicts;
  for (NamedAttrList &attrs : argAttrs)
    argDicts.push_back(attrs.getDictionary(ctx));
  program.setAllArgAttrs(argDicts);
  program.setChipAttr(cta::ChipAttr::get(ctx, chip));
  // Variants of one kernel (tile-select-schedule) launch as one manifest.
  program.setVariantOfAttr(kernel.getVariantOfAttr());
  program.setTileCostAttr(kernel.getTileCostAttr());
  program.setTailCostAttr(kernel.getTailCostAttr());
  OpBuilder::InsertionGuard guard(builder);
  entry = builder.createBlock(&program.getBody());
  for (Type type : argTypes)
    entry->addArgument(type, loc);
  for (auto [index, dim] : llvm::enumerate(dims))
    dim.second = entry->getArgument(numTensors + index);
  return program;
}

Value ProgramSignature::dimValue(OpBuilder &builder, Location loc,
                                 StringRef dim) const {
  if (std::optional<int64_t> constant = tile::getConstantDim(dim))
    return arith::ConstantIndexOp::create(builder, loc, *constant);
  if (Value name = dims.lookup(dim))
    return name;
  DimExpr expr;
  std::string error;
  if (!DimExpr::parse(dim.str(), expr, error) ||
      expr.kind == DimExpr::Kind::Const)
    return Value();
  Value name = dims.lookup(expr.name);
  if (!name)
    return Value();
  Value operand = arith::ConstantIndexOp::create(builder, loc, expr.value);
  switch (expr.kind) {
  case DimExpr::Kind::Add:
    return arith::AddIOp::create(builder, loc, name, operand);
  case DimExpr::Kind::Sub:
    return arith::SubIOp::create(builder, loc, name, operand);
  case DimExpr::Kind::Mul:
    return arith::MulIOp::create(builder, loc, name, operand);
  case DimExpr::Kind::CeilDiv:
    return arith::CeilDivUIOp::create(builder, loc, name, operand);
  default:
    return name;
  }
}

Value ProgramSignature::programArg(Value value) const {
  return entry->getArgument(llvm::cast<BlockArgument>(value).getArgNumber());
}

Value ProgramSignature::resultArg(tile::KernelOp kernel,
                                  unsigned index) const {
  return entry->getArgument(kernel.getNumArguments() + index);
}
