//===- WgmmaDescriptor.cpp - sm_90a wgmma descriptors and shapes ----------===//

#include "compiler/Target/WgmmaDescriptor.h"

#include <string>

namespace kiln::target {

namespace {

std::string typeName(ElementType type) {
  return std::string(elementTypeName(type));
}

ValueOrError<uint64_t> byteOffsetToDelta(ValueOrError<uint32_t> bytes) {
  if (!bytes)
    return ValueOrError<uint64_t>::failure(bytes.error());
  // The canonical offsets are multiples of 16 B by construction.
  return uint64_t{*bytes >> 4};
}

} // namespace

ValueOrError<uint64_t>
encodeWgmmaSmemDescriptor(const SmemDescriptorFields &fields) {
  ValueOrError<uint64_t> low = packSmemDescriptorAddresses(fields, "wgmma");
  if (!low)
    return low;
  return *low | (uint64_t{wgmmaSwizzleCode(fields.swizzle)} << 62);
}

SmemDescriptorFields decodeWgmmaSmemDescriptor(uint64_t descriptor) {
  SmemDescriptorFields fields = unpackSmemDescriptorAddresses(descriptor);
  switch (descriptor >> 62) {
  case 1:
    fields.swizzle = SwizzleMode::Bytes128;
    break;
  case 2:
    fields.swizzle = SwizzleMode::Bytes64;
    break;
  case 3:
    fields.swizzle = SwizzleMode::Bytes32;
    break;
  default:
    fields.swizzle = SwizzleMode::None;
    break;
  }
  return fields;
}

ValueOrError<uint64_t> wgmmaDescriptorHighBits(OperandMajor major,
                                               SwizzleMode swizzle,
                                               uint32_t rows) {
  ValueOrError<CanonicalStrides> strides =
      canonicalStrides(major, swizzle, rows);
  if (!strides)
    return ValueOrError<uint64_t>::failure(strides.error());
  SmemDescriptorFields fields;
  fields.leadingByteOffset = strides->leadingUsed
                                 ? strides->leadingByteOffset
                                 : wgmmaIgnoredLeadingByteOffset;
  fields.strideByteOffset = strides->strideByteOffset;
  fields.swizzle = swizzle;
  return encodeWgmmaSmemDescriptor(fields);
}

ValueOrError<uint64_t> wgmmaKStepDescriptorDelta(OperandMajor major,
                                                 SwizzleMode swizzle,
                                                 ElementType operand,
                                                 uint32_t rows, unsigned step) {
  ValueOrError<unsigned> k = wgmmaInstructionK(operand);
  if (!k)
    return ValueOrError<uint64_t>::failure(k.error());
  if (major == OperandMajor::MN && !wgmmaSupportsMNMajor(operand))
    return ValueOrError<uint64_t>::failure(
        "wgmma reads " + typeName(operand) +
        " operands only K-major; transposed operands need f16 or bf16");
  return byteOffsetToDelta(
      canonicalKOffsetBytes(major, swizzle, operand, rows, step * *k));
}

ValueOrError<uint64_t> wgmmaMNDescriptorDelta(OperandMajor major,
                                              SwizzleMode swizzle,
                                              ElementType operand,
                                              uint32_t rows,
                                              uint32_t mnElements) {
  if (major == OperandMajor::MN && !wgmmaSupportsMNMajor(operand))
    return ValueOrError<uint64_t>::failure(
        "wgmma reads " + typeName(operand) +
        " operands only K-major; transposed operands need f16 or bf16");
  return byteOffsetToDelta(
      canonicalMNOffsetBytes(major, swizzle, operand, rows, mnElements));
}

ValueOrError<WgmmaOperandDescriptors>
planWgmmaOperandDescriptors(OperandMajor major, SwizzleMode swizzle,
                            ElementType operand, uint32_t rows,
                            uint32_t columns, unsigned kSteps) {
  using Result = ValueOrError<WgmmaOperandDescriptors>;
  if (major == OperandMajor::MN) {
    if (!wgmmaSupportsMNMajor(operand))
      return Result::failure(
          "wgmma reads " + typeName(operand) +
          " operands only K-major; transposed operands need f16 or bf16");
    if (swizzle == SwizzleMode::None)
      return Result::failure("not implemented yet: an MN-major operand "
                             "without a swizzle (use 32B, 64B or 128B)");
    std::optional<uint64_t> rowBytes = elementBytes(operand, columns);
    if (!rowBytes || *rowBytes % swizzleSpanBytes(swizzle) != 0)
      return Result::failure(
          "an MN-major operand's rows must be whole " +
          std::to_string(swizzleSpanBytes(swizzle)) + " B swizzle spans, got " +
          std::to_string(columns) + " x " + typeName(operand));
  }
  WgmmaOperandDescriptors plan;
  ValueOrError<uint64_t> high = wgmmaDescriptorHighBits(major, swizzle, rows);
  if (!high)
    return Result::failure(high.error());
  plan.highBits = *high;
  for (unsigned step = 0; step < kSteps; ++step) {
    ValueOrError<uint64_t> delta =
        wgmmaKStepDescriptorDelta(major, swizzle, operand, rows, step);
    if (!delta)
      return Result::failure(delta.error());
    plan.kStepDeltas.push_back(*delta);
  }
  return plan;
}

ValueOrError<unsigned> wgmmaInstructionK(ElementType operand) {
  switch (operand) {
  case ElementType::TF32:
    return 8u;
  case ElementType::F16:
  case ElementType::BF16:
    return 16u;
  case ElementType::E4M3:
  case ElementType::E5M2:
  case ElementType::U8:
  case ElementType::S8:
    return 32u;
  default:
    return ValueOrError<unsigned>::failure(
        "wgmma has no " + typeName(operand) +
        " operand type (f32 data is read as tf32)");
  }
}

bool wgmmaSupportsMNMajor(ElementType operand) {
  return operand == ElementType::F16 || operand == ElementType::BF16;
}

ValueOrError<WgmmaInstructionShape>
wgmmaInstructionShape(ElementType operand, ElementType accumulator,
                      unsigned n) {
  using Result = ValueOrError<WgmmaInstructionShape>;
  ValueOrError<unsigned> k = wgmmaInstructionK(operand);
  if (!k)
    return Result::failure(k.error());

  bool integer = operand == ElementType::U8 || operand == ElementType::S8;
  bool accumulatorOk = false;
  switch (accumulator) {
  case ElementType::F32:
    accumulatorOk = !integer;
    break;
  case ElementType::F16:
    accumulatorOk = operand == ElementType::F16 ||
                    operand == ElementType::E4M3 ||
                    operand == ElementType::E5M2;
    break;
  case ElementType::I32:
    accumulatorOk = integer;
    break;
  default:
    break;
  }
  if (!accumulatorOk)
    return Result::failure("wgmma cannot accumulate " + typeName(operand) +
                           " products in " + typeName(accumulator));

  if (integer) {
    bool nOk =
        n == 8 || n == 16 || n == 24 || (n >= 32 && n <= 256 && n % 16 == 0);
    if (!nOk)
      return Result::failure("wgmma " + typeName(operand) +
                             " N = " + std::to_string(n) +
                             " is invalid: integer shapes take N = 8, 16, 24 "
                             "or a multiple of 16 from 32 to 256");
  } else if (n < 8 || n > 256 || n % 8 != 0) {
    return Result::failure("wgmma N = " + std::to_string(n) +
                           " is invalid: N must be a multiple of 8 from 8 "
                           "to 256");
  }
  WgmmaInstructionShape shape;
  shape.n = n;
  shape.k = *k;
  return shape;
}

ValueOrError<unsigned> wgmmaAccumulatorRegisters(ElementType accumulator,
                                                 unsigned n) {
  if (n == 0 || n > 256 || n % 8 != 0)
    return ValueOrError<unsigned>::failure(
        "wgmma N = " + std::to_string(n) +
        " is invalid: N must be a multiple of 8 from 8 to 256");
  switch (accumulator) {
  case ElementType::F32:
  case ElementType::I32:
    // 64 x N accumulators over 128 threads, one per register.
    return n / 2;
  case ElementType::F16:
    // Two halves share one 32-bit register.
    return n / 4;
  default:
    return ValueOrError<unsigned>::failure(
        "wgmma has no " + typeName(accumulator) + " accumulator");
  }
}

} // namespace kiln::target
