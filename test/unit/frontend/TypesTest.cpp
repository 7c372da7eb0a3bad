//===- TypesTest.cpp - dims, dtypes and suggestions -----------------------===//

#include "frontend/Types.h"
#include "dialects/Tile/IR/TileShapes.h"
#include "frontend/Suggest.h"

#include "gtest/gtest.h"

using namespace kiln;
using kiln::tile::getScaleDim;

namespace {

TEST(Types, ScaleDims) {
  // Spelled as the tile dialect's #tile.dims encoding expects.
  EXPECT_EQ(getScaleDim("K", 128), "cdiv(K,128)");
  EXPECT_EQ(getScaleDim("M", 1), "M");
  EXPECT_EQ(getScaleDim("300", 128), "3");
  EXPECT_EQ(getScaleDim("256", 128), "2");
}

TEST(Types, Format) {
  TensorType type;
  type.dtype = ElemType::E4M3;
  type.shape = {"M", "K"};
  type.scale = BlockScale{ElemType::F32, 1, 128};
  EXPECT_EQ(formatType(type), "e4m3[M, K] scaled(f32, 1x128)");
  EXPECT_EQ(ValueType::tensor(ElemType::BF16, {"M", "N"}).str(), "bf16[M, N]");
  EXPECT_EQ(ValueType::literal(0.5, false).str(), "number 0.5");
}

TEST(Types, DTypes) {
  EXPECT_EQ(parsePlainDType("e2m1"), ElemType::E2M1);
  EXPECT_EQ(parsePlainDType("nvfp4"), std::nullopt);
  EXPECT_TRUE(isNarrowFloat(ElemType::E4M3));
  EXPECT_FALSE(isNarrowFloat(ElemType::BF16));
  EXPECT_FALSE(isFloat(ElemType::Index));
  EXPECT_EQ(getBitWidth(ElemType::E2M1), 4u);
}

TEST(Suggest, CloseNamesOnly) {
  EXPECT_EQ(didYouMean("slu", {"silu", "gelu"}), "; did you mean 'silu'?");
  EXPECT_EQ(didYouMean("wieght", {"weight", "bias"}),
            "; did you mean 'weight'?");
  EXPECT_EQ(didYouMean("swish", {"silu", "gelu"}), "");
  // Names under three letters are too short to guess from.
  EXPECT_EQ(didYouMean("x", {"a"}), "");
}

TEST(Suggest, LongNamesCostNothing) {
  // The edit distance is quadratic in the lengths: names longer than the
  // cap are not compared at all, and candidates whose length alone puts
  // them out of reach are skipped.
  std::string longName(kMaxSuggestedNameLength + 1, 'a');
  std::string longCandidate = longName;
  longCandidate.back() = 'b';
  EXPECT_EQ(didYouMean(longName, {longCandidate}), "");
  std::string atCap(kMaxSuggestedNameLength, 'a');
  std::string atCapCandidate = atCap;
  atCapCandidate.back() = 'b';
  EXPECT_EQ(didYouMean(atCap, {atCapCandidate}),
            "; did you mean '" + atCapCandidate + "'?");
  EXPECT_EQ(findClosest("abcdef", {"abcdefghij", "abcdeg"}), "abcdeg");
}

} // namespace
