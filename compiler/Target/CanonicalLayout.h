//===- CanonicalLayout.h - Canonical MMA operand tiles in smem --*- C++ -*-===//
//
// wgmma (sm_90a) and tcgen05 (sm_100a) read shared-memory operands in the
// same canonical layouts (CUTLASS mma_traits_sm90_gmma.hpp /
// mma_traits_sm100.hpp); only the descriptor bit encodings differ. This file
// computes the byte strides and offsets of those layouts once, for tiles laid
// out the way our TMA boxes write them (TensorMapRules.h):
//
//   * K-major tile, `rows` = M or N extent: each row is contiguous along K.
//     The tile is a sequence of "chunks" span bytes wide along K; chunk j
//     holds all rows and starts at j * rows * span.
//   * MN-major tile, `rows` = K extent: each row is contiguous along M or N.
//     Chunk j holds the next span bytes of M/N for all K rows and starts at
//     j * rows * span.
//
// span is swizzleSpanBytes(): 32/64/128 for the swizzles, 16 (one core-matrix
// row) for the unswizzled layout, whose chunks are the 16-byte-wide boxes of
// planTmaBoxes(..., TmaTileUse::MmaOperand). Reference: lowering-brief.md
// §5.1, §5.2.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_CANONICALLAYOUT_H
#define KILN_COMPILER_TARGET_CANONICALLAYOUT_H

#include "compiler/Target/ElementType.h"
#include "compiler/Target/Swizzle.h"
#include "compiler/Target/ValueOrError.h"

#include <cstdint>

namespace kiln::target {

/// Which dimension of an MMA operand is contiguous in shared memory.
/// K-major is "row" layout for A and "col" layout for B in wgmma terms.
enum class OperandMajor : uint8_t { K, MN };

/// Descriptor strides of a canonical tile, in bytes.
struct CanonicalStrides {
  /// LBO. K-major swizzled: unused by the hardware (see leadingUsed).
  /// K-major unswizzled: distance between core matrices along K.
  /// MN-major swizzled: distance between span-wide chunks along M/N.
  /// MN-major unswizzled: distance between 8-row groups along K.
  uint32_t leadingByteOffset = 0;
  /// SBO. Distance between 8-row groups (8 x span) except for the MN-major
  /// unswizzled layout, where it is the distance between chunks along M/N.
  uint32_t strideByteOffset = 0;
  /// False when the hardware ignores LBO (swizzled K-major, verified on an
  /// H200: LBO 0, 1 and 0x3FFF gave identical results), so encoders may put
  /// their conventional placeholder there.
  bool leadingUsed = true;
};

/// LBO/SBO of a canonical tile with `rows` rows (M/N extent for K-major, K
/// extent for MN-major). `rows` must be a positive multiple of 8.
ValueOrError<CanonicalStrides>
canonicalStrides(OperandMajor major, SwizzleMode swizzle, uint32_t rows);

/// Byte offset from the tile start to K position `kElements` (the start of
/// a later MMA k-step). K-major: offsets inside a chunk are added directly
/// (the hardware applies the swizzle to the computed address); whole chunks
/// add rows * span. MN-major: K is the row index, so the offset is
/// kElements * span.
ValueOrError<uint32_t> canonicalKOffsetBytes(OperandMajor major,
                                             SwizzleMode swizzle,
                                             ElementType element, uint32_t rows,
                                             uint32_t kElements);

/// Byte offset from the tile start to M/N position `mnElements`, e.g. the
/// second m64 half of a 128-row wgmma tile. K-major: mnElements * span
/// (multiple of 8 rows). MN-major: whole chunks only, each rows * span.
ValueOrError<uint32_t>
canonicalMNOffsetBytes(OperandMajor major, SwizzleMode swizzle,
                       ElementType element, uint32_t rows, uint32_t mnElements);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_CANONICALLAYOUT_H
