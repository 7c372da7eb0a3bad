//===- TileShapes.cpp - symbolic extents of tile tensors ------------------===//

#include "dialects/Tile/IR/TileShapes.h"
#include "dialects/Tile/IR/TileDialect.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace kiln::tile {

static bool isName(StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s[0]) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// A non-negative decimal integer that fits in int64_t.
static bool isInt(StringRef s) {
  int64_t value;
  return !s.empty() &&
         llvm::all_of(s, [](char c) { return llvm::isDigit(c); }) &&
         !s.getAsInteger(10, value);
}

bool isValidDimExpr(StringRef expr) {
  if (isInt(expr) || isName(expr))
    return true;
  if (expr.consume_front("cdiv(")) {
    if (!expr.consume_back(")"))
      return false;
    auto [num, den] = expr.split(',');
    return (isName(num) || isInt(num)) && isInt(den) && den != "0" &&
           !llvm::all_of(den, [](char c) { return c == '0'; });
  }
  size_t op = expr.find_first_of("+-*");
  if (op == StringRef::npos)
    return false;
  return isName(expr.take_front(op)) && isInt(expr.drop_front(op + 1));
}

std::optional<int64_t> getConstantDim(StringRef expr) {
  int64_t value;
  if (!isInt(expr) || expr.getAsInteger(10, value))
    return std::nullopt;
  return value;
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
  SmallVector<StringAttr> names;
  for (const std::string &dim : dims)
    names.push_back(StringAttr::get(ctx, dim));
  return RankedTensorType::get(shape, elementType, DimsAttr::get(ctx, names));
}

} // namespace kiln::tile
