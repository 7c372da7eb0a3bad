//===- Types.cpp - element types and shapes of .kiln values ---------------===//

#include "frontend/Types.h"

#include "dialects/Tile/IR/TileShapes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;

llvm::StringRef kiln::getDTypeName(DType type) {
  switch (type) {
  case DType::BF16:
    return "bf16";
  case DType::F16:
    return "f16";
  case DType::F32:
    return "f32";
  case DType::I32:
    return "i32";
  case DType::E4M3:
    return "e4m3";
  case DType::E5M2:
    return "e5m2";
  case DType::E2M1:
    return "e2m1";
  case DType::UE8M0:
    return "ue8m0";
  case DType::I1:
    return "i1";
  case DType::Index:
    return "index";
  }
  return "?";
}

std::optional<DType> kiln::parsePlainDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("bf16", DType::BF16)
      .Case("f16", DType::F16)
      .Case("f32", DType::F32)
      .Case("i32", DType::I32)
      .Case("e4m3", DType::E4M3)
      .Case("e5m2", DType::E5M2)
      .Case("e2m1", DType::E2M1)
      .Case("ue8m0", DType::UE8M0)
      .Default(std::nullopt);
}

unsigned kiln::getBitWidth(DType type) {
  switch (type) {
  case DType::BF16:
  case DType::F16:
    return 16;
  case DType::F32:
  case DType::I32:
    return 32;
  case DType::E4M3:
  case DType::E5M2:
  case DType::UE8M0:
    return 8;
  case DType::E2M1:
    return 4;
  case DType::I1:
    return 1;
  case DType::Index:
    return 64;
  }
  return 0;
}

bool kiln::isFloat(DType type) {
  return type != DType::I32 && type != DType::I1 && type != DType::Index;
}

bool kiln::isNarrowFloat(DType type) {
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

std::string kiln::getScaleDim(llvm::StringRef dim, int64_t block) {
  if (block == 1)
    return dim.str();
  if (std::optional<int64_t> value = tile::getConstantDim(dim))
    return std::to_string((*value + block - 1) / block);
  return "cdiv(" + dim.str() + "," + std::to_string(block) + ")";
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
