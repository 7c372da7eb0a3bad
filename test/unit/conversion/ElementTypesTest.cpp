//===- ElementTypesTest.cpp - MLIR types of the target's element types ----===//
//
// Every element type with an MLIR type maps there and back; the others
// (operand interpretations) have none; MLIR types the target does not store
// have no element type.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/MLIR/ElementTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln::target;

namespace {

TEST(ElementTypes, StoredTypesRoundTrip) {
  MLIRContext ctx;
  for (ElementType type :
       {ElementType::BF16, ElementType::F16, ElementType::F32,
        ElementType::I32, ElementType::E4M3, ElementType::E5M2,
        ElementType::E2M1, ElementType::UE8M0}) {
    Type mlirType = getMlirType(&ctx, type);
    ASSERT_TRUE(mlirType) << elementTypeName(type);
    EXPECT_EQ(mlirType.getIntOrFloatBitWidth(), elementBits(type))
        << elementTypeName(type);
    EXPECT_EQ(getElementType(mlirType), type) << elementTypeName(type);
  }
}

TEST(ElementTypes, InterpretationsHaveNoMlirType) {
  MLIRContext ctx;
  for (ElementType type : {ElementType::TF32, ElementType::U8,
                           ElementType::S8, ElementType::UE4M3})
    EXPECT_FALSE(getMlirType(&ctx, type)) << elementTypeName(type);
}

TEST(ElementTypes, UnstoredMlirTypesHaveNoElementType) {
  MLIRContext ctx;
  Builder b(&ctx);
  EXPECT_EQ(getElementType(b.getF64Type()), std::nullopt);
  EXPECT_EQ(getElementType(b.getI1Type()), std::nullopt);
  EXPECT_EQ(getElementType(b.getI8Type()), std::nullopt);
  EXPECT_EQ(getElementType(b.getIndexType()), std::nullopt);
}

} // namespace
