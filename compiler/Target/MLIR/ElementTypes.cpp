//===- ElementTypes.cpp - MLIR types of the target's element types --------===//

#include "compiler/Target/MLIR/ElementTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

Type kiln::target::getMlirType(MLIRContext *ctx, ElementType type) {
  Builder b(ctx);
  switch (type) {
  case ElementType::BF16:
    return b.getBF16Type();
  case ElementType::F16:
    return b.getF16Type();
  case ElementType::F32:
    return b.getF32Type();
  case ElementType::I32:
    return b.getI32Type();
  case ElementType::E4M3:
    return b.getType<Float8E4M3FNType>();
  case ElementType::E5M2:
    return b.getType<Float8E5M2Type>();
  case ElementType::E2M1:
    return b.getType<Float4E2M1FNType>();
  case ElementType::UE8M0:
    return b.getType<Float8E8M0FNUType>();
  case ElementType::TF32:
  case ElementType::U8:
  case ElementType::S8:
  case ElementType::UE4M3:
    // Operand interpretations without an MLIR type of their own.
    break;
  }
  return Type();
}

std::optional<kiln::target::ElementType>
kiln::target::getElementType(Type type) {
  if (type.isBF16())
    return ElementType::BF16;
  if (type.isF16())
    return ElementType::F16;
  if (type.isF32())
    return ElementType::F32;
  if (type.isInteger(32))
    return ElementType::I32;
  if (llvm::isa<Float8E4M3FNType>(type))
    return ElementType::E4M3;
  if (llvm::isa<Float8E5M2Type>(type))
    return ElementType::E5M2;
  if (llvm::isa<Float4E2M1FNType>(type))
    return ElementType::E2M1;
  if (llvm::isa<Float8E8M0FNUType>(type))
    return ElementType::UE8M0;
  return std::nullopt;
}

bool kiln::target::isMmaFp8(mlir::Type type) {
  return llvm::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(type);
}

bool kiln::target::isMmaBlockScaled(Type data, Type scale, int64_t block) {
  bool ue8m0 = llvm::isa<Float8E8M0FNUType>(scale);
  if (isMmaFp8(data))
    return ue8m0 && block == 32;
  if (llvm::isa<Float4E2M1FNType>(data))
    return (ue8m0 && block == 32) ||
           (llvm::isa<Float8E4M3FNType>(scale) && block == 16);
  return false;
}

bool kiln::target::isSoftwareBlockScaled(Type data, Type scale) {
  return isMmaFp8(data) && scale.isF32();
}

std::string kiln::target::getElementTypeName(Type type) {
  if (std::optional<ElementType> element = getElementType(type))
    return std::string(elementTypeName(*element));
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}
