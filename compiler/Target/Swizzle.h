//===- Swizzle.h - Shared-memory swizzle modes ------------------*- C++ -*-===//
//
// One swizzle mode names one shared-memory layout that three pieces of
// hardware must agree on: TMA writes it, wgmma (sm_90a) or tcgen05 (sm_100a)
// reads it through a descriptor. Each encodes the same mode with a different
// number, so every mapping lives here, next to the layout function itself.
//
// Reference: lowering-brief.md §5.1, §5.3; sm90-hardware-check.md.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_SWIZZLE_H
#define KILN_COMPILER_TARGET_SWIZZLE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace kiln::target {

/// The shared-memory swizzle of a tile. `None` is the unswizzled
/// "interleave" layout built from 8-row x 16-byte core matrices.
enum class SwizzleMode : uint8_t { None, Bytes32, Bytes64, Bytes128 };

/// The widest swizzle span, in bytes: one K step of an MMA operand fills one
/// such row, and the epilogue stages output rows in blocks of it.
constexpr unsigned maxSwizzleSpanBytes = 128;

/// Alignment of every shared-memory tile and of the dynamic window itself:
/// the widest swizzle's whole 8-row pattern (swizzleAlignmentBytes of
/// Bytes128), so any tile may take any swizzle with base_offset = 0.
constexpr unsigned swizzleAtomAlignment = 1024;

/// B in CuTe's Swizzle<B,4,3>: how many 16-byte chunk-index bits are XORed
/// (0, 1, 2, 3).
unsigned swizzleBits(SwizzleMode mode);

/// Width of one swizzled row in bytes (16, 32, 64, 128). For `None` this is
/// the 16-byte row of a core matrix. A K-major TMA box must be exactly this
/// wide for the MMA's canonical layout.
unsigned swizzleSpanBytes(SwizzleMode mode);

/// Bytes after which the pattern repeats: 8 rows x span (128, 256, 512,
/// 1024). For `None` this is one 128-byte core matrix.
unsigned swizzleAtomBytes(SwizzleMode mode);

/// Alignment a tile needs so that the pattern phase is 0 at its start, which
/// is what lets descriptors use base_offset = 0 (16, 256, 512, 1024).
unsigned swizzleAlignmentBytes(SwizzleMode mode);

/// The XOR every swizzle applies to a byte offset: the 16-byte chunk index
/// (bits [swizzleChunkShift, +B)) is XORed with bits [swizzleRowShift, +B)
/// (the row's index among 8 rows of 128 bytes), B = swizzleBits(mode);
/// swizzleXorMask() is 2^B - 1.
constexpr unsigned swizzleChunkShift = 4;
/// The bytes a swizzle keeps together: 1 << swizzleChunkShift.
constexpr unsigned swizzleChunkBytes = 1u << swizzleChunkShift;
constexpr unsigned swizzleRowShift = 7;
unsigned swizzleXorMask(SwizzleMode mode);

/// Maps a logical byte offset inside a tile (row-major, rows of span bytes)
/// to where the swizzled layout stores it: the XOR above. The tile is
/// assumed to start on a swizzleAlignmentBytes() boundary.
uint64_t swizzleByteOffset(SwizzleMode mode, uint64_t offset);

/// The widest swizzle whose span divides `innerBytes` (the tile's contiguous
/// extent in bytes), capped at 128 B; `None` when not even 32 B divides it.
SwizzleMode chooseSwizzle(uint64_t innerBytes);

/// CUtensorMapSwizzle value for cuTensorMapEncodeTiled (0, 1, 2, 3).
unsigned tmaSwizzleCode(SwizzleMode mode);

/// Bits 62-63 of an sm_90a wgmma shared-memory descriptor (0, 3, 2, 1).
unsigned wgmmaSwizzleCode(SwizzleMode mode);

/// Bits 61-63 ("layout type") of an sm_100a tcgen05 shared-memory
/// descriptor (0, 6, 4, 2).
unsigned tcgen05LayoutCode(SwizzleMode mode);

/// The manifest spelling: "none", "32B", "64B", "128B".
std::string_view swizzleName(SwizzleMode mode);

/// Inverse of swizzleName(); std::nullopt for anything else.
std::optional<SwizzleMode> parseSwizzleName(std::string_view name);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_SWIZZLE_H
