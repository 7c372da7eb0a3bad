//===- TileShapes.cpp - symbolic extents of tile tensors ------------------===//

#include "dialects/Tile/IR/TileShapes.h"
#include "dialects/Tile/IR/TileDialect.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace kiln::tile {

std::optional<int64_t> getConstantDim(StringRef expr) {
  kiln::DimExpr parsed;
  std::string error;
  if (!kiln::DimExpr::parse(expr.str(), parsed, error) ||
      parsed.kind != kiln::DimExpr::Kind::Const)
    return std::nullopt;
  return parsed.value;
}

SmallVector<std::string> getDimExprs(RankedTensorType type) {
  SmallVector<std::string> dims;
  auto encoding = llvm::dyn_cast_or_null<DimsAttr>(type.getEncoding());
  for (auto [axis, size] : llvm::enumerate(type.getShape())) {
    if (encoding && axis < encoding.getDims().size())
      dims.push_back(encoding.getDims()[axis].str());
    else if (!ShapedType::isDynamic(size))
      dims.push_back(std::to_string(size));
    else
      dims.push_back(kUnknownDim.str());
  }
  return dims;
}

SmallVector<DimExprAttr> getDimAttrs(RankedTensorType type) {
  SmallVector<DimExprAttr> dims;
  auto encoding = llvm::dyn_cast_or_null<DimsAttr>(type.getEncoding());
  for (auto [axis, size] : llvm::enumerate(type.getShape())) {
    if (encoding && axis < encoding.getDims().size())
      dims.push_back(encoding.getDims()[axis]);
    else if (!ShapedType::isDynamic(size))
      dims.push_back(
          DimExprAttr::get(type.getContext(), kiln::DimExpr::constant(size)));
    else
      dims.push_back(DimExprAttr());
  }
  return dims;
}

DimExprAttr getCeilDivDim(DimExprAttr dim, int64_t per) {
  if (!dim || per < 1)
    return {};
  MLIRContext *ctx = dim.getContext();
  if (std::optional<int64_t> value = dim.getConstant())
    return DimExprAttr::get(ctx,
                            kiln::DimExpr::constant((*value + per - 1) / per));
  if (per == 1)
    return dim;
  if (dim.getKind() != kiln::DimExpr::Kind::Name)
    return {};
  return DimExprAttr::get(
      ctx, kiln::DimExpr::make(kiln::DimExpr::Kind::CeilDiv,
                               dim.getName().str(), per));
}

bool dimsAgree(StringRef a, StringRef b) {
  return a == kUnknownDim || b == kUnknownDim || a == b;
}

std::string getScaleDim(StringRef dim, int64_t block) {
  if (block == 1)
    return dim.str();
  if (std::optional<int64_t> value = getConstantDim(dim))
    return std::to_string((*value + block - 1) / block);
  return "cdiv(" + dim.str() + "," + std::to_string(block) + ")";
}

std::string formatDims(ArrayRef<std::string> dims) {
  return "[" + llvm::join(dims, ", ") + "]";
}

RankedTensorType makeTileTensorType(MLIRContext *ctx,
                                    ArrayRef<std::string> dims,
                                    Type elementType) {
  SmallVector<int64_t> shape;
  bool symbolic = false;
  for (const std::string &dim : dims) {
    if (std::optional<int64_t> value = getConstantDim(dim)) {
      shape.push_back(*value);
    } else {
      shape.push_back(ShapedType::kDynamic);
      symbolic = true;
    }
  }
  if (!symbolic)
    return RankedTensorType::get(shape, elementType);
  SmallVector<DimExprAttr> exprs;
  for (const std::string &dim : dims) {
    kiln::DimExpr expr;
    std::string error;
    bool parsed = kiln::DimExpr::parse(dim, expr, error);
    assert(parsed && "makeTileTensorType takes valid dim expressions");
    (void)parsed;
    exprs.push_back(DimExprAttr::get(ctx, expr));
  }
  return RankedTensorType::get(shape, elementType, DimsAttr::get(ctx, exprs));
}

} // namespace kiln::tile
