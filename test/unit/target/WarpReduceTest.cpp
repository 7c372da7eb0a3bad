//===- WarpReduceTest.cpp - the reduce-scatter rule, run lane by lane -----===//
//
// The lowering emits target::reduceScatterFirst's rule with the lane in a
// register; here the same exchange runs on 32 simulated lanes of integers
// and is compared with plain sums, for both chips' column-reduction masks:
// every lane must end with the sums of the positions the rule names, and
// the lanes of one group must together name each position once. With the
// fragment maps, that makes each column of a warp's rows written once.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/WarpReduce.h"
#include "compiler/Target/Chip.h"
#include "compiler/Target/TensorMemory.h"
#include "compiler/Target/WgmmaFragment.h"

#include "gtest/gtest.h"

#include <iterator>
#include <vector>

using namespace kiln::target;

namespace {

constexpr unsigned kLanes = threadsPerWarp;
constexpr unsigned kWarpgroupThreads = threadsPerWarp * warpsPerWarpgroup;

/// Each lane's values after the reduce-scatter (addition) over `masks`,
/// the exchange exactly as the lowering emits it.
std::vector<std::vector<long>>
simulate(std::vector<std::vector<long>> lanes, const unsigned *masks,
         size_t n) {
  for (size_t i = 0; i < n; ++i) {
    unsigned mask = masks[i];
    std::vector<std::vector<long>> next(kLanes);
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      const std::vector<long> &mine = lanes[lane];
      const std::vector<long> &other = lanes[lane ^ mask];
      size_t half = mine.size() / 2;
      bool upper = lane & mask;
      for (size_t j = 0; j < half; ++j) {
        long keep = upper ? mine[half + j] : mine[j];
        // The partner's bit is the opposite, so it sends what we keep.
        long got = upper ? other[half + j] : other[j];
        next[lane].push_back(keep + got);
      }
    }
    lanes = std::move(next);
  }
  return lanes;
}

/// The lanes that differ from `lane` only in the bits of `masks`.
std::vector<unsigned> group(unsigned lane, const unsigned *masks, size_t n) {
  unsigned bits = 0;
  for (size_t i = 0; i < n; ++i)
    bits |= masks[i];
  std::vector<unsigned> members;
  for (unsigned other = 0; other < kLanes; ++other)
    if ((other & ~bits) == (lane & ~bits))
      members.push_back(other);
  return members;
}

void checkReduceScatter(const unsigned *masks, size_t n, unsigned count) {
  std::vector<std::vector<long>> lanes(kLanes);
  for (unsigned lane = 0; lane < kLanes; ++lane)
    for (unsigned k = 0; k < count; ++k)
      lanes[lane].push_back(1000L * lane + 7L * k * k + 3);
  std::vector<std::vector<long>> after = simulate(lanes, masks, n);
  unsigned kept = count >> n;
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    ASSERT_EQ(after[lane].size(), kept);
    unsigned first = reduceScatterFirst(lane, masks, n, count);
    std::vector<unsigned> members = group(lane, masks, n);
    ASSERT_EQ(members.size(), 1u << n);
    for (unsigned j = 0; j < kept; ++j) {
      long expected = 0;
      for (unsigned member : members)
        expected += lanes[member][first + j];
      EXPECT_EQ(after[lane][j], expected)
          << "lane " << lane << " position " << first + j;
    }
    // The group's lanes name every position once.
    std::vector<unsigned> named(count, 0);
    for (unsigned member : members)
      for (unsigned j = 0; j < kept; ++j)
        ++named[reduceScatterFirst(member, masks, n, count) + j];
    for (unsigned k = 0; k < count; ++k)
      EXPECT_EQ(named[k], 1u) << "lane " << lane << " position " << k;
  }
}

TEST(TargetWarpReduce, FirstPositionGoldens) {
  const unsigned *masks = wgmmaColumnReductionShuffleMasks;
  // Bits 4, 3, 2 of the lane pick halves, quarters, eighths.
  EXPECT_EQ(reduceScatterFirst(0, masks, 3, 64), 0u);
  EXPECT_EQ(reduceScatterFirst(16, masks, 3, 64), 32u);
  EXPECT_EQ(reduceScatterFirst(4, masks, 3, 64), 8u);
  EXPECT_EQ(reduceScatterFirst(31, masks, 3, 64), 56u);
  EXPECT_EQ(reduceScatterFirst(3, masks, 3, 64), 0u);
  // All five bits: lane l ends with position l of 32.
  for (unsigned lane = 0; lane < kLanes; ++lane)
    EXPECT_EQ(reduceScatterFirst(lane, tmemColumnReductionShuffleMasks, 5, 32),
              lane);
}

TEST(TargetWarpReduce, WgmmaColumnSlotsReduceScatter) {
  // C/4 slots of a C-column accumulator, padded to a multiple of 16.
  for (unsigned count : {16u, 32u, 48u, 64u})
    checkReduceScatter(wgmmaColumnReductionShuffleMasks,
                       std::size(wgmmaColumnReductionShuffleMasks), count);
}

TEST(TargetWarpReduce, TensorMemoryChunksReduceScatter) {
  checkReduceScatter(tmemColumnReductionShuffleMasks,
                     std::size(tmemColumnReductionShuffleMasks), 32);
}

TEST(TargetWarpReduce, WgmmaMasksJoinTheLanesOfOneColumn) {
  // Lanes joined by the masks hold the same columns, in the same slots ...
  for (unsigned t = 0; t < kWarpgroupThreads; ++t)
    for (unsigned mask : wgmmaColumnReductionShuffleMasks)
      for (unsigned block = 0; block < 32; ++block)
        for (unsigned e = 0; e < 2; ++e)
          EXPECT_EQ(wgmmaAccumulatorColumn(t ^ mask, block, e),
                    wgmmaAccumulatorColumn(t, block, e));
  // ... and together every row of their warp's 16, once.
  for (unsigned t = 0; t < kWarpgroupThreads; ++t) {
    std::vector<unsigned> rows(wgmmaRows, 0);
    for (unsigned member :
         group(t % kLanes, wgmmaColumnReductionShuffleMasks,
               std::size(wgmmaColumnReductionShuffleMasks)))
      for (unsigned row : wgmmaAccumulatorRows(t - t % kLanes + member))
        ++rows[row];
    unsigned warpRow0 = 16 * (t / kLanes);
    for (unsigned row = 0; row < wgmmaRows; ++row)
      EXPECT_EQ(rows[row], row >= warpRow0 && row < warpRow0 + 16 ? 1u : 0u)
          << "thread " << t << " row " << row;
  }
}

TEST(TargetWarpReduce, WgmmaColumnReductionWritesEachColumnOnce) {
  // The sm_90a lowering of cta.combine_cols on a 64 x C tile, lane by lane:
  // fold each thread's registers per column slot, reduce-scatter the slots
  // (padded to a multiple of 16), write slot first + j at column
  // 8 * (first / 2) + wgmmaAccumulatorColumn(0, j / 2, j % 2) past the
  // thread's pair column. Each warp must write each column once, with the
  // sum of its 16 rows.
  const unsigned *masks = wgmmaColumnReductionShuffleMasks;
  size_t n = std::size(wgmmaColumnReductionShuffleMasks);
  auto element = [](unsigned row, unsigned col) -> long {
    return 100000L * row + 17L * col + 1;
  };
  for (unsigned columns : {16u, 32u, 48u, 96u, 256u}) {
    unsigned slots = columns / 4;
    unsigned padded = (slots + 15) / 16 * 16;
    for (unsigned warp = 0; warp < warpsPerWarpgroup; ++warp) {
      std::vector<std::vector<long>> lanes(kLanes,
                                           std::vector<long>(padded, 0));
      for (unsigned lane = 0; lane < kLanes; ++lane) {
        unsigned t = warp * kLanes + lane;
        for (unsigned reg = 0; reg < columns / 2; ++reg) {
          FragmentCoord c = wgmmaAccumulatorCoord(t, reg);
          lanes[lane][wgmmaColumnVectorRegister(reg)] += element(c.row, c.col);
        }
      }
      std::vector<std::vector<long>> after = simulate(lanes, masks, n);
      std::vector<long> written(columns, 0);
      std::vector<unsigned> writes(columns, 0);
      for (unsigned lane = 0; lane < kLanes; ++lane) {
        unsigned first = reduceScatterFirst(lane, masks, n, padded);
        ASSERT_EQ(first % 2, 0u);
        unsigned base = wgmmaAccumulatorColumn(warp * kLanes + lane, 0, 0) +
                        wgmmaAccumulatorColumn(0, 1, 0) * (first / 2);
        for (unsigned j = 0; j < after[lane].size(); ++j) {
          if (first + j >= slots)
            continue; // padding
          unsigned col = base + wgmmaAccumulatorColumn(0, j / 2, j % 2);
          ASSERT_LT(col, columns);
          written[col] += after[lane][j];
          ++writes[col];
        }
      }
      for (unsigned col = 0; col < columns; ++col) {
        long expected = 0;
        for (unsigned row = 16 * warp; row < 16 * warp + 16; ++row)
          expected += element(row, col);
        EXPECT_EQ(writes[col], 1u) << columns << " columns, col " << col;
        EXPECT_EQ(written[col], expected) << columns << " columns, col " << col;
      }
    }
  }
}

} // namespace
