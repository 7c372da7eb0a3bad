//===- ElementType.cpp - Element types the target encoders know -----------===//

#include "compiler/Target/ElementType.h"

namespace kiln::target {

namespace {
constexpr ElementType allElementTypes[] = {
    ElementType::BF16, ElementType::F16,   ElementType::F32,
    ElementType::TF32, ElementType::I32,   ElementType::U8,
    ElementType::S8,   ElementType::E4M3,  ElementType::E5M2,
    ElementType::E2M1, ElementType::UE8M0, ElementType::UE4M3};
} // namespace

unsigned elementBits(ElementType type) {
  switch (type) {
  case ElementType::F32:
  case ElementType::TF32:
  case ElementType::I32:
    return 32;
  case ElementType::BF16:
  case ElementType::F16:
    return 16;
  case ElementType::U8:
  case ElementType::S8:
  case ElementType::E4M3:
  case ElementType::E5M2:
  case ElementType::UE8M0:
  case ElementType::UE4M3:
    return 8;
  case ElementType::E2M1:
    return 4;
  }
  return 0;
}

std::string_view elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return "bf16";
  case ElementType::F16:
    return "f16";
  case ElementType::F32:
    return "f32";
  case ElementType::TF32:
    return "tf32";
  case ElementType::I32:
    return "i32";
  case ElementType::U8:
    return "u8";
  case ElementType::S8:
    return "s8";
  case ElementType::E4M3:
    return "e4m3";
  case ElementType::E5M2:
    return "e5m2";
  case ElementType::E2M1:
    return "e2m1";
  case ElementType::UE8M0:
    return "ue8m0";
  case ElementType::UE4M3:
    return "ue4m3";
  }
  return "";
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (ElementType type : allElementTypes)
    if (elementTypeName(type) == name)
      return type;
  return std::nullopt;
}

std::optional<uint64_t> elementBytes(ElementType type, uint64_t count) {
  uint64_t bits = count * elementBits(type);
  if (bits % 8 != 0)
    return std::nullopt;
  return bits / 8;
}

} // namespace kiln::target
