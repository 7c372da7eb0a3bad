//===- Types.cpp - element types and shapes of .kiln values ---------------===//

#include "frontend/Types.h"

#include "dialects/Tile/IR/TileShapes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;

namespace {
/// The declarable dtypes and their entries in compiler/Target's element-type
/// table, which owns their names and widths.
constexpr std::pair<ElemType, target::ElementType> kStorageTypes[] = {
    {ElemType::BF16, target::ElementType::BF16},
    {ElemType::F16, target::ElementType::F16},
    {ElemType::F32, target::ElementType::F32},
    {ElemType::I32, target::ElementType::I32},
    {ElemType::E4M3, target::ElementType::E4M3},
    {ElemType::E5M2, target::ElementType::E5M2},
    {ElemType::E2M1, target::ElementType::E2M1},
    {ElemType::UE8M0, target::ElementType::UE8M0},
};
} // namespace

std::optional<target::ElementType> kiln::getStorageType(ElemType type) {
  for (auto [elem, storage] : kStorageTypes)
    if (elem == type)
      return storage;
  return std::nullopt; // I1 and Index live only inside expressions.
}

llvm::StringRef kiln::getDTypeName(ElemType type) {
  if (std::optional<target::ElementType> storage = getStorageType(type)) {
    std::string_view name = target::elementTypeName(*storage);
    return llvm::StringRef(name.data(), name.size());
  }
  return type == ElemType::I1 ? "i1" : "index";
}

std::optional<ElemType> kiln::parsePlainDType(llvm::StringRef name) {
  std::optional<target::ElementType> storage =
      target::parseElementType(std::string_view(name.data(), name.size()));
  for (auto [elem, entry] : kStorageTypes)
    if (storage && entry == *storage)
      return elem;
  return std::nullopt;
}

unsigned kiln::getBitWidth(ElemType type) {
  if (std::optional<target::ElementType> storage = getStorageType(type))
    return target::elementBits(*storage);
  return type == ElemType::I1 ? 1 : 64;
}

bool kiln::isFloat(ElemType type) {
  return type != ElemType::I32 && type != ElemType::I1 && type != ElemType::Index;
}

bool kiln::isNarrowFloat(ElemType type) {
  return isFloat(type) && getBitWidth(type) <= 8;
}

std::string kiln::formatType(const TensorType &type) {
  std::string text =
      getDTypeName(type.dtype).str() + tile::formatDims(type.shape);
  if (type.scale)
    text += " scaled(" + getDTypeName(type.scale->dtype).str() + ", " +
            std::to_string(type.scale->rows) + "x" +
            std::to_string(type.scale->cols) + ")";
  return text;
}

std::string kiln::formatNumber(double value, bool isInteger) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format(isInteger ? "%.0f" : "%.9g", value);
  return text;
}

std::string ValueType::str() const {
  switch (kind) {
  case Kind::Invalid:
    return "<invalid>";
  case Kind::Tensor:
    return getDTypeName(dtype).str() + tile::formatDims(shape);
  case Kind::Scalar:
    return getDTypeName(dtype).str();
  case Kind::Number:
    return "number " + formatNumber(number, isInteger);
  }
  return "?";
}
