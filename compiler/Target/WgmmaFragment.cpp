//===- WgmmaFragment.cpp - sm_90a wgmma register fragments ----------------===//

#include "compiler/Target/WgmmaFragment.h"

namespace kiln::target {

namespace {

/// First row of `thread`'s quad: 16 rows per warp, 8 quads per warp.
unsigned quadRow(unsigned thread) {
  unsigned warp = (thread % 128) / 32, lane = thread % 32;
  return 16 * warp + lane / 4;
}

/// First column of `thread`'s pair inside every 8-column block.
unsigned pairColumn(unsigned thread) { return 2 * (thread % 4); }

} // namespace

FragmentCoord wgmmaAccumulatorCoord(unsigned thread, unsigned reg) {
  return {quadRow(thread) + 8 * ((reg / 2) % 2),
          8 * (reg / 4) + pairColumn(thread) + reg % 2};
}

unsigned wgmmaAccumulatorRegister(unsigned rowHalf, unsigned columnBlock,
                                  unsigned e) {
  return 4 * columnBlock + 2 * rowHalf + e;
}

std::array<unsigned, 2> wgmmaAccumulatorRows(unsigned thread) {
  return {quadRow(thread), quadRow(thread) + 8};
}

unsigned wgmmaAccumulatorColumn(unsigned thread, unsigned columnBlock,
                                unsigned e) {
  return 8 * columnBlock + pairColumn(thread) + e;
}

FragmentCoord wgmmaAFragmentCoord(unsigned thread, unsigned kStep, unsigned q,
                                  unsigned e) {
  return {quadRow(thread) + 8 * (q % 2),
          16 * kStep + pairColumn(thread) + 8 * (q / 2) + e};
}

unsigned accumulatorRegisterForA(unsigned kStep, unsigned q, unsigned e) {
  return 8 * kStep + 2 * q + e;
}

FragmentCoord stmatrixX4LaneAddress(unsigned lane) {
  lane %= 32;
  return {8 * ((lane / 8) % 2) + lane % 8, 8 * (lane / 16)};
}

unsigned stmatrixX4AccumulatorRegister(unsigned columnBlock16, unsigned q,
                                       unsigned e) {
  return accumulatorRegisterForA(columnBlock16, q, e);
}

} // namespace kiln::target
