//===- ChipTest.cpp - Chip descriptions and the register split ------------===//
//
// The values the schedule and pipeline passes hard-code today
// (SelectSchedule.cpp, Pipeline.cpp); the setmaxnreg counts ran on an H200
// (sm90-hardware-check.md, setmaxnreg).
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/Chip.h"
#include "compiler/Target/TensorMemory.h"

#include "gtest/gtest.h"

#include <string_view>

using namespace kiln::target;

TEST(TargetChip, Sm90a) {
  const ChipInfo *chip = lookupChip("sm_90a");
  ASSERT_NE(chip, nullptr);
  EXPECT_EQ(chip->name, "sm_90a");
  EXPECT_EQ(chip->smemPerBlockOptIn, 232448u) << "227 KiB";
  EXPECT_EQ(chip->smemReserve, 1024u);
  EXPECT_EQ(chip->registerFile, 65536u);
  EXPECT_EQ(chip->maxRegistersPerThread, 255u);
  EXPECT_EQ(chip->setmaxnregGranularity, 8u);
  EXPECT_EQ(chip->setmaxnregMin, 24u);
  EXPECT_EQ(chip->setmaxnregMax, 256u);
  EXPECT_EQ(chip->threadsPerWarpgroup, 128u);
  EXPECT_EQ(chip->accumulatorRegisterBudget, 168u);
  EXPECT_EQ(chip->tensorMemoryColumns, 0u);
  EXPECT_EQ(chip->tensorMemoryLanes, 0u);
  EXPECT_EQ(chip->mmaRowsPerInstruction, 64u);
  EXPECT_EQ(chip->mmaMaxN, 256u);
  EXPECT_EQ(chip->mmaNMultiple, 8u);
  EXPECT_EQ(chip->maxClusterSize, 8u);
  EXPECT_EQ(chip->producerRegisters, 40u);
}

TEST(TargetChip, Sm100a) {
  const ChipInfo *chip = lookupChip("sm_100a");
  ASSERT_NE(chip, nullptr);
  EXPECT_EQ(chip->name, "sm_100a");
  EXPECT_EQ(chip->smemPerBlockOptIn, 232448u);
  EXPECT_EQ(chip->smemReserve, 1024u);
  EXPECT_EQ(chip->registerFile, 65536u);
  EXPECT_EQ(chip->maxRegistersPerThread, 255u);
  EXPECT_EQ(chip->setmaxnregGranularity, 8u);
  EXPECT_EQ(chip->setmaxnregMin, 24u);
  EXPECT_EQ(chip->setmaxnregMax, 256u);
  EXPECT_EQ(chip->threadsPerWarpgroup, 128u);
  EXPECT_EQ(chip->accumulatorRegisterBudget, 0u) << "accumulators in TMEM";
  EXPECT_EQ(chip->tensorMemoryColumns, 512u);
  EXPECT_EQ(chip->tensorMemoryLanes, 128u);
  EXPECT_EQ(chip->tensorMemoryColumns, tmemColumns);
  EXPECT_EQ(chip->tensorMemoryLanes, tmemLanes);
  EXPECT_EQ(chip->mmaRowsPerInstruction, 128u);
  EXPECT_EQ(chip->mmaMaxN, 256u);
  EXPECT_EQ(chip->mmaNMultiple, 16u);
  EXPECT_EQ(chip->maxClusterSize, 8u);
  EXPECT_EQ(chip->producerRegisters, 40u);
}

TEST(TargetChip, UnknownChips) {
  EXPECT_EQ(lookupChip("sm_90"), nullptr) << "no wgmma without the a suffix";
  EXPECT_EQ(lookupChip("sm_100"), nullptr);
  EXPECT_EQ(lookupChip("sm_80"), nullptr);
  EXPECT_EQ(lookupChip(""), nullptr);
  EXPECT_EQ(lookupChip("SM_90A"), nullptr);
  EXPECT_EQ(knownChipNames(), "sm_90a or sm_100a");
}

TEST(TargetChip, KnownNamesListEveryChip) {
  for (std::string_view name : {"sm_90a", "sm_100a"}) {
    const ChipInfo *chip = lookupChip(name);
    ASSERT_NE(chip, nullptr) << name;
    EXPECT_NE(knownChipNames().find(chip->name), std::string_view::npos);
  }
}

TEST(TargetChip, SetmaxnregLimitsAreConsistent) {
  for (std::string_view name : {"sm_90a", "sm_100a"}) {
    const ChipInfo &chip = *lookupChip(name);
    EXPECT_EQ(chip.setmaxnregMin % chip.setmaxnregGranularity, 0u) << name;
    EXPECT_EQ(chip.setmaxnregMax % chip.setmaxnregGranularity, 0u) << name;
    EXPECT_LE(chip.producerRegisters, chip.maxRegistersPerThread);
    EXPECT_GE(chip.producerRegisters, chip.setmaxnregMin);
    EXPECT_EQ(chip.producerRegisters % chip.setmaxnregGranularity, 0u);
    EXPECT_EQ(chip.smemPerBlockOptIn, 227u * 1024);
  }
}

TEST(TargetChip, ConsumerRegisters) {
  const ChipInfo &sm90 = *lookupChip("sm_90a");
  // (65536 - 128 * 40) / 128 = 472, capped: the `inc 240` that ran.
  EXPECT_EQ(warpSpecializedConsumerRegisters(sm90, 1, 1), 240u);
  // (65536 - 5120) / 256 = 236 -> 232: the 384-thread `inc 232` that ran.
  EXPECT_EQ(warpSpecializedConsumerRegisters(sm90, 1, 2), 232u);
  // (65536 - 5120) / 384 = 157 -> 152.
  EXPECT_EQ(warpSpecializedConsumerRegisters(sm90, 1, 3), 152u);
  // 640 threads launch with 65536 / 640 = 102 -> 96 each: (61440 - 5120) /
  // 512 = 110 -> 104 (112 would wait forever for registers no warp freed).
  EXPECT_EQ(warpSpecializedConsumerRegisters(sm90, 1, 4), 104u);
  // Attention's producer at 24 leaves 240 to two consumers: (64512 - 3072) /
  // 256. At 32, (64512 - 4096) / 256 = 236 -> 232: 32/240 hung on an H100.
  EXPECT_EQ(warpSpecializedConsumerRegisters(sm90, 1, 2, 24), 240u);
  EXPECT_EQ(warpSpecializedConsumerRegisters(sm90, 1, 2, 32), 232u);
  // (65536 - 10240) / 256 = 216.
  EXPECT_EQ(warpSpecializedConsumerRegisters(sm90, 2, 2), 216u);
  // sm_100a has the same register file and setmaxnreg rules.
  EXPECT_EQ(warpSpecializedConsumerRegisters(*lookupChip("sm_100a"), 1, 2),
            232u);
}

TEST(TargetChip, ConsumerRegistersFitTheRegisterFile) {
  const ChipInfo &chip = *lookupChip("sm_90a");
  for (unsigned producers = 0; producers <= 2; ++producers)
    for (unsigned consumers = 1; consumers <= 6; ++consumers) {
      unsigned regs =
          warpSpecializedConsumerRegisters(chip, producers, consumers);
      EXPECT_EQ(regs % chip.setmaxnregGranularity, 0u);
      EXPECT_LE(regs, chip.maxRegistersPerThread);
      EXPECT_LE(chip.threadsPerWarpgroup *
                    (producers * chip.producerRegisters + consumers * regs),
                chip.registerFile)
          << producers << " producers, " << consumers << " consumers";
    }
}

TEST(TargetChip, ConsumerRegistersWithoutConsumers) {
  const ChipInfo &chip = *lookupChip("sm_90a");
  EXPECT_EQ(warpSpecializedConsumerRegisters(chip, 1, 0), 0u);
  // 13 producer warpgroups at 40 registers take more than the whole file.
  EXPECT_EQ(warpSpecializedConsumerRegisters(chip, 13, 1), 0u);
}
