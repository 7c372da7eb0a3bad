//===- SmemDescriptor.h - Fields shared by smem MMA descriptors -*- C++ -*-===//
//
// The sm_90a wgmma and sm_100a tcgen05 shared-memory descriptors lay out
// start address, LBO, SBO and base offset identically (bits 0-45 and 49-51);
// they differ only in the swizzle field and tcgen05's version bits. The
// common packing and its validation live here once.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_SMEMDESCRIPTOR_H
#define KILN_COMPILER_TARGET_SMEMDESCRIPTOR_H

#include "compiler/Target/Swizzle.h"
#include "compiler/Target/ValueOrError.h"

#include <cstdint>

namespace kiln::target {

/// The start-address field holds (addr >> 4) & this mask. The lowering
/// applies it to the run-time shared-window address and ORs in the constant
/// rest of the descriptor.
constexpr uint64_t descriptorStartAddressMask = 0x3FFF;

/// Fields of a shared-memory matrix descriptor, in bytes (encoders do the
/// >> 4).
struct SmemDescriptorFields {
  /// Shared-window byte address (ptrtoint of a !llvm.ptr<3>), 16-aligned.
  uint32_t startAddress = 0;
  /// LBO in bytes (CanonicalLayout.h says what it means per layout).
  uint32_t leadingByteOffset = 0;
  /// SBO in bytes.
  uint32_t strideByteOffset = 0;
  /// Bits 49-51. Always 0 for our tiles: TMA and wgmma agreed on the swizzle
  /// phase with base_offset 0 even for SW128 tiles only 128-B aligned, while
  /// the brief's (addr >> 7) & 7 rule gave wrong results on an H200 at 128,
  /// 256 and 896 B offsets (sm90-hardware-check.md). The allocator aligns
  /// swizzled tiles to 1024 B anyway. The field is kept so that decoded
  /// descriptors round-trip.
  uint8_t baseOffset = 0;
  SwizzleMode swizzle = SwizzleMode::None;
};

/// Packs start address, LBO, SBO and base offset (bits 0-45, 49-51); fails
/// on unaligned values or values beyond the 14-bit / 3-bit fields. `what`
/// names the descriptor in messages ("wgmma", "tcgen05").
ValueOrError<uint64_t>
packSmemDescriptorAddresses(const SmemDescriptorFields &fields,
                            const char *what);

/// Unpacks bits 0-45 and 49-51 (leaves `swizzle` as None).
SmemDescriptorFields unpackSmemDescriptorAddresses(uint64_t descriptor);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_SMEMDESCRIPTOR_H
