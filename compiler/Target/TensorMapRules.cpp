//===- TensorMapRules.cpp - TMA boxes for shared-memory tiles -------------===//

#include "compiler/Target/TensorMapRules.h"

#include <string>

namespace kiln::target {

namespace {

/// Swizzled tiles are 1024-B aligned whatever their swizzle: base_offset 0
/// then holds for every mode, and it is the only layout that ran on an H200.
/// cp.async.bulk.tensor needs a 128-B aligned smem destination.
constexpr uint32_t tmaSmemAlignment = 128;

/// "80 x 2 B = 160 B" or, for sub-byte elements, "100 x 4 bit = 50 B".
std::string describeExtent(uint64_t count, const TmaElement &element) {
  std::string size = element.bits % 8 == 0
                         ? std::to_string(element.bits / 8) + " B"
                         : std::to_string(element.bits) + " bit";
  uint64_t bits = count * element.bits;
  std::string total = bits % 8 == 0 ? std::to_string(bits / 8) + " B"
                                    : std::to_string(bits) + " bit";
  return std::to_string(count) + " x " + size + " = " + total;
}

} // namespace

ValueOrError<TmaElement> tmaElementFor(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return TmaElement{"bf16", 9, 16};
  case ElementType::F16:
    return TmaElement{"f16", 6, 16};
  case ElementType::F32:
  case ElementType::TF32:
    return TmaElement{"f32", 7, 32};
  case ElementType::I32:
    return TmaElement{"i32", 3, 32};
  // FP8 has no TMA data type, and nvgpu's FP8 maps silently use BFLOAT16
  // (brief bug B1): bytes are bytes.
  case ElementType::U8:
  case ElementType::S8:
  case ElementType::E4M3:
  case ElementType::E5M2:
  case ElementType::UE8M0:
  case ElementType::UE4M3:
    return TmaElement{"u8", 0, 8};
  case ElementType::E2M1:
    return TmaElement{"u4x16_align8", 13, 4};
  }
  return ValueOrError<TmaElement>::failure(
      "TMA cannot move " + std::string(elementTypeName(type)) + " tensors");
}

ValueOrError<TmaBoxPlan> planTmaBoxes(ElementType type, uint32_t rows,
                                      uint32_t innerElements,
                                      SwizzleMode swizzle, TmaTileUse use) {
  using Result = ValueOrError<TmaBoxPlan>;
  ValueOrError<TmaElement> element = tmaElementFor(type);
  if (!element)
    return Result::failure(element.error());
  if (rows == 0 || innerElements == 0)
    return Result::failure("TMA tile extents must be positive, got " +
                           std::to_string(rows) + " rows x " +
                           std::to_string(innerElements) + " elements");
  if (rows > tmaMaxBoxExtent)
    return Result::failure("box outer extent " + std::to_string(rows) +
                           " rows exceeds the TMA limit of " +
                           std::to_string(tmaMaxBoxExtent));

  uint64_t innerBits = uint64_t{innerElements} * element->bits;
  TmaBoxPlan plan;
  plan.element = *element;
  plan.swizzle = swizzle;

  if (swizzle == SwizzleMode::None) {
    if (innerBits % (16 * 8) != 0)
      return Result::failure("box inner extent " +
                             describeExtent(innerElements, *element) +
                             " is not a multiple of 16 B");
    plan.smemAlignmentBytes = tmaSmemAlignment;
    if (use == TmaTileUse::MmaOperand) {
      if (rows % 8 != 0)
        return Result::failure(
            "an unswizzled MMA operand needs whole 8-row core matrices, got " +
            std::to_string(rows) + " rows");
      plan.box = {static_cast<uint32_t>(16 * 8 / element->bits), rows};
      plan.boxCount = static_cast<uint32_t>(innerBits / (16 * 8));
      plan.boxBytes = 16 * rows;
      plan.boxSmemStrideBytes = plan.boxBytes;
      plan.expectTxBytes = plan.boxBytes * plan.boxCount;
      return plan;
    }
    if (innerElements > tmaMaxBoxExtent)
      return Result::failure("box inner extent " +
                             std::to_string(innerElements) +
                             " elements exceeds the TMA limit of " +
                             std::to_string(tmaMaxBoxExtent));
    plan.box = {innerElements, rows};
    plan.boxCount = 1;
    plan.boxBytes = static_cast<uint32_t>(innerBits / 8 * rows);
    plan.boxSmemStrideBytes = plan.boxBytes;
    plan.expectTxBytes = plan.boxBytes;
    return plan;
  }

  uint64_t spanBits = uint64_t{swizzleSpanBytes(swizzle)} * 8;
  std::string spanName = std::string(swizzleName(swizzle)) + " swizzle span";
  if (innerBits < spanBits)
    return Result::failure(
        "box inner extent " + describeExtent(innerElements, *element) +
        " does not fill the " + spanName +
        "; the MMA's canonical layout needs exactly one span per box (" +
        std::string(swizzleName(chooseSwizzle(innerBits / 8))) +
        " fits this tile)");
  if (innerBits % spanBits != 0)
    return Result::failure(
        "box inner extent " + describeExtent(innerElements, *element) +
        " exceeds the " + spanName + " and is not a multiple of it");

  uint32_t boxInner = static_cast<uint32_t>(spanBits / element->bits);
  plan.box = {boxInner, rows};
  plan.boxCount = static_cast<uint32_t>(innerBits / spanBits);
  plan.boxBytes = swizzleSpanBytes(swizzle) * rows;
  plan.boxSmemStrideBytes = plan.boxBytes;
  plan.expectTxBytes = plan.boxBytes * plan.boxCount;
  plan.smemAlignmentBytes = swizzleAtomAlignment;
  return plan;
}

} // namespace kiln::target
