//===- TensorMemory.h - sm_100a tensor memory (TMEM) rules ------*- C++ -*-===//
//
// TMEM is 128 lanes x 512 columns of 32 bits per SM. tcgen05.alloc hands out
// power-of-two column ranges and addresses are packed (lane, column) pairs.
// Reference: lowering-brief.md §5.8; PTX ISA 9.7.16.8.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_TENSORMEMORY_H
#define KILN_COMPILER_TARGET_TENSORMEMORY_H

#include "compiler/Target/ValueOrError.h"

#include <cstdint>

namespace kiln::target {

/// Lanes (rows) of tensor memory.
constexpr uint32_t tmemLanes = 128;
/// 32-bit columns of tensor memory.
constexpr uint32_t tmemColumns = 512;
/// The smallest allocation tcgen05.alloc accepts.
constexpr uint32_t tmemMinAllocationColumns = 32;

/// The nCols operand of tcgen05.alloc for a kernel that needs
/// `requiredColumns`: the next power of two, at least 32. Fails for 0 and
/// above 512. Note that two resident CTAs asking for more than 256 columns
/// each serialize on the allocation.
ValueOrError<uint32_t> tmemAllocationColumns(uint32_t requiredColumns);

/// The 32-bit TMEM address `(lane << 16) | column`; fails outside
/// 128 x 512.
ValueOrError<uint32_t> tmemAddress(uint32_t lane, uint32_t column);

/// The first lane warp `warpIndex` may access: warp w of a warpgroup owns
/// lanes [32 * (w % 4), 32 * (w % 4) + 32).
uint32_t tmemLaneBaseForWarp(uint32_t warpIndex);

/// Lane l of a warp reads row (lane base + l) of the columns a `.32x32b`
/// tcgen05.ld names, so a column reduction of the warp's 32 rows exchanges
/// values over all five lane bits (WarpReduce.h's reduce-scatter, masks in
/// this order).
constexpr unsigned tmemColumnReductionShuffleMasks[] = {16, 8, 4, 2, 1};

/// Bits of one tensor-memory column: a lane holds one 32-bit element per
/// column, or two 16-bit elements packed (the lower column index in the
/// low half), as tcgen05.st `.32x32b` writes them from b32 registers and
/// tcgen05.mma reads an A operand from tensor memory (PTX ISA, "Matrix A in
/// tensor memory"; CUTLASS's `SM100_MMA_F16BF16_TS` atoms).
constexpr uint32_t tmemColumnBits = 32;

/// The columns `elements` elements of `elementBits` bits take along a lane:
/// 32-bit elements one per column, 16-bit two per column. Fails for other
/// widths and for counts that do not fill whole columns.
ValueOrError<uint32_t> tmemColumnsOf(uint32_t elementBits, uint32_t elements);

/// The column offset of K step `step` of a tcgen05.mma A operand read from
/// tensor memory: each instruction reads 32 bytes of K per row (K = 16 for
/// 16-bit elements), 8 columns. Example: step 3 of a bf16 P tile: 24.
uint32_t tmemOperandKStepColumns(unsigned step);

/// CTA pairs (tcgen05 `.cta_group::2`, sm_100a): two CTAs of a cluster, the
/// even one (the leader) issuing one MMA of twice the rows for both.
constexpr uint32_t ctaPairSize = 2;
/// In a cluster launch bit 24 of a CTA's 32-bit shared-memory address
/// selects the CTA of its pair; clearing it turns the address of an mbarrier
/// into the same mbarrier in the pair's leader. The copies of a pair's
/// operands complete on the leader's full barrier this way, as in CUTLASS
/// (`cute::Sm100MmaPeerBitMask` in cute/arch/copy_sm100_tma.hpp). Not run
/// on a Blackwell GPU here.
constexpr uint32_t ctaPairLeaderAddressMask = 0xFEFFFFFFu;

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_TENSORMEMORY_H
