//===- Chip.cpp - The limits of each target chip --------------------------===//

#include "compiler/Target/Chip.h"
#include "compiler/Target/Swizzle.h"
#include "compiler/Target/TensorMemory.h"
#include "compiler/Target/WgmmaFragment.h"

#include <algorithm>

namespace kiln::target {

namespace {

constexpr ChipInfo sm90a{
    /*id=*/Chip::Sm90a,
    /*name=*/"sm_90a",
    /*smemPerBlockOptIn=*/232448,
    /*smemReserve=*/swizzleAtomAlignment,
    /*l2Bytes=*/50u << 20,
    /*registerFile=*/65536,
    /*maxRegistersPerThread=*/255,
    /*setmaxnregGranularity=*/setmaxnregStep,
    /*setmaxnregMin=*/setmaxnregLowest,
    /*setmaxnregMax=*/setmaxnregHighest,
    /*threadsPerWarpgroup=*/warpsPerWarpgroup * threadsPerWarp,
    /*accumulatorRegisterBudget=*/168,
    /*tensorMemoryColumns=*/0,
    /*tensorMemoryLanes=*/0,
    /*mmaRowsPerInstruction=*/wgmmaRows,
    /*mmaMaxN=*/256,
    /*mmaNMultiple=*/8,
    /*maxClusterSize=*/8,
    /*producerRegisters=*/40,
    /*blockScaledMma=*/false,
    /*tileVariants=*/true,
    /*streamK=*/true,
    /*mma=*/MmaFamily::Wgmma,
};

constexpr ChipInfo sm100a{
    /*id=*/Chip::Sm100a,
    /*name=*/"sm_100a",
    /*smemPerBlockOptIn=*/232448,
    /*smemReserve=*/swizzleAtomAlignment,
    /*l2Bytes=*/50u << 20,
    /*registerFile=*/65536,
    /*maxRegistersPerThread=*/255,
    /*setmaxnregGranularity=*/setmaxnregStep,
    /*setmaxnregMin=*/setmaxnregLowest,
    /*setmaxnregMax=*/setmaxnregHighest,
    /*threadsPerWarpgroup=*/warpsPerWarpgroup * threadsPerWarp,
    /*accumulatorRegisterBudget=*/0,
    /*tensorMemoryColumns=*/tmemColumns,
    /*tensorMemoryLanes=*/tmemLanes,
    /*mmaRowsPerInstruction=*/128,
    /*mmaMaxN=*/256,
    /*mmaNMultiple=*/16,
    /*maxClusterSize=*/8,
    /*producerRegisters=*/40,
    /*blockScaledMma=*/true,
    /*tileVariants=*/false,
    /*streamK=*/false,
    /*mma=*/MmaFamily::Tcgen05,
};

constexpr const ChipInfo *chips[] = {&sm90a, &sm100a};

/// `setmaxnreg.inc 240` ran on the H200 with one consumer warpgroup;
/// nothing higher has.
constexpr unsigned consumerRegisterCap = 240;

} // namespace

const ChipInfo *lookupChip(std::string_view name) {
  for (const ChipInfo *chip : chips)
    if (chip->name == name)
      return chip;
  return nullptr;
}

const ChipInfo &getChipInfo(Chip chip) {
  return chip == Chip::Sm90a ? sm90a : sm100a;
}

std::optional<Chip> parseChip(std::string_view name) {
  if (const ChipInfo *info = lookupChip(name))
    return info->id;
  return std::nullopt;
}

std::string_view chipName(Chip chip) { return getChipInfo(chip).name; }

unsigned largestSmemPerBlockOptIn() {
  unsigned largest = 0;
  for (const ChipInfo *chip : chips)
    largest = std::max(largest, chip->smemPerBlockOptIn);
  return largest;
}

std::string_view knownChipNames() { return "sm_90a or sm_100a"; }

unsigned warpSpecializedConsumerRegisters(const ChipInfo &chip,
                                          unsigned producerWarpgroups,
                                          unsigned consumerWarpgroups) {
  return warpSpecializedConsumerRegisters(
      chip, producerWarpgroups, consumerWarpgroups, chip.producerRegisters);
}

unsigned warpSpecializedConsumerRegisters(const ChipInfo &chip,
                                          unsigned producerWarpgroups,
                                          unsigned consumerWarpgroups,
                                          unsigned producerRegisters) {
  // setmaxnreg moves registers within what the CTA was launched with: each
  // thread's launch count (the register file over the threads, at most the
  // per-thread maximum, rounded down to the allocation granularity) times the
  // threads. An `inc` beyond what the `dec`s freed waits forever (24/240 and
  // 40/232 fit 384 threads' 168 each; 32/240 hangs).
  unsigned threads =
      chip.threadsPerWarpgroup * (producerWarpgroups + consumerWarpgroups);
  if (consumerWarpgroups == 0 || threads == 0)
    return 0;
  unsigned launch = std::min(chip.registerFile / threads,
                             chip.maxRegistersPerThread);
  launch -= launch % chip.setmaxnregGranularity;
  unsigned pool = launch * threads;
  unsigned producerShare =
      chip.threadsPerWarpgroup * producerWarpgroups * producerRegisters;
  if (producerShare >= pool)
    return 0;
  unsigned perThread = (pool - producerShare) /
                       (chip.threadsPerWarpgroup * consumerWarpgroups);
  perThread -= perThread % chip.setmaxnregGranularity;
  return std::min(perThread, consumerRegisterCap);
}

} // namespace kiln::target
