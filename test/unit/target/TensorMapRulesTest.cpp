//===- TensorMapRulesTest.cpp - TMA box planning --------------------------===//

#include "compiler/Target/TensorMapRules.h"

#include "gtest/gtest.h"

using namespace kiln::target;

namespace {

TmaBoxPlan plan(ElementType type, uint32_t rows, uint32_t inner,
                SwizzleMode swizzle) {
  ValueOrError<TmaBoxPlan> result = planTmaBoxes(type, rows, inner, swizzle);
  EXPECT_TRUE(result) << result.error();
  return result ? *result : TmaBoxPlan{};
}

std::string planError(ElementType type, uint32_t rows, uint32_t inner,
                      SwizzleMode swizzle) {
  ValueOrError<TmaBoxPlan> result = planTmaBoxes(type, rows, inner, swizzle);
  EXPECT_FALSE(result);
  return result.error();
}

} // namespace

TEST(TargetTensorMapRules, ElementTypes) {
  struct Row {
    ElementType type;
    const char *name;
    unsigned cuda, bits;
  } table[] = {{ElementType::BF16, "bf16", 9, 16},
               {ElementType::F16, "f16", 6, 16},
               {ElementType::F32, "f32", 7, 32},
               {ElementType::TF32, "f32", 7, 32},
               {ElementType::I32, "i32", 3, 32},
               {ElementType::U8, "u8", 0, 8},
               {ElementType::E4M3, "u8", 0, 8},
               {ElementType::E5M2, "u8", 0, 8},
               {ElementType::UE8M0, "u8", 0, 8},
               {ElementType::UE4M3, "u8", 0, 8},
               {ElementType::E2M1, "u4x16_align8", 13, 4}};
  for (const Row &row : table) {
    ValueOrError<TmaElement> element = tmaElementFor(row.type);
    ASSERT_TRUE(element) << element.error();
    EXPECT_EQ(element->manifestName, row.name);
    EXPECT_EQ(element->cudaDataType, row.cuda) << row.name;
    EXPECT_EQ(element->bits, row.bits) << row.name;
  }
}

TEST(TargetTensorMapRules, Bf16KTileOfOneSw128Atom) {
  TmaBoxPlan p = plan(ElementType::BF16, 128, 64, SwizzleMode::Bytes128);
  EXPECT_EQ(p.element.manifestName, "bf16");
  EXPECT_EQ(p.box[0], 64u);
  EXPECT_EQ(p.box[1], 128u);
  EXPECT_EQ(p.boxCount, 1u);
  EXPECT_EQ(p.boxBytes, 16384u);
  EXPECT_EQ(p.expectTxBytes, 16384u);
  EXPECT_EQ(p.smemAlignmentBytes, 1024u);
}

TEST(TargetTensorMapRules, WideBf16KTileTakesTwoBoxes) {
  // BLOCK_K = 128 bf16: two {64, rows} boxes, the second at + rows x 128 B.
  TmaBoxPlan p = plan(ElementType::BF16, 64, 128, SwizzleMode::Bytes128);
  EXPECT_EQ(p.box[0], 64u);
  EXPECT_EQ(p.box[1], 64u);
  EXPECT_EQ(p.boxCount, 2u);
  EXPECT_EQ(p.boxSmemStrideBytes, 64u * 128);
  EXPECT_EQ(p.expectTxBytes, 2u * 64 * 128);
}

TEST(TargetTensorMapRules, HardwareCheckSw128Kernel) {
  // k_sw128: A 64 x 64 + B 256 x 64 bf16, expect_tx 40960.
  TmaBoxPlan a = plan(ElementType::BF16, 64, 64, SwizzleMode::Bytes128);
  TmaBoxPlan b = plan(ElementType::BF16, 256, 64, SwizzleMode::Bytes128);
  EXPECT_EQ(a.expectTxBytes + b.expectTxBytes, 40960u);
  EXPECT_EQ(b.box[1], 256u);
}

TEST(TargetTensorMapRules, Sw64AndSw32BoxesMatchHardwareCheck) {
  // k_sw64: boxes {32, rows}, 2 atoms along K; k_sw32: {16, rows}, 4 atoms.
  TmaBoxPlan sw64 = plan(ElementType::BF16, 64, 64, SwizzleMode::Bytes64);
  EXPECT_EQ(sw64.box[0], 32u);
  EXPECT_EQ(sw64.boxCount, 2u);
  EXPECT_EQ(sw64.boxSmemStrideBytes, 4096u);
  TmaBoxPlan sw32 = plan(ElementType::BF16, 256, 64, SwizzleMode::Bytes32);
  EXPECT_EQ(sw32.box[0], 16u);
  EXPECT_EQ(sw32.boxCount, 4u);
  EXPECT_EQ(sw32.boxSmemStrideBytes, 8192u);
  EXPECT_EQ(sw32.expectTxBytes, 256u * 64 * 2);
  EXPECT_EQ(sw32.smemAlignmentBytes, 1024u);
}

TEST(TargetTensorMapRules, Fp8TravelsAsBytes) {
  // k_fp8: UINT8 maps, box {128, rows}, SW128.
  TmaBoxPlan p = plan(ElementType::E4M3, 128, 128, SwizzleMode::Bytes128);
  EXPECT_EQ(p.element.manifestName, "u8");
  EXPECT_EQ(p.element.cudaDataType, 0u);
  EXPECT_EQ(p.box[0], 128u);
  EXPECT_EQ(p.expectTxBytes, 16384u);
}

TEST(TargetTensorMapRules, PackedFp4CountsNibbles) {
  // 256 FP4 values fill one 128-B span; the box counts 4-bit elements.
  TmaBoxPlan p = plan(ElementType::E2M1, 128, 256, SwizzleMode::Bytes128);
  EXPECT_EQ(p.element.manifestName, "u4x16_align8");
  EXPECT_EQ(p.element.cudaDataType, 13u);
  EXPECT_EQ(p.box[0], 256u);
  EXPECT_EQ(p.expectTxBytes, 128u * 128);
  // brief §3.5: a 128 x 64 FP4 tile has 32-B rows: SW32, 4096 B.
  TmaBoxPlan small = plan(ElementType::E2M1, 128, 64, SwizzleMode::Bytes32);
  EXPECT_EQ(small.box[0], 64u);
  EXPECT_EQ(small.expectTxBytes, 4096u);
}

TEST(TargetTensorMapRules, UnswizzledEpilogueTileIsOnePlainBox) {
  // k_epi: C map bf16, SWIZZLE_NONE, box {128, 64}.
  TmaBoxPlan p = plan(ElementType::BF16, 64, 128, SwizzleMode::None);
  EXPECT_EQ(p.box[0], 128u);
  EXPECT_EQ(p.box[1], 64u);
  EXPECT_EQ(p.boxCount, 1u);
  EXPECT_EQ(p.expectTxBytes, 16384u);
  EXPECT_EQ(p.smemAlignmentBytes, 128u);
  TmaBoxPlan f32 = plan(ElementType::F32, 8, 4, SwizzleMode::None);
  EXPECT_EQ(f32.boxBytes, 128u);
}

TEST(TargetTensorMapRules, UnswizzledMmaOperandIsCoreMatrixColumns) {
  // 64 bf16 of K = 8 columns of 16 B; column j at j x rows x 16 B, which is
  // the LBO of the unswizzled K-major canonical layout.
  ValueOrError<TmaBoxPlan> p = planTmaBoxes(
      ElementType::BF16, 64, 64, SwizzleMode::None, TmaTileUse::MmaOperand);
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->box[0], 8u);
  EXPECT_EQ(p->box[1], 64u);
  EXPECT_EQ(p->boxCount, 8u);
  EXPECT_EQ(p->boxSmemStrideBytes, 64u * 16);
  EXPECT_EQ(p->expectTxBytes, 64u * 64 * 2);
  // Swizzled plans do not depend on the use.
  ValueOrError<TmaBoxPlan> swizzled =
      planTmaBoxes(ElementType::BF16, 64, 128, SwizzleMode::Bytes128,
                   TmaTileUse::MmaOperand);
  ASSERT_TRUE(swizzled) << swizzled.error();
  EXPECT_EQ(swizzled->boxCount, 2u);
  ValueOrError<TmaBoxPlan> ragged = planTmaBoxes(
      ElementType::BF16, 12, 64, SwizzleMode::None, TmaTileUse::MmaOperand);
  ASSERT_FALSE(ragged);
  EXPECT_EQ(ragged.error(), "an unswizzled MMA operand needs whole 8-row core "
                            "matrices, got 12 rows");
}

TEST(TargetTensorMapRules, RejectsTilesThatBreakTheSpan) {
  EXPECT_EQ(planError(ElementType::BF16, 64, 80, SwizzleMode::Bytes128),
            "box inner extent 80 x 2 B = 160 B exceeds the 128B swizzle span "
            "and is not a multiple of it");
  EXPECT_EQ(planError(ElementType::BF16, 64, 16, SwizzleMode::Bytes128),
            "box inner extent 16 x 2 B = 32 B does not fill the 128B swizzle "
            "span; the MMA's canonical layout needs exactly one span per box "
            "(32B fits this tile)");
  EXPECT_EQ(planError(ElementType::E2M1, 64, 128, SwizzleMode::Bytes128),
            "box inner extent 128 x 4 bit = 64 B does not fill the 128B "
            "swizzle span; the MMA's canonical layout needs exactly one span "
            "per box (64B fits this tile)");
  EXPECT_EQ(planError(ElementType::E4M3, 64, 96, SwizzleMode::Bytes64),
            "box inner extent 96 x 1 B = 96 B exceeds the 64B swizzle span "
            "and is not a multiple of it");
}

TEST(TargetTensorMapRules, RejectsOutOfRangeExtents) {
  EXPECT_EQ(planError(ElementType::BF16, 300, 64, SwizzleMode::Bytes128),
            "box outer extent 300 rows exceeds the TMA limit of 256");
  EXPECT_EQ(planError(ElementType::BF16, 64, 0, SwizzleMode::Bytes128),
            "TMA tile extents must be positive, got 64 rows x 0 elements");
  EXPECT_EQ(planError(ElementType::BF16, 64, 12, SwizzleMode::None),
            "box inner extent 12 x 2 B = 24 B is not a multiple of 16 B");
  EXPECT_EQ(planError(ElementType::BF16, 64, 264, SwizzleMode::None),
            "box inner extent 264 elements exceeds the TMA limit of 256");
  EXPECT_EQ(planError(ElementType::E2M1, 64, 3, SwizzleMode::None),
            "box inner extent 3 x 4 bit = 12 bit is not a multiple of 16 B");
}
