//===- WarpReduce.h - reductions across the lanes of a warp -----*- C++ -*-===//
//
// A column reduction of a register tile combines values that different
// lanes of a warp hold (sm_90a: the eight lanes of equal l%4 hold the same
// columns of different rows; sm_100a: the 32 lanes hold 32 rows of the same
// columns). A butterfly all-reduce of each of C columns costs C shuffles per
// mask; a reduce-scatter halves the values each lane carries at every mask,
// so C values over 2^n lanes cost C - C / 2^n shuffles and leave every lane
// with distinct columns to write. The lowering emits this rule with the
// lane in a register; the unit test runs it lane by lane against a plain
// sum, so the index arithmetic lives in one place.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_WARPREDUCE_H
#define KILN_COMPILER_TARGET_WARPREDUCE_H

#include <cstddef>

namespace kiln::target {

/// A reduce-scatter of `count` values per lane over the lanes that differ
/// in the bits `masks[0..n)` (one xor-shuffle, shfl.sync.bfly, per value
/// sent): at each mask in order, a lane whose bit is set keeps the upper
/// half of the values it carries and sends the lower half, a lane whose bit
/// is clear the reverse, and each combines what it keeps with what it
/// receives at the same position. `count` must be a multiple of 2^n. After
/// the last mask a lane carries count / 2^n values: position j is the
/// combination over those 2^n lanes of the values each started with at
/// position first + j, where `first` is returned here.
constexpr unsigned reduceScatterFirst(unsigned lane, const unsigned *masks,
                                      std::size_t n, unsigned count) {
  unsigned first = 0;
  for (std::size_t i = 0; i < n; ++i) {
    count /= 2;
    if (lane & masks[i])
      first += count;
  }
  return first;
}

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_WARPREDUCE_H
