//===- TensorMemoryTest.cpp - TMEM allocation and scale-factor layout -----===//

#include "compiler/Target/TensorMemory.h"
#include "compiler/Target/BlockScaleLayout.h"

#include "gtest/gtest.h"

using namespace kiln::target;

TEST(TargetTensorMemory, AllocationRoundsToPowersOfTwo) {
  EXPECT_EQ(*tmemAllocationColumns(1), 32u);
  EXPECT_EQ(*tmemAllocationColumns(32), 32u);
  EXPECT_EQ(*tmemAllocationColumns(33), 64u);
  EXPECT_EQ(*tmemAllocationColumns(128), 128u);
  EXPECT_EQ(*tmemAllocationColumns(136), 256u); // D 128 + SFA 4 + SFB 4
  EXPECT_EQ(*tmemAllocationColumns(304), 512u); // brief §5.9 NVFP4 example
  EXPECT_EQ(*tmemAllocationColumns(512), 512u);
  ValueOrError<uint32_t> tooMany = tmemAllocationColumns(513);
  ASSERT_FALSE(tooMany);
  EXPECT_EQ(tooMany.error(),
            "a CTA needs 513 TMEM columns but an SM has only 512");
  EXPECT_FALSE(tmemAllocationColumns(0));
}

TEST(TargetTensorMemory, Addresses) {
  EXPECT_EQ(*tmemAddress(0, 0), 0u);
  EXPECT_EQ(*tmemAddress(0, 132), 132u);
  EXPECT_EQ(*tmemAddress(32, 128), 0x00200080u);
  EXPECT_EQ(*tmemAddress(127, 511), 0x007F01FFu);
  ValueOrError<uint32_t> outside = tmemAddress(128, 0);
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error(), "TMEM position (lane 128, column 0) is outside "
                             "the 128 x 512 tensor memory");
  EXPECT_FALSE(tmemAddress(0, 512));
}

TEST(TargetTensorMemory, ColumnsOfPackedElements) {
  // Attention's P: 128 bf16 keys per lane in 64 columns; O and S in f32.
  EXPECT_EQ(*tmemColumnsOf(16, 128), 64u);
  EXPECT_EQ(*tmemColumnsOf(32, 128), 128u);
  EXPECT_EQ(*tmemColumnsOf(32, 256), 256u);
  ValueOrError<uint32_t> odd = tmemColumnsOf(16, 3);
  ASSERT_FALSE(odd);
  EXPECT_EQ(odd.error(), "3 elements of 16 bits do not fill whole 32-bit "
                         "tensor-memory columns");
  ValueOrError<uint32_t> bytes = tmemColumnsOf(8, 64);
  ASSERT_FALSE(bytes);
  EXPECT_EQ(bytes.error(), "tensor memory holds 32-bit elements or packed "
                           "pairs of 16-bit ones, not 8-bit elements");
}

TEST(TargetTensorMemory, OperandKSteps) {
  // A k16 step of a 16-bit A operand: 32 bytes per lane, 8 columns.
  EXPECT_EQ(tmemOperandKStepColumns(0), 0u);
  EXPECT_EQ(tmemOperandKStepColumns(1), 8u);
  EXPECT_EQ(tmemOperandKStepColumns(7), 56u);
}

TEST(TargetTensorMemory, WarpLaneQuarters) {
  const uint32_t expected[] = {0, 32, 64, 96, 0, 32, 64, 96, 0};
  for (uint32_t warp = 0; warp < 9; ++warp)
    EXPECT_EQ(tmemLaneBaseForWarp(warp), expected[warp]) << warp;
}

TEST(TargetBlockScaleLayout, AtomByteOffsets) {
  // 16 * m0 + 4 * m1 + kb for row m = m0 + 32 * m1.
  EXPECT_EQ(*scaleFactorAtomByteOffset(0, 0), 0u);
  EXPECT_EQ(*scaleFactorAtomByteOffset(0, 3), 3u);
  EXPECT_EQ(*scaleFactorAtomByteOffset(1, 0), 16u);
  EXPECT_EQ(*scaleFactorAtomByteOffset(32, 0), 4u);
  EXPECT_EQ(*scaleFactorAtomByteOffset(33, 1), 21u);
  EXPECT_EQ(*scaleFactorAtomByteOffset(31, 3), 499u);
  EXPECT_EQ(*scaleFactorAtomByteOffset(127, 3), 511u);
  ValueOrError<uint32_t> outside = scaleFactorAtomByteOffset(128, 0);
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error(), "scale-factor atom position (row 128, block 0) "
                             "is outside the 128 x 4 atom");
  EXPECT_FALSE(scaleFactorAtomByteOffset(0, 4));
}

TEST(TargetBlockScaleLayout, AtomIsABijectionOnto512Bytes) {
  bool seen[scaleFactorAtomBytes] = {};
  for (uint32_t row = 0; row < scaleFactorAtomRows; ++row)
    for (uint32_t kb = 0; kb < scaleFactorAtomKBlocks; ++kb) {
      uint32_t offset = *scaleFactorAtomByteOffset(row, kb);
      ASSERT_LT(offset, scaleFactorAtomBytes);
      EXPECT_FALSE(seen[offset]) << "row " << row << " block " << kb;
      seen[offset] = true;
    }
}

TEST(TargetBlockScaleLayout, TensorOffsetsAreKFastest) {
  // 8 scale blocks per row = 2 atoms along K.
  EXPECT_EQ(*scaleFactorByteOffset(0, 4, 8), 512u);
  EXPECT_EQ(*scaleFactorByteOffset(128, 0, 8), 1024u);
  EXPECT_EQ(*scaleFactorByteOffset(129, 5, 8), 3u * 512 + 16 + 1);
  // 5 blocks per row pad to 2 atoms.
  EXPECT_EQ(*scaleFactorByteOffset(128, 0, 5), 1024u);
  EXPECT_FALSE(scaleFactorByteOffset(0, 8, 8));
  EXPECT_EQ(scaleFactorTensorBytes(256, 16), 2u * 4 * 512);
  EXPECT_EQ(scaleFactorTensorBytes(100, 5), 1u * 2 * 512);
}

TEST(TargetBlockScaleLayout, NvFp4MmaUsesAWholeAtom) {
  for (unsigned mma = 0; mma < 4; ++mma) {
    ValueOrError<ScaleFactorTmemOperand> sfa =
        scaleFactorTmemOperand(Tcgen05Kind::MXF4NVF4, 16, 128, mma);
    ASSERT_TRUE(sfa) << sfa.error();
    EXPECT_EQ(sfa->columnOffset, 4 * mma);
    EXPECT_EQ(sfa->scaleFactorId, 0u);
  }
  // SFB of an N = 256 tile: two row atoms per K step.
  ValueOrError<ScaleFactorTmemOperand> sfb =
      scaleFactorTmemOperand(Tcgen05Kind::MXF4NVF4, 16, 256, 1);
  ASSERT_TRUE(sfb) << sfb.error();
  EXPECT_EQ(sfb->columnOffset, 8u);
  EXPECT_EQ(scaleFactorAtomTmemColumn(256, 1, 1), 12u);
}

TEST(TargetBlockScaleLayout, MxFp8MmasShareAnAtom) {
  // DeepGEMM: sf_id = the MMA's index within the 128-K block.
  for (unsigned mma = 0; mma < 8; ++mma) {
    ValueOrError<ScaleFactorTmemOperand> sf =
        scaleFactorTmemOperand(Tcgen05Kind::MXF8F6F4, 32, 128, mma);
    ASSERT_TRUE(sf) << sf.error();
    EXPECT_EQ(sf->columnOffset, 4 * (mma / 4));
    EXPECT_EQ(sf->scaleFactorId, mma % 4);
  }
}

TEST(TargetBlockScaleLayout, MxFp4UsesIds0And2) {
  const unsigned expectedColumn[] = {0, 0, 4, 4};
  const unsigned expectedId[] = {0, 2, 0, 2};
  for (unsigned mma = 0; mma < 4; ++mma) {
    ValueOrError<ScaleFactorTmemOperand> sf =
        scaleFactorTmemOperand(Tcgen05Kind::MXF4, 32, 128, mma);
    ASSERT_TRUE(sf) << sf.error();
    EXPECT_EQ(sf->columnOffset, expectedColumn[mma]);
    EXPECT_EQ(sf->scaleFactorId, expectedId[mma]);
    EXPECT_TRUE(validTcgen05ScaleFactorIds(2) & (1u << sf->scaleFactorId));
  }
  EXPECT_FALSE(scaleFactorTmemOperand(Tcgen05Kind::F16, 32, 128, 0));
}

TEST(TargetBlockScaleLayout, TmemColumnsOfATile) {
  // brief §5.9: 128 x 256 NVFP4 tile, BLOCK_K 256: SFA 16 + SFB 32 columns.
  EXPECT_EQ(*scaleFactorTmemColumns(128, 256, 16), 16u);
  EXPECT_EQ(*scaleFactorTmemColumns(256, 256, 16), 32u);
  EXPECT_EQ(*scaleFactorTmemColumns(128, 128, 32), 4u);
  ValueOrError<uint32_t> ragged = scaleFactorTmemColumns(128, 100, 32);
  ASSERT_FALSE(ragged);
  EXPECT_EQ(ragged.error(),
            "K extent 100 is not a whole number of 32-element scale blocks");
}
