//===- DeviceCheckTest.cpp - Capability and block limits ------------------===//

#include "TestManifests.h"

#include "runtime/DeviceCheck.h"

#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::test;

namespace {

DeviceInfo h100() {
  DeviceInfo d;
  d.ordinal = 0;
  d.name = "NVIDIA H100 80GB HBM3";
  d.ccMajor = 9;
  d.ccMinor = 0;
  d.smCount = 132;
  d.maxSmemPerBlockOptin = 232448;
  return d;
}

TEST(DeviceCheck, ParsesChips) {
  int major, minor;
  char suffix;
  ASSERT_TRUE(parseChip("sm_90a", major, minor, suffix));
  EXPECT_EQ(major, 9);
  EXPECT_EQ(minor, 0);
  EXPECT_EQ(suffix, 'a');
  ASSERT_TRUE(parseChip("sm_100a", major, minor, suffix));
  EXPECT_EQ(major, 10);
  EXPECT_EQ(minor, 0);
  ASSERT_TRUE(parseChip("sm_89", major, minor, suffix));
  EXPECT_EQ(major, 8);
  EXPECT_EQ(minor, 9);
  EXPECT_EQ(suffix, 0);
  ASSERT_TRUE(parseChip("sm_9999f", major, minor, suffix));
  EXPECT_EQ(major, 999);
  EXPECT_EQ(minor, 9);
  // More digits than any chip has: refused, never converted (std::stoi would
  // throw past int).
  EXPECT_FALSE(parseChip("sm_12345", major, minor, suffix));
  EXPECT_FALSE(parseChip("sm_99999999999999999999a", major, minor, suffix));
  EXPECT_FALSE(parseChip("sm_9", major, minor, suffix));
  EXPECT_FALSE(parseChip("sm_90x", major, minor, suffix));
  EXPECT_FALSE(parseChip("compute_90", major, minor, suffix));
}

TEST(DeviceCheck, ArchSpecificChipsNeedTheExactCapability) {
  EXPECT_TRUE(chipRunsOn("sm_90a", 9, 0));
  EXPECT_FALSE(chipRunsOn("sm_90a", 10, 0));
  EXPECT_FALSE(chipRunsOn("sm_90a", 8, 9));
  EXPECT_TRUE(chipRunsOn("sm_100a", 10, 0));
  EXPECT_FALSE(chipRunsOn("sm_100a", 10, 3));
  EXPECT_TRUE(chipRunsOn("sm_100f", 10, 3));
  EXPECT_FALSE(chipRunsOn("sm_100f", 12, 0));
  EXPECT_TRUE(chipRunsOn("sm_80", 9, 0));
  EXPECT_FALSE(chipRunsOn("sm_80", 7, 5));
}

TEST(DeviceCheck, ChipMismatchMessage) {
  LaunchPlan plan = planOf(matmulManifest());
  std::string error;
  EXPECT_TRUE(checkChip(plan, h100(), error)) << error;
  DeviceInfo a100 = h100();
  a100.name = "NVIDIA A100-SXM4-80GB";
  a100.ccMajor = 8;
  EXPECT_FALSE(checkChip(plan, a100, error));
  EXPECT_EQ(error,
            "kernel 'matmul' was compiled for sm_90a (compute capability "
            "exactly 9.0) but "
            "device 0 (NVIDIA A100-SXM4-80GB) has compute capability 8.0");
  Manifest m = matmulManifest();
  m.chip = "sm_100f";
  DeviceInfo b = h100();
  b.ordinal = 3;
  b.name.clear();
  EXPECT_FALSE(checkChip(planOf(m), b, error));
  EXPECT_EQ(error, "kernel 'matmul' was compiled for sm_100f (compute "
                   "capability 10.x with x >= 0) "
                   "but device 3 has compute capability 9.0");
}

// What kiln compile --chip sm_100a writes is refused on a Hopper GPU before
// the module is loaded, naming both chips.
TEST(DeviceCheck, BlackwellCubinOnHopper) {
  Manifest m = matmulManifest();
  m.chip = "sm_100a";
  std::string error;
  EXPECT_FALSE(checkChip(planOf(m), h100(), error));
  EXPECT_EQ(error, "kernel 'matmul' was compiled for sm_100a (compute "
                   "capability exactly 10.0) but device 0 (" +
                       h100().name + ") has compute capability 9.0");
  DeviceInfo b200 = h100();
  b200.ccMajor = 10;
  EXPECT_TRUE(checkChip(planOf(m), b200, error));
  EXPECT_FALSE(checkChip(planOf(matmulManifest()), b200, error));
}

TEST(DeviceCheck, TooMuchSharedMemory) {
  LaunchPlan plan = planOf(matmulManifest()); // 214016 bytes
  FunctionInfo fn;
  std::string error;
  EXPECT_TRUE(checkFunctionLimits(plan, h100(), fn, error)) << error;
  fn.staticSmem = 20000;
  EXPECT_FALSE(checkFunctionLimits(plan, h100(), fn, error));
  EXPECT_EQ(
      error,
      "kernel 'matmul' needs 214016 bytes of dynamic shared memory + 20000 "
      "static per "
      "block, but device 0 (NVIDIA H100 80GB HBM3) allows at most 232448");
  DeviceInfo small = h100();
  small.maxSmemPerBlockOptin = 101376;
  fn.staticSmem = 0;
  EXPECT_FALSE(checkFunctionLimits(plan, small, fn, error));
  EXPECT_EQ(error, "kernel 'matmul' needs 214016 bytes of dynamic shared "
                   "memory per block, but "
                   "device 0 (NVIDIA H100 80GB HBM3) allows at most 101376");
}

TEST(DeviceCheck, TooManyThreadsForTheRegisters) {
  LaunchPlan plan = planOf(matmulManifest()); // 384 threads
  FunctionInfo fn;
  fn.maxThreadsPerBlock = 256;
  std::string error;
  EXPECT_FALSE(checkFunctionLimits(plan, h100(), fn, error));
  EXPECT_EQ(error, "kernel 'matmul' launches 384 threads per block but its "
                   "entry 'matmul' can run "
                   "at most 256 (register use)");
}

} // namespace
