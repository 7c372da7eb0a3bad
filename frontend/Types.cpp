//===- Types.cpp - element types and shapes of .kiln values ---------------===//

#include "frontend/Types.h"

#include "dialects/Tile/IR/TileShapes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;

llvm::StringRef kiln::getDTypeName(ElemType type) {
  switch (type) {
  case ElemType::BF16:
    return "bf16";
  case ElemType::F16:
    return "f16";
  case ElemType::F32:
    return "f32";
  case ElemType::I32:
    return "i32";
  case ElemType::E4M3:
    return "e4m3";
  case ElemType::E5M2:
    return "e5m2";
  case ElemType::E2M1:
    return "e2m1";
  case ElemType::UE8M0:
    return "ue8m0";
  case ElemType::I1:
    return "i1";
  case ElemType::Index:
    return "index";
  }
  return "?";
}

std::optional<ElemType> kiln::parsePlainDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ElemType>>(name)
      .Case("bf16", ElemType::BF16)
      .Case("f16", ElemType::F16)
      .Case("f32", ElemType::F32)
      .Case("i32", ElemType::I32)
      .Case("e4m3", ElemType::E4M3)
      .Case("e5m2", ElemType::E5M2)
      .Case("e2m1", ElemType::E2M1)
      .Case("ue8m0", ElemType::UE8M0)
      .Default(std::nullopt);
}

unsigned kiln::getBitWidth(ElemType type) {
  switch (type) {
  case ElemType::BF16:
  case ElemType::F16:
    return 16;
  case ElemType::F32:
  case ElemType::I32:
    return 32;
  case ElemType::E4M3:
  case ElemType::E5M2:
  case ElemType::UE8M0:
    return 8;
  case ElemType::E2M1:
    return 4;
  case ElemType::I1:
    return 1;
  case ElemType::Index:
    return 64;
  }
  return 0;
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
