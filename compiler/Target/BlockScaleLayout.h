//===- BlockScaleLayout.h - Block scale factors for tcgen05 -----*- C++ -*-===//
//
// Block-scaled MMAs (MXFP8, MXFP4, NVFP4) read one scale per row and block
// of 16 or 32 K elements from tensor memory. Scales travel global -> smem
// (TMA, plain byte map, no swizzle) -> TMEM (tcgen05.cp.32x128b.warpx4) in
// the CUTLASS scale-factor atom, so the global tensor the runtime hands us
// must already be in that order.
//
// The atom (cutlass/detail/sm100_blockscaled_layout.hpp,
// Sm1xxBlockScaledBasicChunk) covers 128 rows x 4 scale blocks in 512 bytes:
// row m = m0 + 32 * m1 (m0 < 32, m1 < 4) and block kb (< 4) live at byte
// 16 * m0 + 4 * m1 + kb. Atoms are ordered K-fastest. In TMEM an atom
// occupies 4 columns: lane m0 (replicated to all four lane quarters),
// column m1, byte kb. Reference: lowering-brief.md §5.9. The offsets and
// sizes come from the runtime's runtime/BlockScale.h, the one definition the
// host-side quantizer shares.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_BLOCKSCALELAYOUT_H
#define KILN_COMPILER_TARGET_BLOCKSCALELAYOUT_H

#include "compiler/Target/Tcgen05Descriptor.h"
#include "compiler/Target/ValueOrError.h"

#include <cstdint>

namespace kiln::target {

/// Rows (M or N) one scale-factor atom covers.
constexpr uint32_t scaleFactorAtomRows = 128;
/// Scale blocks along K one atom covers.
constexpr uint32_t scaleFactorAtomKBlocks = 4;
/// Bytes of one atom: 128 rows x 4 one-byte scales.
constexpr uint32_t scaleFactorAtomBytes = 512;
/// Rows of a block-scale buffer in shared memory per atom: the atom's 512
/// bytes as 32 rows of 16 bytes (tcgen05.cp's 32x128b shape).
constexpr uint32_t scaleFactorAtomBufferRows = 32;
/// TMEM columns one atom occupies after tcgen05.cp.32x128b.warpx4.
constexpr uint32_t scaleFactorAtomTmemColumns = 4;

/// Byte offset of (row, kBlock) inside one atom: 16 * (row % 32) +
/// 4 * (row / 32) + kBlock. Needs row < 128 and kBlock < 4.
ValueOrError<uint32_t> scaleFactorAtomByteOffset(uint32_t row, uint32_t kBlock);

/// Byte offset of the scale of (row, kBlock) in a whole scale tensor whose
/// rows have `kBlocks` scale blocks: atoms K-fastest, i.e.
/// ((row / 128) * ceil(kBlocks / 4) + kBlock / 4) * 512 + atom offset.
ValueOrError<uint64_t> scaleFactorByteOffset(uint64_t row, uint64_t kBlock,
                                             uint64_t kBlocks);

/// Bytes of a scale tensor for `rows` x `kBlocks` scales, padded to whole
/// atoms (what the runtime must allocate and the TMA map must cover).
uint64_t scaleFactorTensorBytes(uint64_t rows, uint64_t kBlocks);

/// Where one MMA finds its scales in TMEM, relative to the first column of
/// the operand's scale-factor region.
struct ScaleFactorTmemOperand {
  /// Column offset of the atom group this MMA reads.
  uint32_t columnOffset = 0;
  /// The idesc scale-factor ID: which byte of each column the MMA starts at.
  unsigned scaleFactorId = 0;
};

/// TMEM column of atom (kAtom, rowAtom) when an operand with `rows` rows
/// keeps its atoms K-major in TMEM: the ceil(rows / 128) row atoms of one
/// K step sit next to each other (SFB with N = 256 uses 8 columns per K
/// step), K steps follow.
uint32_t scaleFactorAtomTmemColumn(uint32_t rows, uint32_t kAtom,
                                   uint32_t rowAtom);

/// The TMEM operand of the `mmaIndex`-th MMA (0-based, along K) of a
/// block-scaled kind: one MMA consumes K / scaleBlock scales per row.
/// NVFP4 (mxf4nvf4.block16): a whole atom per MMA, ID 0, next MMA 4 columns
/// on. MXFP8 (mxf8f6f4.block32): 4 MMAs share an atom with IDs 0..3.
/// MXFP4 (mxf4.block32): 2 MMAs per atom with IDs 0 and 2.
ValueOrError<ScaleFactorTmemOperand> scaleFactorTmemOperand(Tcgen05Kind kind,
                                                            unsigned scaleBlock,
                                                            uint32_t rows,
                                                            unsigned mmaIndex);

/// TMEM columns that the scales of one operand take for a tile with `rows`
/// rows and `kElements` of K: ceil(rows / 128) * ceil(kBlocks / 4) * 4.
ValueOrError<uint32_t> scaleFactorTmemColumns(uint32_t rows, uint32_t kElements,
                                              unsigned scaleBlock);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_BLOCKSCALELAYOUT_H
