//===- RooflineTest.cpp - peak-rate table and roofline floors -------------===//

#include "compiler/Target/Roofline.h"

#include "gtest/gtest.h"

using namespace kiln::target;

TEST(TargetRoofline, PrecisionOfOperands) {
  EXPECT_EQ(mathPrecisionOf(ElementType::BF16), MathPrecision::Bits16);
  EXPECT_EQ(mathPrecisionOf(ElementType::F16), MathPrecision::Bits16);
  EXPECT_EQ(mathPrecisionOf(ElementType::E4M3), MathPrecision::Bits8);
  EXPECT_EQ(mathPrecisionOf(ElementType::E5M2), MathPrecision::Bits8);
  EXPECT_EQ(mathPrecisionOf(ElementType::E2M1), MathPrecision::Bits4);
  EXPECT_FALSE(mathPrecisionOf(ElementType::F32));
  EXPECT_FALSE(mathPrecisionOf(ElementType::UE8M0));
}

TEST(TargetRoofline, DevicesPerChip) {
  std::vector<const DevicePeak *> hopper = devicesForChip("sm_90a");
  ASSERT_EQ(hopper.size(), 2u);
  EXPECT_EQ(hopper[0]->name, "H100");
  EXPECT_EQ(hopper[1]->name, "H200");
  std::vector<const DevicePeak *> blackwell = devicesForChip("sm_100a");
  ASSERT_EQ(blackwell.size(), 1u);
  EXPECT_EQ(blackwell[0]->name, "B200");
  EXPECT_TRUE(devicesForChip("sm_80").empty());
}

TEST(TargetRoofline, PeakRates) {
  const DevicePeak &b200 = *devicesForChip("sm_100a")[0];
  EXPECT_DOUBLE_EQ(b200.flopsPerSecond(MathPrecision::Bits16), 2.25e15);
  EXPECT_DOUBLE_EQ(b200.flopsPerSecond(MathPrecision::Bits8), 4.5e15);
  EXPECT_DOUBLE_EQ(b200.flopsPerSecond(MathPrecision::Bits4), 9.0e15);
  EXPECT_DOUBLE_EQ(b200.memoryBytesPerSecond, 8.0e12);
  const DevicePeak &h200 = *devicesForChip("sm_90a")[1];
  EXPECT_DOUBLE_EQ(h200.flopsPerSecond(MathPrecision::Bits16), 989.4e12);
  EXPECT_DOUBLE_EQ(h200.memoryBytesPerSecond, 4.8e12);
  // Hopper has no FP4 MMA.
  EXPECT_FALSE(rooflineFloor(h200, MathPrecision::Bits4, 1, 1));
}

TEST(TargetRoofline, Floors) {
  const DevicePeak &b200 = *devicesForChip("sm_100a")[0];
  // 4096^3 bf16 matmul: 2 * 4096^3 FLOP, 3 * 4096^2 * 2 bytes.
  double flops = 2.0 * 4096 * 4096 * 4096;
  double bytes = 3.0 * 4096 * 4096 * 2;
  std::optional<RooflineFloor> floor =
      rooflineFloor(b200, MathPrecision::Bits16, flops, bytes);
  ASSERT_TRUE(floor);
  EXPECT_NEAR(floor->computeSeconds, flops / 2.25e15, 1e-15);
  EXPECT_NEAR(floor->memorySeconds, bytes / 8.0e12, 1e-15);
  EXPECT_TRUE(floor->computeBound());
  EXPECT_DOUBLE_EQ(floor->seconds(), floor->computeSeconds);
  // A skinny product is memory-bound.
  std::optional<RooflineFloor> skinny = rooflineFloor(
      b200, MathPrecision::Bits4, 2.0 * 16 * 4096 * 7168, 4096.0 * 7168 / 2);
  ASSERT_TRUE(skinny);
  EXPECT_FALSE(skinny->computeBound());
  EXPECT_DOUBLE_EQ(skinny->seconds(), skinny->memorySeconds);
}
