//===- ElementType.h - Element types the target encoders know ---*- C++ -*-===//
//
// The encoders need only an element's storage width and its name; they must
// not depend on MLIR types, so the lowering maps its types onto this enum.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_ELEMENTTYPE_H
#define KILN_COMPILER_TARGET_ELEMENTTYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace kiln::target {

/// Storage element types of MMA operands, accumulators and TMA tiles.
enum class ElementType : uint8_t {
  BF16,
  F16,
  F32,
  /// f32 in memory, consumed by the MMA as tf32.
  TF32,
  I32,
  U8,
  S8,
  E4M3,
  E5M2,
  /// FP4 packed two per byte (NVFP4 / MXFP4 data).
  E2M1,
  /// Power-of-two scale factor (MXFP8, MXFP4).
  UE8M0,
  /// Unsigned e4m3 scale factor (NVFP4).
  UE4M3,
};

/// Storage width in bits (4 for packed E2M1).
unsigned elementBits(ElementType type);

/// Lower-case spelling, matching the manifest's param dtypes where one
/// exists: "bf16", "f16", "f32", "tf32", "i32", "u8", "s8", "e4m3", "e5m2",
/// "e2m1", "ue8m0", "ue4m3".
std::string_view elementTypeName(ElementType type);

/// Inverse of elementTypeName().
std::optional<ElementType> parseElementType(std::string_view name);

/// Bytes occupied by `count` elements, or std::nullopt when they do not
/// fill whole bytes (an odd number of packed FP4 values).
std::optional<uint64_t> elementBytes(ElementType type, uint64_t count);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_ELEMENTTYPE_H
