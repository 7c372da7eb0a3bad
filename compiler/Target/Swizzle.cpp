//===- Swizzle.cpp - Shared-memory swizzle modes --------------------------===//

#include "compiler/Target/Swizzle.h"

namespace kiln::target {

unsigned swizzleBits(SwizzleMode mode) {
  switch (mode) {
  case SwizzleMode::None:
    return 0;
  case SwizzleMode::Bytes32:
    return 1;
  case SwizzleMode::Bytes64:
    return 2;
  case SwizzleMode::Bytes128:
    return 3;
  }
  return 0;
}

unsigned swizzleSpanBytes(SwizzleMode mode) { return 16u << swizzleBits(mode); }

unsigned swizzleAtomBytes(SwizzleMode mode) {
  return 8 * swizzleSpanBytes(mode);
}

unsigned swizzleAlignmentBytes(SwizzleMode mode) {
  // The unswizzled layout has no phase; TMA and the descriptors only need
  // 16-byte addresses.
  return mode == SwizzleMode::None ? 16 : swizzleAtomBytes(mode);
}

unsigned swizzleXorMask(SwizzleMode mode) {
  return (1u << swizzleBits(mode)) - 1;
}

uint64_t swizzleByteOffset(SwizzleMode mode, uint64_t offset) {
  uint64_t phase = (offset >> swizzleRowShift) & swizzleXorMask(mode);
  return offset ^ (phase << swizzleChunkShift);
}

SwizzleMode chooseSwizzle(uint64_t innerBytes) {
  if (innerBytes == 0)
    return SwizzleMode::None;
  if (innerBytes % 128 == 0)
    return SwizzleMode::Bytes128;
  if (innerBytes % 64 == 0)
    return SwizzleMode::Bytes64;
  if (innerBytes % 32 == 0)
    return SwizzleMode::Bytes32;
  return SwizzleMode::None;
}

unsigned tmaSwizzleCode(SwizzleMode mode) { return swizzleBits(mode); }

unsigned wgmmaSwizzleCode(SwizzleMode mode) {
  // wgmma counts down from the widest swizzle: 1 = 128B, 2 = 64B, 3 = 32B.
  return mode == SwizzleMode::None ? 0 : 4 - swizzleBits(mode);
}

unsigned tcgen05LayoutCode(SwizzleMode mode) {
  // tcgen05 keeps wgmma's order but shifts it up one bit to make room for
  // the 32-byte-atom 128B swizzle (code 1), which we do not use.
  return 2 * wgmmaSwizzleCode(mode);
}

std::string_view swizzleName(SwizzleMode mode) {
  switch (mode) {
  case SwizzleMode::None:
    return "none";
  case SwizzleMode::Bytes32:
    return "32B";
  case SwizzleMode::Bytes64:
    return "64B";
  case SwizzleMode::Bytes128:
    return "128B";
  }
  return "none";
}

std::optional<SwizzleMode> parseSwizzleName(std::string_view name) {
  for (SwizzleMode mode : {SwizzleMode::None, SwizzleMode::Bytes32,
                           SwizzleMode::Bytes64, SwizzleMode::Bytes128})
    if (swizzleName(mode) == name)
      return mode;
  return std::nullopt;
}

} // namespace kiln::target
