//===- WgmmaFragment.cpp - sm_90a wgmma register fragments ----------------===//

#include "compiler/Target/WgmmaFragment.h"

namespace kiln::target {

FragmentCoord wgmmaAccumulatorCoord(unsigned thread, unsigned reg) {
  return {wgmmaQuadRow(thread) + 8 * ((reg / 2) % 2),
          8 * (reg / 4) + wgmmaPairColumn(thread) + reg % 2};
}

unsigned wgmmaAccumulatorRegister(unsigned rowHalf, unsigned columnBlock,
                                  unsigned e) {
  return 4 * columnBlock + 2 * rowHalf + e;
}

std::array<unsigned, 2> wgmmaAccumulatorRows(unsigned thread) {
  return {wgmmaQuadRow(thread), wgmmaQuadRow(thread) + 8};
}

unsigned wgmmaAccumulatorColumn(unsigned thread, unsigned columnBlock,
                                unsigned e) {
  return 8 * columnBlock + wgmmaPairColumn(thread) + e;
}

unsigned wgmmaRowVectorRegister(unsigned reg) { return (reg / 2) % 2; }

unsigned wgmmaColumnVectorRegister(unsigned reg) {
  return 2 * (reg / 4) + reg % 2;
}

FragmentCoord wgmmaAFragmentCoord(unsigned thread, unsigned kStep, unsigned q,
                                  unsigned e) {
  return {wgmmaQuadRow(thread) + 8 * (q % 2),
          16 * kStep + wgmmaPairColumn(thread) + 8 * (q / 2) + e};
}

unsigned accumulatorRegisterForA(unsigned kStep, unsigned q, unsigned e) {
  return 8 * kStep + 2 * q + e;
}

FragmentCoord stmatrixX4LaneAddress(unsigned lane) {
  lane %= 32; // the warp's own rows: stmatrixX4Row's warp term is 0
  return {stmatrixX4Row(lane), stmatrixX4Column(lane)};
}

unsigned stmatrixX4AccumulatorRegister(unsigned columnBlock16, unsigned q,
                                       unsigned e) {
  return accumulatorRegisterForA(columnBlock16, q, e);
}

} // namespace kiln::target
