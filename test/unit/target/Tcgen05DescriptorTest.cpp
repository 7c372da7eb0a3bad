//===- Tcgen05DescriptorTest.cpp - sm_100a descriptors, golden values -----===//
//
// No Blackwell machine exists here, so these values are the check: each one
// comes from lowering-brief.md §5.10 (cross-checked with CUTLASS, DeepGEMM
// and ThunderKittens) or from a probe that ptxas accepted.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/Tcgen05Descriptor.h"

#include "gtest/gtest.h"

using namespace kiln::target;

namespace {

Tcgen05InstrDescriptorFields bf16Mma(unsigned m = 128, unsigned n = 128) {
  Tcgen05InstrDescriptorFields fields;
  fields.kind = Tcgen05Kind::F16;
  fields.a = fields.b = ElementType::BF16;
  fields.accumulator = ElementType::F32;
  fields.m = m;
  fields.n = n;
  return fields;
}

Tcgen05InstrDescriptorFields mxfp8Mma(unsigned sfaId = 0, unsigned sfbId = 0) {
  Tcgen05InstrDescriptorFields fields;
  fields.kind = Tcgen05Kind::MXF8F6F4;
  fields.a = fields.b = ElementType::E4M3;
  fields.scaleType = ElementType::UE8M0;
  fields.scaleBlock = 32;
  fields.scaleFactorIdA = sfaId;
  fields.scaleFactorIdB = sfbId;
  return fields;
}

Tcgen05InstrDescriptorFields nvfp4Mma() {
  Tcgen05InstrDescriptorFields fields;
  fields.kind = Tcgen05Kind::MXF4NVF4;
  fields.a = fields.b = ElementType::E2M1;
  fields.scaleType = ElementType::UE4M3;
  fields.scaleBlock = 16;
  return fields;
}

uint32_t encode(const Tcgen05InstrDescriptorFields &fields) {
  ValueOrError<uint32_t> idesc = encodeTcgen05InstrDescriptor(fields);
  EXPECT_TRUE(idesc) << idesc.error();
  return idesc ? *idesc : 0;
}

std::string encodeError(const Tcgen05InstrDescriptorFields &fields) {
  ValueOrError<uint32_t> idesc = encodeTcgen05InstrDescriptor(fields);
  EXPECT_FALSE(idesc) << "unexpectedly encoded 0x" << std::hex
                      << (idesc ? *idesc : 0);
  return idesc.error();
}

} // namespace

//===----------------------------------------------------------------------===//
// Shared-memory descriptors
//===----------------------------------------------------------------------===//

TEST(TargetTcgen05SmemDescriptor, KMajorHighBits) {
  ValueOrError<uint64_t> sw128 =
      tcgen05DescriptorHighBits(OperandMajor::K, SwizzleMode::Bytes128, 128);
  ASSERT_TRUE(sw128) << sw128.error();
  EXPECT_EQ(*sw128, 0x4000404000000000u) << "SW128, SBO 1024, LBO 0";
  ValueOrError<uint64_t> sw32 =
      tcgen05DescriptorHighBits(OperandMajor::K, SwizzleMode::Bytes32, 128);
  ASSERT_TRUE(sw32) << sw32.error();
  EXPECT_EQ(*sw32, 0xC000401000000000u) << "SW32, SBO 256 (brief §3.5)";
  ValueOrError<uint64_t> sw64 =
      tcgen05DescriptorHighBits(OperandMajor::K, SwizzleMode::Bytes64, 128);
  ASSERT_TRUE(sw64) << sw64.error();
  EXPECT_EQ(*sw64, 0x8000402000000000u) << "SW64, SBO 512";
}

TEST(TargetTcgen05SmemDescriptor, ScaleFactorSourceDescriptor) {
  EXPECT_EQ(tcgen05ScaleFactorDescriptorHighBits(), 0x0000400800000000u);
  SmemDescriptorFields fields =
      decodeTcgen05SmemDescriptor(tcgen05ScaleFactorDescriptorHighBits());
  EXPECT_EQ(fields.strideByteOffset, 128u);
  EXPECT_EQ(fields.leadingByteOffset, 0u);
  EXPECT_EQ(fields.swizzle, SwizzleMode::None);
}

TEST(TargetTcgen05SmemDescriptor, MatchesNvvmMmaSmemDescOp) {
  // nvvm.tcgen05.mma_smem_desc(start, 1, 64, 0, false, 2) =
  // 0x4000404000010000 | start (the op takes 16-byte units).
  SmemDescriptorFields fields;
  fields.startAddress = 0x7F0;
  fields.leadingByteOffset = 1 * 16;
  fields.strideByteOffset = 64 * 16;
  fields.swizzle = SwizzleMode::Bytes128;
  ValueOrError<uint64_t> desc = encodeTcgen05SmemDescriptor(fields);
  ASSERT_TRUE(desc) << desc.error();
  EXPECT_EQ(*desc, 0x4000404000010000u | (0x7F0u >> 4));
  SmemDescriptorFields back = decodeTcgen05SmemDescriptor(*desc);
  EXPECT_EQ(back.startAddress, 0x7F0u);
  EXPECT_EQ(back.leadingByteOffset, 16u);
  EXPECT_EQ(back.strideByteOffset, 1024u);
  EXPECT_EQ(back.swizzle, SwizzleMode::Bytes128);
}

TEST(TargetTcgen05SmemDescriptor, AttentionValueTile) {
  // V as stored ([128 keys, 128 d] bf16, SW128) is the MN-major B of
  // O += P V: the canonical layout wgmma read on an H200 (LBO 16384 between
  // the two 64-column blocks, SBO 1024 between 8-key groups; wgmma's
  // 0x4000004004000000), in tcgen05's encoding (version bit 46, layout code
  // 2 at bits 61-63), and 16 keys per MMA step: 16 x 128 B = +128.
  ValueOrError<uint64_t> desc =
      tcgen05DescriptorHighBits(OperandMajor::MN, SwizzleMode::Bytes128, 128);
  ASSERT_TRUE(desc) << desc.error();
  EXPECT_EQ(*desc, 0x4000404004000000u);
  SmemDescriptorFields back = decodeTcgen05SmemDescriptor(*desc);
  EXPECT_EQ(back.leadingByteOffset, 16384u);
  EXPECT_EQ(back.strideByteOffset, 1024u);
  ValueOrError<uint64_t> step = tcgen05KStepDescriptorDelta(
      Tcgen05Kind::F16, OperandMajor::MN, SwizzleMode::Bytes128, 128, 1);
  ASSERT_TRUE(step) << step.error();
  EXPECT_EQ(*step, 128u);
}

TEST(TargetTcgen05SmemDescriptor, VersionBitAlwaysSet) {
  for (SwizzleMode mode : {SwizzleMode::None, SwizzleMode::Bytes32,
                           SwizzleMode::Bytes64, SwizzleMode::Bytes128}) {
    ValueOrError<uint64_t> desc =
        tcgen05DescriptorHighBits(OperandMajor::MN, mode, 64);
    ASSERT_TRUE(desc) << desc.error();
    EXPECT_EQ((*desc >> 46) & 7, 1u);
    EXPECT_EQ(*desc >> 61, tcgen05LayoutCode(mode));
  }
}

TEST(TargetTcgen05SmemDescriptor, RejectsBadFields) {
  SmemDescriptorFields fields;
  fields.leadingByteOffset = 8;
  ValueOrError<uint64_t> desc = encodeTcgen05SmemDescriptor(fields);
  ASSERT_FALSE(desc);
  EXPECT_EQ(desc.error(),
            "tcgen05 descriptor leading byte offset 8 B is not a multiple of "
            "16 B");
}

TEST(TargetTcgen05SmemDescriptor, KSteps) {
  auto step = [](Tcgen05Kind kind, OperandMajor major, unsigned index) {
    ValueOrError<uint64_t> delta = tcgen05KStepDescriptorDelta(
        kind, major, SwizzleMode::Bytes128, 128, index);
    EXPECT_TRUE(delta) << delta.error();
    return delta ? *delta : ~uint64_t{0};
  };
  EXPECT_EQ(step(Tcgen05Kind::F16, OperandMajor::K, 1), 2u);
  EXPECT_EQ(step(Tcgen05Kind::F16, OperandMajor::K, 4), 128u * 128 / 16);
  // 64 packed FP4 values are 32 B as well.
  EXPECT_EQ(step(Tcgen05Kind::MXF4NVF4, OperandMajor::K, 1), 2u);
  EXPECT_EQ(step(Tcgen05Kind::MXF8F6F4, OperandMajor::K, 3), 6u);
  // MN-major: K per MMA rows x 128 B.
  EXPECT_EQ(step(Tcgen05Kind::F16, OperandMajor::MN, 1), 16u * 128 / 16);
  EXPECT_EQ(step(Tcgen05Kind::F8F6F4, OperandMajor::MN, 1), 32u * 128 / 16);
  ValueOrError<uint64_t> fp4 = tcgen05KStepDescriptorDelta(
      Tcgen05Kind::MXF4, OperandMajor::MN, SwizzleMode::Bytes128, 128, 1);
  ASSERT_FALSE(fp4);
  EXPECT_EQ(fp4.error(), "kind::mxf4 operands are packed FP4, which tcgen05 "
                         "reads only K-major");
}

//===----------------------------------------------------------------------===//
// Instruction descriptor: golden values (brief §5.10)
//===----------------------------------------------------------------------===//

TEST(TargetTcgen05InstrDescriptor, KindF16Bf16) {
  EXPECT_EQ(encode(bf16Mma(128, 128)), 0x08200490u);
  EXPECT_EQ(encode(bf16Mma(128, 256)), 0x08400490u);
  EXPECT_EQ(encode(bf16Mma(64, 128)), 0x04200490u);
}

TEST(TargetTcgen05InstrDescriptor, KindF8F6F4E4m3) {
  Tcgen05InstrDescriptorFields fields;
  fields.kind = Tcgen05Kind::F8F6F4;
  fields.a = fields.b = ElementType::E4M3;
  EXPECT_EQ(encode(fields), 0x08200010u);
}

TEST(TargetTcgen05InstrDescriptor, MxFp8WithEveryScaleFactorId) {
  EXPECT_EQ(encode(mxfp8Mma()), 0x08A00000u);
  for (unsigned sfa = 0; sfa < 4; ++sfa)
    for (unsigned sfb = 0; sfb < 4; ++sfb)
      EXPECT_EQ(encode(mxfp8Mma(sfa, sfb)), 0x08A00000u | sfb << 4 | sfa << 29)
          << "sfa " << sfa << " sfb " << sfb;
}

TEST(TargetTcgen05InstrDescriptor, NvFp4) {
  EXPECT_EQ(encode(nvfp4Mma()), 0x08200480u);
  Tcgen05InstrDescriptorFields ue8m0 = nvfp4Mma();
  ue8m0.scaleType = ElementType::UE8M0;
  EXPECT_EQ(encode(ue8m0), 0x08A00480u);
}

TEST(TargetTcgen05InstrDescriptor, OtherFields) {
  // f16 x f16 -> f16: D format 0.
  Tcgen05InstrDescriptorFields f16 = bf16Mma();
  f16.a = f16.b = f16.accumulator = ElementType::F16;
  EXPECT_EQ(encode(f16), 0x08200000u);
  // tf32 (format 2), M128 N64.
  Tcgen05InstrDescriptorFields tf32 = bf16Mma(128, 64);
  tf32.kind = Tcgen05Kind::TF32;
  tf32.a = tf32.b = ElementType::TF32;
  EXPECT_EQ(encode(tf32), 0x08100910u);
  // s8 x s8 -> s32 (D format 2), saturating.
  Tcgen05InstrDescriptorFields i8 = bf16Mma();
  i8.kind = Tcgen05Kind::I8;
  i8.a = i8.b = ElementType::S8;
  i8.accumulator = ElementType::I32;
  EXPECT_EQ(encode(i8), 0x082004A0u);
  i8.saturate = true;
  EXPECT_EQ(encode(i8), 0x082004A8u);
  // Transposed (MN-major) B and negated A.
  Tcgen05InstrDescriptorFields transposed = bf16Mma();
  transposed.bMajor = OperandMajor::MN;
  EXPECT_EQ(encode(transposed), 0x08210490u);
  transposed.aMajor = OperandMajor::MN;
  transposed.negateA = true;
  EXPECT_EQ(encode(transposed), 0x0821A490u);
  // cta_group::2, M256 N256: M >> 4 = 16 still fits bits 24-28.
  Tcgen05InstrDescriptorFields pair = bf16Mma(256, 256);
  pair.ctaGroup = 2;
  EXPECT_EQ(encode(pair), 0x10400490u);
  // MXFP4: E2M1 is format 1 in the mxf4 kinds.
  Tcgen05InstrDescriptorFields mxfp4 = nvfp4Mma();
  mxfp4.kind = Tcgen05Kind::MXF4;
  mxfp4.scaleType = ElementType::UE8M0;
  mxfp4.scaleBlock = 32;
  mxfp4.scaleFactorIdA = 2;
  EXPECT_EQ(encode(mxfp4), 0x08A00480u | 2u << 29);
}

//===----------------------------------------------------------------------===//
// Instruction descriptor: invalid input
//===----------------------------------------------------------------------===//

TEST(TargetTcgen05InstrDescriptor, RejectsInvalidShapes) {
  EXPECT_EQ(encodeError(bf16Mma(256, 128)),
            "kind::f16 with cta_group::1 has no M = 256, N = 128 shape: M must "
            "be 64 or 128 and N a multiple of 8 from 8 to 256");
  Tcgen05InstrDescriptorFields pair = bf16Mma(128, 72);
  pair.ctaGroup = 2;
  EXPECT_EQ(encodeError(pair),
            "kind::f16 with cta_group::2 has no M = 128, N = 72 shape: M must "
            "be 128 or 256 and N a multiple of 16 from 16 to 256");
  Tcgen05InstrDescriptorFields m64 = mxfp8Mma();
  m64.m = 64;
  EXPECT_EQ(encodeError(m64),
            "kind::mxf8f6f4 with cta_group::1 has no M = 64, N = 128 shape: M "
            "must be 128 and N a multiple of 8 from 8 to 256");
  EXPECT_FALSE(encodeTcgen05InstrDescriptor(bf16Mma(128, 264)));
  EXPECT_FALSE(encodeTcgen05InstrDescriptor(bf16Mma(128, 0)));
  Tcgen05InstrDescriptorFields three = bf16Mma();
  three.ctaGroup = 3;
  EXPECT_EQ(encodeError(three),
            "tcgen05.mma runs on cta_group::1 or ::2, not 3");
}

TEST(TargetTcgen05InstrDescriptor, RejectsInvalidTypes) {
  Tcgen05InstrDescriptorFields fp8InF16 = bf16Mma();
  fp8InF16.a = ElementType::E4M3;
  EXPECT_EQ(encodeError(fp8InF16), "kind::f16 does not take e4m3 operands");
  Tcgen05InstrDescriptorFields mixed = bf16Mma();
  mixed.b = ElementType::F16;
  EXPECT_EQ(encodeError(mixed),
            "kind::f16 needs A and B of the same type, got bf16 and f16");
  Tcgen05InstrDescriptorFields bf16ToF16 = bf16Mma();
  bf16ToF16.accumulator = ElementType::F16;
  EXPECT_EQ(encodeError(bf16ToF16),
            "kind::f16 cannot accumulate bf16 x bf16 products in f16");
  Tcgen05InstrDescriptorFields i8 = bf16Mma();
  i8.kind = Tcgen05Kind::I8;
  i8.a = i8.b = ElementType::U8;
  EXPECT_EQ(encodeError(i8),
            "kind::i8 cannot accumulate u8 x u8 products in f32");
  i8.accumulator = ElementType::I32;
  i8.negateB = true;
  EXPECT_EQ(encodeError(i8), "kind::i8 cannot negate its operands");
  Tcgen05InstrDescriptorFields saturate = bf16Mma();
  saturate.saturate = true;
  EXPECT_EQ(encodeError(saturate), "only kind::i8 can saturate its result");
  Tcgen05InstrDescriptorFields transposedFp4 = nvfp4Mma();
  transposedFp4.aMajor = OperandMajor::MN;
  EXPECT_EQ(encodeError(transposedFp4),
            "packed FP4 (e2m1) operands must be K-major; tcgen05 cannot "
            "transpose them");
  Tcgen05InstrDescriptorFields f16Scaled = mxfp8Mma();
  f16Scaled.accumulator = ElementType::F16;
  EXPECT_EQ(encodeError(f16Scaled),
            "kind::mxf8f6f4 always accumulates in f32, not f16");
}

TEST(TargetTcgen05InstrDescriptor, RejectsInvalidScales) {
  Tcgen05InstrDescriptorFields block16 = mxfp8Mma();
  block16.scaleBlock = 16;
  EXPECT_EQ(encodeError(block16),
            "kind::mxf8f6f4 takes only 32-element scale blocks (block32)");
  Tcgen05InstrDescriptorFields ue4m3 = mxfp8Mma();
  ue4m3.scaleType = ElementType::UE4M3;
  EXPECT_EQ(encodeError(ue4m3),
            "kind::mxf8f6f4.block32 cannot use ue4m3 scale factors");
  Tcgen05InstrDescriptorFields nvfp4Block32 = nvfp4Mma();
  nvfp4Block32.scaleBlock = 32;
  EXPECT_EQ(encodeError(nvfp4Block32),
            "kind::mxf4nvf4.block32 cannot use ue4m3 scale factors");
  Tcgen05InstrDescriptorFields nvfp4Id = nvfp4Mma();
  nvfp4Id.scaleFactorIdA = 2;
  EXPECT_EQ(encodeError(nvfp4Id),
            "scale-factor ID 2 for A is invalid for kind::mxf4nvf4.block16 "
            "(scale_vec::4X allows only 0)");
  Tcgen05InstrDescriptorFields mxfp4Id = nvfp4Mma();
  mxfp4Id.kind = Tcgen05Kind::MXF4;
  mxfp4Id.scaleType = ElementType::UE8M0;
  mxfp4Id.scaleBlock = 32;
  mxfp4Id.scaleFactorIdB = 1;
  EXPECT_EQ(encodeError(mxfp4Id),
            "scale-factor ID 1 for B is invalid for kind::mxf4.block32 "
            "(scale_vec::2X allows 0 or 2)");
  EXPECT_FALSE(encodeTcgen05InstrDescriptor(mxfp8Mma(4, 0)));
  Tcgen05InstrDescriptorFields scale7 = mxfp8Mma();
  scale7.scaleBlock = 7;
  EXPECT_EQ(encodeError(scale7), "scale blocks are 16 or 32 elements, not 7");
}

//===----------------------------------------------------------------------===//
// Shapes and scale-factor IDs
//===----------------------------------------------------------------------===//

TEST(TargetTcgen05Shape, KPerKind) {
  EXPECT_EQ(tcgen05InstructionK(Tcgen05Kind::F16), 16u);
  EXPECT_EQ(tcgen05InstructionK(Tcgen05Kind::TF32), 8u);
  EXPECT_EQ(tcgen05InstructionK(Tcgen05Kind::F8F6F4), 32u);
  EXPECT_EQ(tcgen05InstructionK(Tcgen05Kind::I8), 32u);
  EXPECT_EQ(tcgen05InstructionK(Tcgen05Kind::MXF8F6F4), 32u);
  EXPECT_EQ(tcgen05InstructionK(Tcgen05Kind::MXF4), 64u);
  EXPECT_EQ(tcgen05InstructionK(Tcgen05Kind::MXF4NVF4), 64u);
  EXPECT_EQ(tcgen05KindName(Tcgen05Kind::MXF4NVF4), "mxf4nvf4");
  EXPECT_TRUE(isBlockScaledKind(Tcgen05Kind::MXF4));
  EXPECT_FALSE(isBlockScaledKind(Tcgen05Kind::F8F6F4));
}

TEST(TargetTcgen05Shape, ValidNPerCtaGroup) {
  for (unsigned n = 8; n <= 256; n += 8) {
    EXPECT_TRUE(tcgen05InstructionShape(Tcgen05Kind::F16, 64, n, 1)) << n;
    EXPECT_TRUE(tcgen05InstructionShape(Tcgen05Kind::F16, 128, n, 1)) << n;
    EXPECT_TRUE(tcgen05InstructionShape(Tcgen05Kind::MXF4NVF4, 128, n, 1)) << n;
    EXPECT_EQ(bool(tcgen05InstructionShape(Tcgen05Kind::F16, 256, n, 2)),
              n % 16 == 0)
        << n;
    EXPECT_EQ(bool(tcgen05InstructionShape(Tcgen05Kind::I8, 128, n, 1)),
              n == 8 || n % 16 == 0)
        << n;
    EXPECT_EQ(bool(tcgen05InstructionShape(Tcgen05Kind::I8, 256, n, 2)),
              n % 32 == 0)
        << n;
  }
  EXPECT_FALSE(tcgen05InstructionShape(Tcgen05Kind::F16, 64, 128, 2));
  EXPECT_FALSE(tcgen05InstructionShape(Tcgen05Kind::MXF8F6F4, 128, 128, 2));
  EXPECT_TRUE(tcgen05InstructionShape(Tcgen05Kind::MXF8F6F4, 256, 128, 2));
  ValueOrError<Tcgen05InstructionShape> shape =
      tcgen05InstructionShape(Tcgen05Kind::MXF4NVF4, 128, 256);
  ASSERT_TRUE(shape) << shape.error();
  EXPECT_EQ(shape->k, 64u);
}

TEST(TargetTcgen05Shape, ScaleVectorsAndIds) {
  EXPECT_EQ(*tcgen05ScaleVectorSize(Tcgen05Kind::MXF8F6F4, 32), 1u);
  EXPECT_EQ(*tcgen05ScaleVectorSize(Tcgen05Kind::MXF4, 32), 2u);
  EXPECT_EQ(*tcgen05ScaleVectorSize(Tcgen05Kind::MXF4NVF4, 32), 2u);
  EXPECT_EQ(*tcgen05ScaleVectorSize(Tcgen05Kind::MXF4NVF4, 16), 4u);
  EXPECT_FALSE(tcgen05ScaleVectorSize(Tcgen05Kind::MXF4, 16));
  ValueOrError<unsigned> dense = tcgen05ScaleVectorSize(Tcgen05Kind::F16, 32);
  ASSERT_FALSE(dense);
  EXPECT_EQ(dense.error(), "kind::f16 has no block scales");
  EXPECT_EQ(validTcgen05ScaleFactorIds(1), 0xFu);
  EXPECT_EQ(validTcgen05ScaleFactorIds(2), 0x5u);
  EXPECT_EQ(validTcgen05ScaleFactorIds(4), 0x1u);
  EXPECT_EQ(validTcgen05ScaleFactorIds(3), 0u);
}
