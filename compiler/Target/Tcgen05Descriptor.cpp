//===- Tcgen05Descriptor.cpp - sm_100a tcgen05 descriptors ----------------===//

#include "compiler/Target/Tcgen05Descriptor.h"

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace kiln::target {

namespace {

/// Bits 46-48 of every sm_100 shared-memory descriptor hold the fixed value
/// 0b001; descriptors without it are not valid tcgen05 descriptors.
constexpr uint64_t tcgen05DescriptorVersion = uint64_t{1} << 46;

std::string typeName(ElementType type) {
  return std::string(elementTypeName(type));
}

std::string kindName(Tcgen05Kind kind) {
  return "kind::" + std::string(tcgen05KindName(kind));
}

/// The 3-bit A/B format code of `type` under `kind`, if the kind takes it.
/// The same type has different codes under different kinds (E2M1 is 5 in
/// the f8f6f4 kinds and 1 in the mxf4 kinds).
std::optional<unsigned> operandFormatCode(Tcgen05Kind kind, ElementType type) {
  switch (kind) {
  case Tcgen05Kind::F16:
    if (type == ElementType::F16)
      return 0;
    if (type == ElementType::BF16)
      return 1;
    return std::nullopt;
  case Tcgen05Kind::TF32:
    if (type == ElementType::TF32)
      return 2;
    return std::nullopt;
  case Tcgen05Kind::F8F6F4:
  case Tcgen05Kind::MXF8F6F4:
    if (type == ElementType::E4M3)
      return 0;
    if (type == ElementType::E5M2)
      return 1;
    if (type == ElementType::E2M1)
      return 5;
    return std::nullopt;
  case Tcgen05Kind::I8:
    if (type == ElementType::U8)
      return 0;
    if (type == ElementType::S8)
      return 1;
    return std::nullopt;
  case Tcgen05Kind::MXF4:
  case Tcgen05Kind::MXF4NVF4:
    if (type == ElementType::E2M1)
      return 1;
    return std::nullopt;
  }
  return std::nullopt;
}

/// The 2-bit D format code for dense kinds.
std::optional<unsigned> accumulatorFormatCode(Tcgen05Kind kind, ElementType a,
                                              ElementType b,
                                              ElementType accumulator) {
  switch (accumulator) {
  case ElementType::F32:
    if (kind == Tcgen05Kind::I8)
      return std::nullopt;
    return 1;
  case ElementType::F16:
    if (kind == Tcgen05Kind::F8F6F4)
      return 0;
    if (kind == Tcgen05Kind::F16 && a == ElementType::F16 &&
        b == ElementType::F16)
      return 0;
    return std::nullopt;
  case ElementType::I32:
    if (kind == Tcgen05Kind::I8)
      return 2;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// MN-major (transposed) operands exist only for 16-bit, tf32 and 8-bit
/// types (CUTLASS InstrDescriptor a_major_); packed FP4 is K-major only.
bool supportsMNMajor(ElementType type) { return type != ElementType::E2M1; }

/// Negation is defined for the float kinds with a sign to flip in every
/// format (CUTLASS: "valid only for F32F16Format and MXF8F6F4Format").
bool supportsNegate(Tcgen05Kind kind) {
  return kind == Tcgen05Kind::F16 || kind == Tcgen05Kind::TF32 ||
         kind == Tcgen05Kind::F8F6F4 || kind == Tcgen05Kind::MXF8F6F4;
}

std::string shapeError(Tcgen05Kind kind, unsigned m, unsigned n,
                       unsigned ctaGroup, const char *rule) {
  return kindName(kind) + " with cta_group::" + std::to_string(ctaGroup) +
         " has no M = " + std::to_string(m) + ", N = " + std::to_string(n) +
         " shape: " + rule;
}

} // namespace

//===----------------------------------------------------------------------===//
// Shared-memory descriptors
//===----------------------------------------------------------------------===//

ValueOrError<uint64_t>
encodeTcgen05SmemDescriptor(const SmemDescriptorFields &fields) {
  ValueOrError<uint64_t> low = packSmemDescriptorAddresses(fields, "tcgen05");
  if (!low)
    return low;
  return *low | tcgen05DescriptorVersion |
         (uint64_t{tcgen05LayoutCode(fields.swizzle)} << 61);
}

SmemDescriptorFields decodeTcgen05SmemDescriptor(uint64_t descriptor) {
  SmemDescriptorFields fields = unpackSmemDescriptorAddresses(descriptor);
  switch (descriptor >> 61) {
  case 2:
    fields.swizzle = SwizzleMode::Bytes128;
    break;
  case 4:
    fields.swizzle = SwizzleMode::Bytes64;
    break;
  case 6:
    fields.swizzle = SwizzleMode::Bytes32;
    break;
  default:
    fields.swizzle = SwizzleMode::None;
    break;
  }
  return fields;
}

ValueOrError<uint64_t> tcgen05DescriptorHighBits(OperandMajor major,
                                                 SwizzleMode swizzle,
                                                 uint32_t rows) {
  ValueOrError<CanonicalStrides> strides =
      canonicalStrides(major, swizzle, rows);
  if (!strides)
    return ValueOrError<uint64_t>::failure(strides.error());
  SmemDescriptorFields fields;
  fields.leadingByteOffset =
      strides->leadingUsed ? strides->leadingByteOffset : 0;
  fields.strideByteOffset = strides->strideByteOffset;
  fields.swizzle = swizzle;
  return encodeTcgen05SmemDescriptor(fields);
}

uint64_t tcgen05ScaleFactorDescriptorHighBits() {
  SmemDescriptorFields fields;
  // tcgen05.cp.32x128b reads 32 rows of 16 B: 8-row groups 128 B apart.
  fields.strideByteOffset = 128;
  ValueOrError<uint64_t> encoded = encodeTcgen05SmemDescriptor(fields);
  assert(encoded && "constant scale-factor descriptor fields are valid");
  return *encoded;
}

//===----------------------------------------------------------------------===//
// MMA kinds and shapes
//===----------------------------------------------------------------------===//

std::string_view tcgen05KindName(Tcgen05Kind kind) {
  switch (kind) {
  case Tcgen05Kind::F16:
    return "f16";
  case Tcgen05Kind::TF32:
    return "tf32";
  case Tcgen05Kind::F8F6F4:
    return "f8f6f4";
  case Tcgen05Kind::I8:
    return "i8";
  case Tcgen05Kind::MXF8F6F4:
    return "mxf8f6f4";
  case Tcgen05Kind::MXF4:
    return "mxf4";
  case Tcgen05Kind::MXF4NVF4:
    return "mxf4nvf4";
  }
  return "";
}

bool isBlockScaledKind(Tcgen05Kind kind) {
  return kind == Tcgen05Kind::MXF8F6F4 || kind == Tcgen05Kind::MXF4 ||
         kind == Tcgen05Kind::MXF4NVF4;
}

unsigned tcgen05InstructionK(Tcgen05Kind kind) {
  switch (kind) {
  case Tcgen05Kind::F16:
    return 16;
  case Tcgen05Kind::TF32:
    return 8;
  case Tcgen05Kind::F8F6F4:
  case Tcgen05Kind::I8:
  case Tcgen05Kind::MXF8F6F4:
    return 32;
  case Tcgen05Kind::MXF4:
  case Tcgen05Kind::MXF4NVF4:
    return 64;
  }
  return 0;
}

ValueOrError<Tcgen05InstructionShape>
tcgen05InstructionShape(Tcgen05Kind kind, unsigned m, unsigned n,
                        unsigned ctaGroup) {
  using Result = ValueOrError<Tcgen05InstructionShape>;
  if (ctaGroup != 1 && ctaGroup != 2)
    return Result::failure("tcgen05.mma runs on cta_group::1 or ::2, not " +
                           std::to_string(ctaGroup));
  auto nInRange = [n](unsigned low, unsigned step) {
    return n >= low && n <= 256 && n % step == 0;
  };
  bool pair = ctaGroup == 2;
  if (isBlockScaledKind(kind)) {
    if (!pair && (m != 128 || !nInRange(8, 8)))
      return Result::failure(shapeError(kind, m, n, ctaGroup,
                                        "M must be 128 and N a multiple "
                                        "of 8 from 8 to 256"));
    // CUTLASS's 2-CTA mxf8f6f4 atom accepts only M = 256; we keep that
    // stricter rule for all block-scaled kinds until hardware says more.
    if (pair && (m != 256 || !nInRange(16, 16)))
      return Result::failure(shapeError(kind, m, n, ctaGroup,
                                        "M must be 256 and N a multiple "
                                        "of 16 from 16 to 256"));
  } else if (kind == Tcgen05Kind::I8) {
    if (!pair && ((m != 64 && m != 128) || (n != 8 && !nInRange(16, 16))))
      return Result::failure(shapeError(
          kind, m, n, ctaGroup,
          "M must be 64 or 128 and N 8 or a multiple of 16 from 16 to 256"));
    if (pair && ((m != 128 && m != 256) || !nInRange(32, 32)))
      return Result::failure(shapeError(
          kind, m, n, ctaGroup,
          "M must be 128 or 256 and N a multiple of 32 from 32 to 256"));
  } else {
    if (!pair && ((m != 64 && m != 128) || !nInRange(8, 8)))
      return Result::failure(shapeError(
          kind, m, n, ctaGroup,
          "M must be 64 or 128 and N a multiple of 8 from 8 to 256"));
    if (pair && ((m != 128 && m != 256) || !nInRange(16, 16)))
      return Result::failure(shapeError(
          kind, m, n, ctaGroup,
          "M must be 128 or 256 and N a multiple of 16 from 16 to 256"));
  }
  Tcgen05InstructionShape shape;
  shape.m = m;
  shape.n = n;
  shape.k = tcgen05InstructionK(kind);
  return shape;
}

ValueOrError<uint64_t>
tcgen05KStepDescriptorDelta(Tcgen05Kind kind, OperandMajor major,
                            SwizzleMode swizzle, uint32_t rows, unsigned step) {
  if (major == OperandMajor::MN &&
      (kind == Tcgen05Kind::MXF4 || kind == Tcgen05Kind::MXF4NVF4))
    return ValueOrError<uint64_t>::failure(
        kindName(kind) + " operands are packed FP4, which tcgen05 reads only "
                         "K-major");
  // K-major: every kind reads 32 bytes of K per row and k-step (64 packed FP4
  // values included), so count bytes. MN-major: K is the row index.
  uint32_t kElements =
      major == OperandMajor::K ? step * 32 : step * tcgen05InstructionK(kind);
  ValueOrError<uint32_t> bytes =
      canonicalKOffsetBytes(major, swizzle, ElementType::U8, rows, kElements);
  if (!bytes)
    return ValueOrError<uint64_t>::failure(bytes.error());
  return uint64_t{*bytes >> 4};
}

//===----------------------------------------------------------------------===//
// Instruction descriptor
//===----------------------------------------------------------------------===//

ValueOrError<unsigned> tcgen05ScaleVectorSize(Tcgen05Kind kind,
                                              unsigned scaleBlock) {
  using Result = ValueOrError<unsigned>;
  if (!isBlockScaledKind(kind))
    return Result::failure(kindName(kind) + " has no block scales");
  bool block16 = scaleBlock == 16;
  bool block32 = scaleBlock == 32;
  if (!block16 && !block32)
    return Result::failure("scale blocks are 16 or 32 elements, not " +
                           std::to_string(scaleBlock));
  // mxf4nvf4 is the only kind with 16-element blocks (NVFP4).
  if (block16 && kind != Tcgen05Kind::MXF4NVF4)
    return Result::failure(kindName(kind) +
                           " takes only 32-element scale blocks (block32)");
  return tcgen05InstructionK(kind) / scaleBlock;
}

unsigned validTcgen05ScaleFactorIds(unsigned scaleVectorSize) {
  switch (scaleVectorSize) {
  case 1:
    return 0xF;
  case 2:
    return 0x5;
  case 4:
    return 0x1;
  default:
    return 0;
  }
}

ValueOrError<uint32_t>
encodeTcgen05InstrDescriptor(const Tcgen05InstrDescriptorFields &fields) {
  using Result = ValueOrError<uint32_t>;
  Tcgen05Kind kind = fields.kind;

  ValueOrError<Tcgen05InstructionShape> shape =
      tcgen05InstructionShape(kind, fields.m, fields.n, fields.ctaGroup);
  if (!shape)
    return Result::failure(shape.error());

  std::optional<unsigned> aCode = operandFormatCode(kind, fields.a);
  std::optional<unsigned> bCode = operandFormatCode(kind, fields.b);
  if (!aCode || !bCode)
    return Result::failure(kindName(kind) + " does not take " +
                           typeName(aCode ? fields.b : fields.a) + " operands");
  // kind::f16 multiplies f16 by f16 or bf16 by bf16, never a mix.
  if (kind == Tcgen05Kind::F16 && fields.a != fields.b)
    return Result::failure("kind::f16 needs A and B of the same type, got " +
                           typeName(fields.a) + " and " + typeName(fields.b));

  if ((fields.aMajor == OperandMajor::MN && !supportsMNMajor(fields.a)) ||
      (fields.bMajor == OperandMajor::MN && !supportsMNMajor(fields.b)))
    return Result::failure(
        "packed FP4 (e2m1) operands must be K-major; tcgen05 cannot "
        "transpose them");
  if ((fields.negateA || fields.negateB) && !supportsNegate(kind))
    return Result::failure(kindName(kind) + " cannot negate its operands");
  if (fields.saturate && kind != Tcgen05Kind::I8)
    return Result::failure("only kind::i8 can saturate its result");

  uint32_t idesc = 0;
  idesc |= *aCode << 7;
  idesc |= *bCode << 10;
  idesc |= uint32_t{fields.negateA} << 13;
  idesc |= uint32_t{fields.negateB} << 14;
  idesc |= uint32_t{fields.aMajor == OperandMajor::MN} << 15;
  idesc |= uint32_t{fields.bMajor == OperandMajor::MN} << 16;
  idesc |= (fields.n >> 3) << 17;
  idesc |= (fields.m >> 4) << 24;

  if (!isBlockScaledKind(kind)) {
    std::optional<unsigned> dCode =
        accumulatorFormatCode(kind, fields.a, fields.b, fields.accumulator);
    if (!dCode)
      return Result::failure(kindName(kind) + " cannot accumulate " +
                             typeName(fields.a) + " x " + typeName(fields.b) +
                             " products in " + typeName(fields.accumulator));
    idesc |= uint32_t{fields.saturate} << 3;
    idesc |= *dCode << 4;
    return idesc;
  }

  if (fields.accumulator != ElementType::F32)
    return Result::failure(kindName(kind) + " always accumulates in f32, not " +
                           typeName(fields.accumulator));
  ValueOrError<unsigned> vectorSize =
      tcgen05ScaleVectorSize(kind, fields.scaleBlock);
  if (!vectorSize)
    return Result::failure(vectorSize.error());
  bool ue8m0 = fields.scaleType == ElementType::UE8M0;
  bool ue4m3 = fields.scaleType == ElementType::UE4M3;
  // UE4M3 scales exist only for NVFP4 (mxf4nvf4 with 16-element blocks).
  bool scaleTypeOk = ue8m0 || (ue4m3 && kind == Tcgen05Kind::MXF4NVF4 &&
                               fields.scaleBlock == 16);
  if (!scaleTypeOk)
    return Result::failure(kindName(kind) + ".block" +
                           std::to_string(fields.scaleBlock) + " cannot use " +
                           typeName(fields.scaleType) + " scale factors");
  unsigned validIds = validTcgen05ScaleFactorIds(*vectorSize);
  for (auto [name, id] :
       {std::pair<const char *, unsigned>{"A", fields.scaleFactorIdA},
        {"B", fields.scaleFactorIdB}}) {
    if (id > 3 || !(validIds & (1u << id)))
      return Result::failure(
          std::string("scale-factor ID ") + std::to_string(id) + " for " +
          name + " is invalid for " + kindName(kind) + ".block" +
          std::to_string(fields.scaleBlock) +
          " (scale_vec::" + std::to_string(*vectorSize) + "X allows " +
          (*vectorSize == 1   ? "0-3"
           : *vectorSize == 2 ? "0 or 2"
                              : "only 0") +
          ")");
  }
  idesc |= fields.scaleFactorIdB << 4;
  idesc |= uint32_t{ue8m0} << 23;
  idesc |= fields.scaleFactorIdA << 29;
  // Bit 31 (K96 for MXF4 formats) stays 0: we only issue K64.
  return idesc;
}

} // namespace kiln::target
