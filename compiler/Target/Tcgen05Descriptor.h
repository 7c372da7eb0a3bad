//===- Tcgen05Descriptor.h - sm_100a tcgen05 descriptors --------*- C++ -*-===//
//
// The 64-bit shared-memory descriptors and the 32-bit instruction
// descriptor ("idesc") of tcgen05.mma on sm_100a. No Blackwell machine is
// available, so these encoders and their golden-value tests (cross-checked
// with CUTLASS cute/arch/mma_sm100_desc.hpp, DeepGEMM and ThunderKittens;
// lowering-brief.md §5.6, §5.7, §5.10) are the only check of these bits:
// ptxas sees them as plain register values.
//
// Shared-memory descriptor (PTX ISA 9.7.16.4.1):
//   0-13 start >> 4   16-29 LBO >> 4   32-45 SBO >> 4   46-48 version = 0b001
//   49-51 base offset   52 LBO mode   61-63 layout (0 none, 2 128B, 4 64B, 6
//   32B)
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_TCGEN05DESCRIPTOR_H
#define KILN_COMPILER_TARGET_TCGEN05DESCRIPTOR_H

#include "compiler/Target/CanonicalLayout.h"
#include "compiler/Target/ElementType.h"
#include "compiler/Target/SmemDescriptor.h"
#include "compiler/Target/Swizzle.h"
#include "compiler/Target/ValueOrError.h"

#include <cstdint>
#include <string_view>

namespace kiln::target {

//===----------------------------------------------------------------------===//
// Shared-memory descriptors
//===----------------------------------------------------------------------===//

/// Packs `fields` with version 1 (bit 46) and the tcgen05 layout code. The
/// absolute-LBO mode (bit 52) is sm_103a-only and never set.
ValueOrError<uint64_t>
encodeTcgen05SmemDescriptor(const SmemDescriptorFields &fields);

/// Unpacks a descriptor (byte units). Layout codes we never emit (1, 3, 5,
/// 7) decode as None.
SmemDescriptorFields decodeTcgen05SmemDescriptor(uint64_t descriptor);

/// The descriptor of a canonical operand tile without its start address,
/// to be ORed with `(addr >> 4) & descriptorStartAddressMask` at run time.
/// Swizzled K-major tiles get LBO 0 (ignored by the hardware; DeepGEMM's
/// choice). Examples: K-major SW128 0x4000404000000000, SW32
/// 0xC000401000000000.
ValueOrError<uint64_t> tcgen05DescriptorHighBits(OperandMajor major,
                                                 SwizzleMode swizzle,
                                                 uint32_t rows);

/// The source descriptor of `tcgen05.cp.32x128b.warpx4` for one 512-byte
/// scale-factor atom, without its start address: no swizzle, SBO 128 B
/// (8 rows of 16 B), LBO 0, version 1 = 0x0000400800000000.
uint64_t tcgen05ScaleFactorDescriptorHighBits();

//===----------------------------------------------------------------------===//
// MMA kinds and shapes
//===----------------------------------------------------------------------===//

/// The `.kind` of tcgen05.mma; the last three are `.block_scale` kinds.
enum class Tcgen05Kind : uint8_t {
  F16,
  TF32,
  F8F6F4,
  I8,
  MXF8F6F4,
  MXF4,
  MXF4NVF4,
};

/// PTX spelling without "kind::" ("f16", "mxf4nvf4", ...).
std::string_view tcgen05KindName(Tcgen05Kind kind);

/// True for mxf8f6f4, mxf4 and mxf4nvf4.
bool isBlockScaledKind(Tcgen05Kind kind);

/// K of one MMA: 16 (f16), 8 (tf32), 32 (f8f6f4, i8, mxf8f6f4), 64 (mxf4,
/// mxf4nvf4). Every kind consumes 32 bytes of K per row in shared memory.
unsigned tcgen05InstructionK(Tcgen05Kind kind);

/// One tcgen05.mma's shape.
struct Tcgen05InstructionShape {
  unsigned m = 0;
  unsigned n = 0;
  unsigned k = 0;
};

/// Validates M and N for `kind` issued by `ctaGroup` (1 or 2) CTAs (PTX ISA
/// "Matrix shape" table, CUTLASS mma_sm100_umma.hpp):
///   dense f16/tf32/f8f6f4: 1 CTA: M 64|128, N 8..256 step 8;
///                          2 CTAs: M 128|256, N 16..256 step 16.
///   i8: 1 CTA: M 64|128, N 8 or 16..256 step 16; 2 CTAs: M 128|256,
///       N 32..256 step 32.
///   block-scaled: 1 CTA: M 128, N 8..256 step 8; 2 CTAs: M 256, N 16..256
///       step 16.
ValueOrError<Tcgen05InstructionShape>
tcgen05InstructionShape(Tcgen05Kind kind, unsigned m, unsigned n,
                        unsigned ctaGroup = 1);

/// What to add to a tile's descriptor to reach k-step `step` of the K loop
/// inside the tile (same canonical layouts as wgmma: +2 per 32 B of K inside
/// a K-major atom, + rows * span / 16 per atom; MN-major + K * span / 16).
/// `rows` is the M/N extent for K-major and the K extent for MN-major.
ValueOrError<uint64_t>
tcgen05KStepDescriptorDelta(Tcgen05Kind kind, OperandMajor major,
                            SwizzleMode swizzle, uint32_t rows, unsigned step);

//===----------------------------------------------------------------------===//
// Instruction descriptor
//===----------------------------------------------------------------------===//

/// Everything the 32-bit instruction descriptor encodes, plus the
/// instruction-level facts needed to validate it (CTA group, scale block).
struct Tcgen05InstrDescriptorFields {
  Tcgen05Kind kind = Tcgen05Kind::F16;
  ElementType a = ElementType::BF16;
  ElementType b = ElementType::BF16;
  /// D type for dense kinds: F32 or F16 (float kinds), I32 (i8). Block-scaled
  /// kinds always accumulate in F32 and have no D field.
  ElementType accumulator = ElementType::F32;
  unsigned m = 128;
  unsigned n = 128;
  unsigned ctaGroup = 1;
  OperandMajor aMajor = OperandMajor::K;
  OperandMajor bMajor = OperandMajor::K;
  bool negateA = false;
  bool negateB = false;
  /// Saturate the s32 result (i8 only).
  bool saturate = false;
  /// Block-scaled only: UE8M0 or UE4M3 (bit 23).
  ElementType scaleType = ElementType::UE8M0;
  /// Block-scaled only: elements per scale (the instruction's `.block16` /
  /// `.block32`); decides which scale-factor IDs exist.
  unsigned scaleBlock = 32;
  /// Block-scaled only: which byte of each 32-bit scale-factor column the
  /// MMA starts at (bits 29-30 for A, 4-5 for B). See
  /// validTcgen05ScaleFactorIds().
  unsigned scaleFactorIdA = 0;
  unsigned scaleFactorIdB = 0;
};

/// Scale factors one MMA consumes per row (PTX `.scale_vec::NX`):
/// K per MMA / scaleBlock. mxf8f6f4.block32 -> 1, mxf4.block32 -> 2,
/// mxf4nvf4.block32 -> 2, mxf4nvf4.block16 -> 4. Fails for other
/// combinations and for dense kinds.
ValueOrError<unsigned> tcgen05ScaleVectorSize(Tcgen05Kind kind,
                                              unsigned scaleBlock);

/// Bit mask of the valid scale-factor IDs for a scale vector size: 1X ->
/// {0,1,2,3} (0xF), 2X -> {0,2} (0x5), 4X -> {0} (0x1). (brief §5.9;
/// ThunderKittens' "0, 2" for MXFP4.)
unsigned validTcgen05ScaleFactorIds(unsigned scaleVectorSize);

/// Builds the idesc. Golden values (M128 N128, K-major): kind::f16 bf16 ->
/// 0x08200490; kind::f8f6f4 e4m3 -> 0x08200010; mxf8f6f4 e4m3 UE8M0 ->
/// 0x08A00000 | sfb_id << 4 | sfa_id << 29; mxf4nvf4 UE4M3 -> 0x08200480.
ValueOrError<uint32_t>
encodeTcgen05InstrDescriptor(const Tcgen05InstrDescriptorFields &fields);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_TCGEN05DESCRIPTOR_H
