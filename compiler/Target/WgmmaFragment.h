//===- WgmmaFragment.h - sm_90a wgmma register fragments --------*- C++ -*-===//
//
// Which element of a tile each register of each thread holds, for the
// register operands of wgmma.mma_async: the accumulator (D) of m64nN with
// 32-bit elements (f32; i32 has the same layout in the PTX ISA), the A
// operand of an RS wgmma m64nNk16 with 16-bit elements, and the stmatrix.x4
// stores the epilogue writes them out with.
// A wrong index here still compiles and runs, it just computes the wrong
// tile, so the maps live in one place with golden-value tests. The
// accumulator and A maps ran exactly on an H200 (sm90-hardware-check.md
// "§5.4 accumulator layout is exact", "A-fragment layout, verified
// exactly"), and so did the stmatrix epilogue built on them.
//
// Threads are numbered within their warpgroup: t in [0, 128), warp
// w = t / 32, lane l = t % 32. Reference: lowering-brief.md §5.4; the PTX
// ISA's wgmma register fragments (m64nNk16) and stmatrix.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_WGMMAFRAGMENT_H
#define KILN_COMPILER_TARGET_WGMMAFRAGMENT_H

#include <array>

namespace kiln::target {

/// Rows of one wgmma instruction, so of one accumulator fragment: a
/// warpgroup's m64.
constexpr unsigned wgmmaRows = 64;

/// A position in a tile: row and column, both counted from 0.
struct FragmentCoord {
  unsigned row = 0;
  unsigned col = 0;
};

inline bool operator==(FragmentCoord lhs, FragmentCoord rhs) {
  return lhs.row == rhs.row && lhs.col == rhs.col;
}
inline bool operator!=(FragmentCoord lhs, FragmentCoord rhs) {
  return !(lhs == rhs);
}

/// One term of a ThreadMap: scale * ((thread / divisor) % modulus); a zero
/// scale marks an unused term.
struct ThreadTerm {
  unsigned divisor = 1;
  unsigned modulus = 1;
  unsigned scale = 0;
};

/// The thread-dependent part of a fragment coordinate, as a sum of
/// ThreadTerms. The maps below are written with these, and the lowering
/// evaluates the same terms on the thread index in IR (Emitter::threadMap),
/// so which thread holds what is defined once, here.
struct ThreadMap {
  std::array<ThreadTerm, 3> terms{};
  constexpr unsigned operator()(unsigned thread) const {
    unsigned value = 0;
    for (const ThreadTerm &term : terms)
      value += term.scale * ((thread / term.divisor) % term.modulus);
    return value;
  }
};

/// The first row a thread holds in an m64 accumulator or A fragment: its
/// quad's, 16w + l/4 (warp w of the warpgroup, lane l).
constexpr ThreadMap wgmmaQuadRow{{{{32, 4, 16}, {4, 8, 1}}}};
/// The first column a thread holds in every 8-column block: 2 * (l%4).
constexpr ThreadMap wgmmaPairColumn{{{{1, 4, 2}}}};

//===----------------------------------------------------------------------===//
// Accumulator (D) of m64nN, one 32-bit element per register
//===----------------------------------------------------------------------===//

/// Where accumulator register `reg` of thread `thread` sits in the 64 x N
/// tile: row 16w + l/4 + 8 * ((reg/2) % 2), column 8 * (reg/4) + 2 * (l%4)
/// + reg%2. `reg` ranges over wgmmaAccumulatorRegisters(F32, N)
/// (WgmmaDescriptor.h). `thread` is taken modulo 128, so the threads of a
/// second consumer warpgroup can be passed as they are and land in the same
/// 64 rows of their own m64 fragment.
FragmentCoord wgmmaAccumulatorCoord(unsigned thread, unsigned reg);

/// The inverse: the register holding row half `rowHalf` (0 for the upper
/// row, 1 for the row 8 below), 8-column block `columnBlock` and element
/// `e` (0 or 1) of the column pair, i.e. 4 * columnBlock + 2 * rowHalf + e.
/// Row reductions read the registers of one row half; column vectors are
/// indexed by column block.
unsigned wgmmaAccumulatorRegister(unsigned rowHalf, unsigned columnBlock,
                                  unsigned e);

/// The two rows thread `thread` holds, {16w + l/4, 16w + l/4 + 8}: a row
/// vector (a row's max or sum) needs just these two values per thread.
std::array<unsigned, 2> wgmmaAccumulatorRows(unsigned thread);

/// The column thread `thread` holds as element `e` of 8-column block
/// `columnBlock`: 8 * columnBlock + 2 * (l%4) + e. A thread holds two
/// columns of each of the N/8 blocks, so a column vector (a bias) needs N/4
/// values per thread.
unsigned wgmmaAccumulatorColumn(unsigned thread, unsigned columnBlock,
                                unsigned e);

/// Which of the thread's two rows (wgmmaAccumulatorRows) accumulator
/// register `reg` lies in: (reg/2) % 2. A row vector (`rows` layout) is
/// lowered to these two values per 64-row fragment, so an element's row
/// value is register wgmmaRowVectorRegister(reg) of its fragment.
unsigned wgmmaRowVectorRegister(unsigned reg);

/// Which of the thread's N/4 column values accumulator register `reg` lies
/// in: 2 * (reg/4) + reg%2, the column wgmmaAccumulatorColumn(thread,
/// c/2, c%2) for c the result. A column vector (`cols` layout) is lowered
/// to these N/4 values per thread, the same for every 64-row fragment.
unsigned wgmmaColumnVectorRegister(unsigned reg);

/// The four lanes of a quad (equal l/4) hold the same two rows and together
/// every column of them, so a row reduction ends with one xor-shuffle
/// (shfl.sync.bfly) per entry here, over lane bits 0 and 1. No warp holds
/// another warp's rows, so no shared memory is needed.
constexpr unsigned wgmmaRowReductionShuffleMasks[] = {1, 2};

/// The eight lanes of a warp with equal l%4 hold the same columns (two rows
/// each, the warp's 16 together), so a column reduction within a warp
/// exchanges values over lane bits 2 to 4 (WarpReduce.h's reduce-scatter,
/// masks in this order). The warp's four l%4 groups hold different columns;
/// other warps hold other rows, and combine theirs separately.
constexpr unsigned wgmmaColumnReductionShuffleMasks[] = {16, 8, 4};

//===----------------------------------------------------------------------===//
// A operand of an RS wgmma m64nNk16 (f16 and bf16)
//===----------------------------------------------------------------------===//

/// 32-bit A registers per thread and k-step of m64nNk16: 64 x 16 elements
/// of 16 bits over 128 threads.
constexpr unsigned wgmmaARegistersPerKStep = 4;

/// Where element `e` of A register `q` (q in [0, 4), e in [0, 2), e = 0 the
/// low 16 bits) of k-step `kStep` sits in the 64 x K tile: row 16w + l/4 +
/// 8 * (q%2), column 16 * kStep + 2 * (l%4) + 8 * (q/2) + e. `thread` is
/// taken modulo 128. 16-bit operands only: 8-bit types pack four elements
/// per register in another layout.
FragmentCoord wgmmaAFragmentCoord(unsigned thread, unsigned kStep, unsigned q,
                                  unsigned e);

/// The accumulator register at the same position as element `e` of A
/// register `q` of k-step `kStep`: 8 * kStep + 2 * q + e. A thread therefore
/// turns its f32 accumulator into the A operand of the next wgmma
/// (attention's P = softmax(S) feeding P @ V) by packing d[8j + 2q] and
/// d[8j + 2q + 1] into register q of k-step j, with no shuffles.
unsigned accumulatorRegisterForA(unsigned kStep, unsigned q, unsigned e);

//===----------------------------------------------------------------------===//
// stmatrix.sync.aligned.m8n8.x4 (epilogue stores of 16-bit elements)
//===----------------------------------------------------------------------===//

/// The position whose shared-memory address lane `lane` (taken modulo 32)
/// supplies to stmatrix.x4 when a warp stores a 16 x 16 block: row
/// 8 * ((l/8) % 2) + l%8 within the warp's 16 rows (rows 16w onwards of
/// the m64 fragment), column 8 * (l/16) within the block. Lanes 8q..8q+7
/// address the rows of the 8 x 8 matrix that register q stores: top-left,
/// bottom-left, top-right, bottom-right.
FragmentCoord stmatrixX4LaneAddress(unsigned lane);

/// stmatrixX4LaneAddress() for a thread of the warpgroup, with its warp's
/// first row added: row 16w + 8 * ((l/8) % 2) + l%8, column 8 * (l/16).
constexpr ThreadMap stmatrixX4Row{{{{32, 4, 16}, {8, 2, 8}, {1, 8, 1}}}};
constexpr ThreadMap stmatrixX4Column{{{{16, 2, 8}}}};

/// The accumulator register packed as element `e` of stmatrix.x4 register
/// `q` when storing the 16-column block `columnBlock16` (columns
/// 16 * columnBlock16 onwards): 8 * columnBlock16 + 2 * q + e, i.e.
/// registers {pack(d[4j], d[4j+1]), ..., pack(d[4j+6], d[4j+7])} with
/// j = 2 * columnBlock16. The same rule as accumulatorRegisterForA(),
/// because stmatrix.x4 and the k16 A fragment walk a 16 x 16 block's 8 x 8
/// quarters in the same order.
unsigned stmatrixX4AccumulatorRegister(unsigned columnBlock16, unsigned q,
                                       unsigned e);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_WGMMAFRAGMENT_H
