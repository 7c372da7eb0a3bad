//===- WgmmaFragmentTest.cpp - sm_90a register fragments, golden values ---===//
//
// The accumulator and A-fragment formulas ran exactly on an H200
// (sm90-hardware-check.md); the stmatrix lane addresses are the ones the
// H200 epilogue used. The coverage tests guard against an edit that keeps
// the goldens but drops or doubles an element.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/WgmmaFragment.h"
#include "compiler/Target/ElementType.h"
#include "compiler/Target/WgmmaDescriptor.h"

#include "gtest/gtest.h"

#include <array>
#include <iterator>
#include <ostream>
#include <vector>

namespace kiln::target {
/// Lets gtest print a coordinate that fails to match.
void PrintTo(FragmentCoord coord, std::ostream *os) {
  *os << "(" << coord.row << ", " << coord.col << ")";
}
} // namespace kiln::target

using namespace kiln::target;

namespace {

constexpr unsigned warpgroupThreads = 128;

FragmentCoord coord(unsigned row, unsigned col) { return {row, col}; }

unsigned f32Registers(unsigned n) {
  ValueOrError<unsigned> regs = wgmmaAccumulatorRegisters(ElementType::F32, n);
  EXPECT_TRUE(regs) << regs.error();
  return regs ? *regs : 0;
}

} // namespace

//===----------------------------------------------------------------------===//
// Accumulator
//===----------------------------------------------------------------------===//

TEST(TargetWgmmaFragment, AccumulatorGoldens) {
  EXPECT_EQ(wgmmaAccumulatorCoord(0, 0), coord(0, 0));
  EXPECT_EQ(wgmmaAccumulatorCoord(0, 1), coord(0, 1));
  EXPECT_EQ(wgmmaAccumulatorCoord(0, 2), coord(8, 0));
  EXPECT_EQ(wgmmaAccumulatorCoord(0, 3), coord(8, 1));
  EXPECT_EQ(wgmmaAccumulatorCoord(0, 4), coord(0, 8));
  EXPECT_EQ(wgmmaAccumulatorCoord(1, 0), coord(0, 2));
  EXPECT_EQ(wgmmaAccumulatorCoord(4, 0), coord(1, 0));
  EXPECT_EQ(wgmmaAccumulatorCoord(5, 0), coord(1, 2));
  // w = 1, l = 5: row 16 + 1 + 8, column 2 * 1 + 1.
  EXPECT_EQ(wgmmaAccumulatorCoord(37, 3), coord(25, 3));
  // w = 2, l = 14: row 32 + 3, column 8 * 2 + 2 * 2.
  EXPECT_EQ(wgmmaAccumulatorCoord(78, 9), coord(35, 21));
  // The last element of m64n256: w = 3, l = 31, reg 127.
  EXPECT_EQ(wgmmaAccumulatorCoord(127, 127), coord(63, 255));
  // A second consumer warpgroup's threads map onto their own 64 rows.
  EXPECT_EQ(wgmmaAccumulatorCoord(128 + 37, 3), coord(25, 3));
}

TEST(TargetWgmmaFragment, AccumulatorRegisterCounts) {
  EXPECT_EQ(f32Registers(8), 4u);
  EXPECT_EQ(f32Registers(64), 32u);
  EXPECT_EQ(f32Registers(128), 64u);
  EXPECT_EQ(f32Registers(256), 128u);
}

TEST(TargetWgmmaFragment, AccumulatorCoversTheTileOnce) {
  for (unsigned n : {8u, 16u, 64u, 128u, 256u}) {
    unsigned regs = f32Registers(n);
    ASSERT_EQ(regs, n / 2);
    std::vector<unsigned> seen(64 * n, 0);
    for (unsigned t = 0; t < warpgroupThreads; ++t)
      for (unsigned reg = 0; reg < regs; ++reg) {
        FragmentCoord c = wgmmaAccumulatorCoord(t, reg);
        ASSERT_LT(c.row, 64u) << "thread " << t << " reg " << reg;
        ASSERT_LT(c.col, n) << "thread " << t << " reg " << reg;
        ++seen[c.row * n + c.col];
      }
    for (unsigned i = 0; i < 64 * n; ++i)
      EXPECT_EQ(seen[i], 1u)
          << "N " << n << " row " << i / n << " col " << i % n;
  }
}

TEST(TargetWgmmaFragment, AccumulatorRegisterIsTheInverse) {
  for (unsigned t = 0; t < warpgroupThreads; ++t)
    for (unsigned reg = 0; reg < 128; ++reg) {
      unsigned half = (reg / 2) % 2, block = reg / 4, e = reg % 2;
      ASSERT_EQ(wgmmaAccumulatorRegister(half, block, e), reg);
      FragmentCoord c = wgmmaAccumulatorCoord(t, reg);
      EXPECT_EQ(c.row, wgmmaAccumulatorRows(t)[half]) << t << " " << reg;
      EXPECT_EQ(c.col, wgmmaAccumulatorColumn(t, block, e)) << t << " " << reg;
    }
  EXPECT_EQ(wgmmaAccumulatorRegister(1, 0, 0), 2u);
  EXPECT_EQ(wgmmaAccumulatorRegister(0, 3, 1), 13u);
}

TEST(TargetWgmmaFragment, RowsAndColumns) {
  EXPECT_EQ(wgmmaAccumulatorRows(0), (std::array<unsigned, 2>{0, 8}));
  EXPECT_EQ(wgmmaAccumulatorRows(37), (std::array<unsigned, 2>{17, 25}));
  EXPECT_EQ(wgmmaAccumulatorRows(127), (std::array<unsigned, 2>{55, 63}));
  EXPECT_EQ(wgmmaAccumulatorColumn(0, 0, 0), 0u);
  EXPECT_EQ(wgmmaAccumulatorColumn(37, 0, 1), 3u);
  EXPECT_EQ(wgmmaAccumulatorColumn(31, 31, 1), 255u);
}

TEST(TargetWgmmaFragment, QuadShufflesFinishRowReductions) {
  EXPECT_EQ(std::size(wgmmaRowReductionShuffleMasks), 2u);
  EXPECT_EQ(wgmmaRowReductionShuffleMasks[0], 1u);
  EXPECT_EQ(wgmmaRowReductionShuffleMasks[1], 2u);
  constexpr unsigned n = 256;
  for (unsigned t = 0; t < warpgroupThreads; ++t) {
    // Every shuffle partner holds the same rows ...
    for (unsigned mask : wgmmaRowReductionShuffleMasks)
      EXPECT_EQ(wgmmaAccumulatorRows(t ^ mask), wgmmaAccumulatorRows(t)) << t;
    // ... and the lanes the butterfly reaches hold each column of them once.
    for (unsigned half = 0; half < 2; ++half) {
      std::vector<unsigned> seen(n, 0);
      for (unsigned partner = 0; partner < 4; ++partner) {
        unsigned other = t ^ partner;
        for (unsigned block = 0; block < n / 8; ++block)
          for (unsigned e = 0; e < 2; ++e) {
            FragmentCoord c = wgmmaAccumulatorCoord(
                other, wgmmaAccumulatorRegister(half, block, e));
            EXPECT_EQ(c.row, wgmmaAccumulatorRows(t)[half]);
            ++seen[c.col];
          }
      }
      for (unsigned col = 0; col < n; ++col)
        EXPECT_EQ(seen[col], 1u) << "thread " << t << " col " << col;
    }
  }
  // Lanes outside the quad hold other rows.
  EXPECT_NE(wgmmaAccumulatorRows(4), wgmmaAccumulatorRows(0));
}

TEST(TargetWgmmaFragment, RowAndColumnVectorRegisters) {
  // The registers a row or column vector lowers to hold exactly the rows
  // and columns of the accumulator registers they are read with.
  EXPECT_EQ(wgmmaRowVectorRegister(0), 0u);
  EXPECT_EQ(wgmmaRowVectorRegister(2), 1u);
  EXPECT_EQ(wgmmaRowVectorRegister(5), 0u);
  EXPECT_EQ(wgmmaColumnVectorRegister(0), 0u);
  EXPECT_EQ(wgmmaColumnVectorRegister(3), 1u);
  EXPECT_EQ(wgmmaColumnVectorRegister(6), 2u);
  for (unsigned t = 0; t < warpgroupThreads; ++t)
    for (unsigned reg = 0; reg < 256 / 2; ++reg) {
      FragmentCoord c = wgmmaAccumulatorCoord(t, reg);
      EXPECT_EQ(wgmmaAccumulatorRows(t)[wgmmaRowVectorRegister(reg)], c.row);
      unsigned col = wgmmaColumnVectorRegister(reg);
      EXPECT_EQ(wgmmaAccumulatorColumn(t, col / 2, col % 2), c.col);
    }
}

TEST(TargetWgmmaFragment, AccumulatorTileIsTheAOperandOfItsKSteps) {
  // cta.convert: a 64 x C accumulator is, register for register, the A
  // operand of the C/16 k-steps of m64nNk16 (register 4j + q of the A
  // fragment packs accumulator registers 8j + 2q and 8j + 2q + 1) for
  // every C wgmma accepts, so rounding it into the lhs layout moves no
  // data between threads.
  for (unsigned cols = 16; cols <= 256; cols += 16)
    for (unsigned t = 0; t < warpgroupThreads; ++t)
      for (unsigned kStep = 0; kStep < cols / 16; ++kStep)
        for (unsigned q = 0; q < wgmmaARegistersPerKStep; ++q)
          for (unsigned e = 0; e < 2; ++e) {
            unsigned reg = accumulatorRegisterForA(kStep, q, e);
            ASSERT_LT(reg, cols / 2);
            EXPECT_EQ(reg, wgmmaARegistersPerKStep * kStep * 2 + 2 * q + e);
            EXPECT_EQ(wgmmaAFragmentCoord(t, kStep, q, e),
                      wgmmaAccumulatorCoord(t, reg));
          }
}

//===----------------------------------------------------------------------===//
// A operand (RS wgmma, 16-bit)
//===----------------------------------------------------------------------===//

TEST(TargetWgmmaFragment, AFragmentGoldens) {
  // Thread 0: {A[0][0..1]}, {A[8][0..1]}, {A[0][8..9]}, {A[8][8..9]}.
  EXPECT_EQ(wgmmaAFragmentCoord(0, 0, 0, 0), coord(0, 0));
  EXPECT_EQ(wgmmaAFragmentCoord(0, 0, 0, 1), coord(0, 1));
  EXPECT_EQ(wgmmaAFragmentCoord(0, 0, 1, 0), coord(8, 0));
  EXPECT_EQ(wgmmaAFragmentCoord(0, 0, 2, 0), coord(0, 8));
  EXPECT_EQ(wgmmaAFragmentCoord(0, 0, 3, 1), coord(8, 9));
  // w = 1, l = 5, k-step 2 (K columns 32..47): row 16 + 1 + 8,
  // column 32 + 2 + 8 + 1.
  EXPECT_EQ(wgmmaAFragmentCoord(37, 2, 3, 1), coord(25, 43));
  EXPECT_EQ(wgmmaAFragmentCoord(127, 3, 3, 1), coord(63, 63));
  EXPECT_EQ(wgmmaARegistersPerKStep, 4u);
}

TEST(TargetWgmmaFragment, AFragmentCoversEachKStepOnce) {
  for (unsigned kStep = 0; kStep < 4; ++kStep) {
    std::vector<unsigned> seen(64 * 16, 0);
    for (unsigned t = 0; t < warpgroupThreads; ++t)
      for (unsigned q = 0; q < wgmmaARegistersPerKStep; ++q)
        for (unsigned e = 0; e < 2; ++e) {
          FragmentCoord c = wgmmaAFragmentCoord(t, kStep, q, e);
          ASSERT_LT(c.row, 64u);
          ASSERT_GE(c.col, 16 * kStep);
          ASSERT_LT(c.col, 16 * kStep + 16);
          ++seen[c.row * 16 + c.col - 16 * kStep];
        }
    for (unsigned i = 0; i < 64 * 16; ++i)
      EXPECT_EQ(seen[i], 1u) << "k-step " << kStep << " element " << i;
  }
}

TEST(TargetWgmmaFragment, AccumulatorBecomesAWithoutShuffles) {
  // The invariant the lowering of P @ V relies on: the accumulator register
  // packed into A register q holds the very element A register q needs.
  EXPECT_EQ(accumulatorRegisterForA(0, 0, 0), 0u);
  EXPECT_EQ(accumulatorRegisterForA(0, 1, 1), 3u);
  EXPECT_EQ(accumulatorRegisterForA(1, 2, 0), 12u);
  EXPECT_EQ(accumulatorRegisterForA(15, 3, 1), 127u);
  for (unsigned t = 0; t < warpgroupThreads; ++t)
    for (unsigned kStep = 0; kStep < 256 / 16; ++kStep)
      for (unsigned q = 0; q < wgmmaARegistersPerKStep; ++q)
        for (unsigned e = 0; e < 2; ++e)
          EXPECT_EQ(
              wgmmaAFragmentCoord(t, kStep, q, e),
              wgmmaAccumulatorCoord(t, accumulatorRegisterForA(kStep, q, e)))
              << "thread " << t << " k-step " << kStep << " q " << q << " e "
              << e;
}

//===----------------------------------------------------------------------===//
// stmatrix.x4
//===----------------------------------------------------------------------===//

TEST(TargetWgmmaFragment, StmatrixLaneAddressGoldens) {
  EXPECT_EQ(stmatrixX4LaneAddress(0), coord(0, 0));
  EXPECT_EQ(stmatrixX4LaneAddress(7), coord(7, 0));
  EXPECT_EQ(stmatrixX4LaneAddress(8), coord(8, 0));
  EXPECT_EQ(stmatrixX4LaneAddress(15), coord(15, 0));
  EXPECT_EQ(stmatrixX4LaneAddress(16), coord(0, 8));
  EXPECT_EQ(stmatrixX4LaneAddress(21), coord(5, 8));
  EXPECT_EQ(stmatrixX4LaneAddress(24), coord(8, 8));
  EXPECT_EQ(stmatrixX4LaneAddress(31), coord(15, 8));
  // Lanes are taken within their warp.
  EXPECT_EQ(stmatrixX4LaneAddress(32 + 21), coord(5, 8));
}

TEST(TargetWgmmaFragment, StmatrixAddressesEachMatrixRowOnce) {
  // Four 8 x 8 matrices of a 16 x 16 block, 8 rows each: 32 row addresses.
  unsigned seen[16][2] = {};
  for (unsigned lane = 0; lane < 32; ++lane) {
    FragmentCoord c = stmatrixX4LaneAddress(lane);
    ASSERT_LT(c.row, 16u);
    ASSERT_TRUE(c.col == 0 || c.col == 8) << "lane " << lane;
    ++seen[c.row][c.col / 8];
    // Lanes 8q..8q+7 address the rows of matrix q, in order.
    unsigned q = lane / 8;
    EXPECT_EQ(c, coord(8 * (q % 2) + lane % 8, 8 * (q / 2))) << lane;
  }
  for (unsigned row = 0; row < 16; ++row)
    for (unsigned half = 0; half < 2; ++half)
      EXPECT_EQ(seen[row][half], 1u) << "row " << row << " half " << half;
}

TEST(TargetWgmmaFragment, StmatrixStoresEachAccumulatorWhereItBelongs) {
  // In each m8n8 matrix, lane l's register holds row l/4, columns
  // 2 * (l%4) + {0, 1} (PTX ISA), and lane 8q addresses row 0 of matrix q.
  // Storing register pairs chosen by stmatrixX4AccumulatorRegister() must
  // put every accumulator element at its own position in the warp's
  // 16 rows.
  constexpr unsigned n = 256;
  for (unsigned t = 0; t < warpgroupThreads; ++t) {
    unsigned warp = t / 32, lane = t % 32;
    for (unsigned block = 0; block < n / 16; ++block)
      for (unsigned q = 0; q < 4; ++q)
        for (unsigned e = 0; e < 2; ++e) {
          FragmentCoord origin = stmatrixX4LaneAddress(8 * q);
          FragmentCoord stored{16 * warp + origin.row + lane / 4,
                               16 * block + origin.col + 2 * (lane % 4) + e};
          unsigned reg = stmatrixX4AccumulatorRegister(block, q, e);
          ASSERT_LT(reg, n / 2);
          EXPECT_EQ(wgmmaAccumulatorCoord(t, reg), stored)
              << "thread " << t << " block " << block << " q " << q << " e "
              << e;
        }
  }
  // Register q of the block at column 8j (j even) packs d[4j + 2q] and
  // d[4j + 2q + 1] (sm90-hardware-check.md, epilogue).
  EXPECT_EQ(stmatrixX4AccumulatorRegister(0, 0, 0), 0u);
  EXPECT_EQ(stmatrixX4AccumulatorRegister(0, 3, 1), 7u);
  EXPECT_EQ(stmatrixX4AccumulatorRegister(3, 1, 0), 4u * 6 + 2);
}

// The thread maps the lowering evaluates in IR are the fragments' thread
// parts: register 0's coordinate, and the stmatrix address plus the warp's
// first row, for every thread of a warpgroup (and the next one's, modulo).
TEST(TargetWgmmaFragment, ThreadMapsAreTheFragmentsThreadParts) {
  for (unsigned t = 0; t < 256; ++t) {
    EXPECT_EQ(wgmmaQuadRow(t), wgmmaAccumulatorCoord(t, 0).row) << t;
    EXPECT_EQ(wgmmaPairColumn(t), wgmmaAccumulatorCoord(t, 0).col) << t;
    FragmentCoord st = stmatrixX4LaneAddress(t);
    EXPECT_EQ(stmatrixX4Row(t), 16 * ((t % 128) / 32) + st.row) << t;
    EXPECT_EQ(stmatrixX4Column(t), st.col) << t;
  }
}
