//===- WgmmaDescriptorTest.cpp - sm_90a descriptors, golden values --------===//
//
// Every constant here either ran on an H200 (sm90-hardware-check.md) or is
// in lowering-brief.md §5.10; the comments say which.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/WgmmaDescriptor.h"
#include "compiler/Target/CanonicalLayout.h"

#include "gtest/gtest.h"

using namespace kiln::target;

namespace {

uint64_t highBits(OperandMajor major, SwizzleMode swizzle, uint32_t rows) {
  ValueOrError<uint64_t> bits = wgmmaDescriptorHighBits(major, swizzle, rows);
  EXPECT_TRUE(bits) << bits.error();
  return bits ? *bits : 0;
}

uint64_t kStep(OperandMajor major, SwizzleMode swizzle, ElementType type,
               uint32_t rows, unsigned step) {
  ValueOrError<uint64_t> delta =
      wgmmaKStepDescriptorDelta(major, swizzle, type, rows, step);
  EXPECT_TRUE(delta) << delta.error();
  return delta ? *delta : ~uint64_t{0};
}

} // namespace

//===----------------------------------------------------------------------===//
// Canonical layouts (shared with tcgen05)
//===----------------------------------------------------------------------===//

TEST(TargetCanonicalLayout, KMajorSwizzledIgnoresLbo) {
  for (auto [mode, sbo] : {std::pair{SwizzleMode::Bytes128, 1024u},
                           std::pair{SwizzleMode::Bytes64, 512u},
                           std::pair{SwizzleMode::Bytes32, 256u}}) {
    ValueOrError<CanonicalStrides> strides =
        canonicalStrides(OperandMajor::K, mode, 64);
    ASSERT_TRUE(strides) << strides.error();
    EXPECT_EQ(strides->strideByteOffset, sbo) << "SBO = 8 x row pitch";
    EXPECT_FALSE(strides->leadingUsed);
  }
}

TEST(TargetCanonicalLayout, KMajorUnswizzledUsesCoreMatrices) {
  ValueOrError<CanonicalStrides> strides =
      canonicalStrides(OperandMajor::K, SwizzleMode::None, 64);
  ASSERT_TRUE(strides) << strides.error();
  EXPECT_EQ(strides->strideByteOffset, 128u) << "8 rows x 16 B";
  EXPECT_EQ(strides->leadingByteOffset, 64u * 16) << "next 16-B column box";
  EXPECT_TRUE(strides->leadingUsed);
}

TEST(TargetCanonicalLayout, MNMajor) {
  // Hardware check (k_mn): SW128, BLOCK_K = 64: LBO 8192, SBO 1024.
  ValueOrError<CanonicalStrides> sw128 =
      canonicalStrides(OperandMajor::MN, SwizzleMode::Bytes128, 64);
  ASSERT_TRUE(sw128) << sw128.error();
  EXPECT_EQ(sw128->leadingByteOffset, 8192u);
  EXPECT_EQ(sw128->strideByteOffset, 1024u);
  // Unswizzled MN-major swaps the roles (brief §5.1 INTERLEAVE row).
  ValueOrError<CanonicalStrides> none =
      canonicalStrides(OperandMajor::MN, SwizzleMode::None, 64);
  ASSERT_TRUE(none) << none.error();
  EXPECT_EQ(none->leadingByteOffset, 128u);
  EXPECT_EQ(none->strideByteOffset, 64u * 16);
}

TEST(TargetCanonicalLayout, RejectsRowsThatAreNotCoreMatrices) {
  ValueOrError<CanonicalStrides> strides =
      canonicalStrides(OperandMajor::K, SwizzleMode::Bytes128, 12);
  ASSERT_FALSE(strides);
  EXPECT_EQ(strides.error(),
            "canonical tile needs a positive multiple of 8 rows, got 12");
  EXPECT_FALSE(canonicalStrides(OperandMajor::K, SwizzleMode::Bytes128, 0));
  EXPECT_FALSE(canonicalStrides(OperandMajor::K, SwizzleMode::Bytes128, 4096))
      << "4096 x 128 B is beyond a 14-bit stride";
}

TEST(TargetCanonicalLayout, KOffsetsMustBeWholeMmaSteps) {
  ValueOrError<uint32_t> offset = canonicalKOffsetBytes(
      OperandMajor::K, SwizzleMode::Bytes128, ElementType::BF16, 64, 8);
  ASSERT_FALSE(offset);
  EXPECT_EQ(offset.error(), "K offset of 8 x bf16 is not a multiple of the 32 "
                            "B an MMA k-step consumes per row");
  EXPECT_FALSE(canonicalKOffsetBytes(OperandMajor::MN, SwizzleMode::Bytes128,
                                     ElementType::BF16, 64, 4));
}

//===----------------------------------------------------------------------===//
// Descriptor encoding
//===----------------------------------------------------------------------===//

TEST(TargetWgmmaDescriptor, KMajorHighBitsMatchHardwareCheck) {
  // Ran on an H200: desc = HI | ((addr >> 4) & 0x3FFF).
  EXPECT_EQ(highBits(OperandMajor::K, SwizzleMode::Bytes128, 64),
            0x4000004000010000u);
  EXPECT_EQ(highBits(OperandMajor::K, SwizzleMode::Bytes64, 64),
            0x8000002000010000u);
  EXPECT_EQ(highBits(OperandMajor::K, SwizzleMode::Bytes32, 64),
            0xC000001000010000u);
  // The tile height does not enter a K-major swizzled descriptor.
  EXPECT_EQ(highBits(OperandMajor::K, SwizzleMode::Bytes128, 256),
            0x4000004000010000u);
}

TEST(TargetWgmmaDescriptor, MNMajorHighBitsMatchHardwareCheck) {
  // Ran on an H200 (k_mn) and emitted by nvgpu: LBO 8192, SBO 1024.
  uint64_t hi = highBits(OperandMajor::MN, SwizzleMode::Bytes128, 64);
  EXPECT_EQ(hi, 0x4000004002000000u);
  SmemDescriptorFields fields = decodeWgmmaSmemDescriptor(hi);
  EXPECT_EQ(fields.leadingByteOffset, 8192u);
  EXPECT_EQ(fields.strideByteOffset, 1024u);
  EXPECT_EQ(fields.swizzle, SwizzleMode::Bytes128);
  EXPECT_EQ(fields.baseOffset, 0u);
}

TEST(TargetWgmmaDescriptor, DeepGemmLboZeroForm) {
  SmemDescriptorFields fields;
  fields.strideByteOffset = 1024;
  fields.swizzle = SwizzleMode::Bytes128;
  ValueOrError<uint64_t> desc = encodeWgmmaSmemDescriptor(fields);
  ASSERT_TRUE(desc) << desc.error();
  EXPECT_EQ(*desc, 0x4000004000000000u);
}

TEST(TargetWgmmaDescriptor, StartAddressFillsTheLowBits) {
  // The dynamic smem base observed on the H200 was 0x400.
  SmemDescriptorFields fields;
  fields.startAddress = 0x400;
  fields.leadingByteOffset = 16;
  fields.strideByteOffset = 1024;
  fields.swizzle = SwizzleMode::Bytes128;
  ValueOrError<uint64_t> desc = encodeWgmmaSmemDescriptor(fields);
  ASSERT_TRUE(desc) << desc.error();
  EXPECT_EQ(*desc, 0x4000004000010040u);
  EXPECT_EQ(*desc, highBits(OperandMajor::K, SwizzleMode::Bytes128, 64) |
                       ((0x400u >> 4) & descriptorStartAddressMask));
  // The largest address the 14-bit field holds.
  fields.startAddress = 0x3FFF0;
  ValueOrError<uint64_t> top = encodeWgmmaSmemDescriptor(fields);
  ASSERT_TRUE(top) << top.error();
  EXPECT_EQ(*top & descriptorStartAddressMask, 0x3FFFu);
}

TEST(TargetWgmmaDescriptor, RoundTripsEveryField) {
  SmemDescriptorFields fields;
  fields.startAddress = 0x1230;
  fields.leadingByteOffset = 8192;
  fields.strideByteOffset = 1024;
  fields.baseOffset = 5;
  fields.swizzle = SwizzleMode::Bytes64;
  ValueOrError<uint64_t> desc = encodeWgmmaSmemDescriptor(fields);
  ASSERT_TRUE(desc) << desc.error();
  EXPECT_EQ((*desc >> 49) & 7, 5u) << "base offset sits in bits 49-51";
  SmemDescriptorFields back = decodeWgmmaSmemDescriptor(*desc);
  EXPECT_EQ(back.startAddress, fields.startAddress);
  EXPECT_EQ(back.leadingByteOffset, fields.leadingByteOffset);
  EXPECT_EQ(back.strideByteOffset, fields.strideByteOffset);
  EXPECT_EQ(back.baseOffset, fields.baseOffset);
  EXPECT_EQ(back.swizzle, fields.swizzle);
}

TEST(TargetWgmmaDescriptor, RejectsFieldsThatDoNotFit) {
  SmemDescriptorFields fields;
  fields.startAddress = 0x408;
  ValueOrError<uint64_t> unaligned = encodeWgmmaSmemDescriptor(fields);
  ASSERT_FALSE(unaligned);
  EXPECT_EQ(unaligned.error(),
            "wgmma descriptor start address 1032 B is not a multiple of 16 B");

  fields.startAddress = 0;
  fields.strideByteOffset = 1 << 18;
  ValueOrError<uint64_t> tooFar = encodeWgmmaSmemDescriptor(fields);
  ASSERT_FALSE(tooFar);
  EXPECT_EQ(tooFar.error(), "wgmma descriptor stride byte offset 262144 B does "
                            "not fit the 14-bit field (max 262128 B)");

  fields.strideByteOffset = 1024;
  fields.baseOffset = 8;
  ValueOrError<uint64_t> base = encodeWgmmaSmemDescriptor(fields);
  ASSERT_FALSE(base);
  EXPECT_EQ(base.error(), "wgmma descriptor base offset 8 does not fit 3 bits");
}

//===----------------------------------------------------------------------===//
// Stepping through a tile
//===----------------------------------------------------------------------===//

TEST(TargetWgmmaDescriptor, KStepsInsideAndAcrossSw128Atoms) {
  // +2 per k16 inside the 128-B row; next atom at + BLOCK_MN x 128 B.
  for (unsigned step = 0; step < 4; ++step)
    EXPECT_EQ(kStep(OperandMajor::K, SwizzleMode::Bytes128, ElementType::BF16,
                    64, step),
              2u * step);
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes128, ElementType::BF16, 64, 4),
      64u * 128 / 16);
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes128, ElementType::BF16, 64, 5),
      64u * 128 / 16 + 2);
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes128, ElementType::BF16, 256, 4),
      256u * 128 / 16);
  // FP8 k32 steps are also 32 B (hardware check: +2 per k32 step).
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes128, ElementType::E4M3, 64, 1),
      2u);
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes128, ElementType::TF32, 64, 3),
      6u);
}

TEST(TargetWgmmaDescriptor, KStepsAcrossSw64AndSw32AtomsMatchHardwareCheck) {
  // SW64: A (64 rows) steps +4096 B, B (256 rows) +16384 B per atom.
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes64, ElementType::BF16, 64, 1),
      2u);
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes64, ElementType::BF16, 64, 2),
      4096u / 16);
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes64, ElementType::BF16, 256, 2),
      16384u / 16);
  // SW32: every k16 step is a new atom: A +2048 B, B +8192 B.
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes32, ElementType::BF16, 64, 1),
      2048u / 16);
  EXPECT_EQ(
      kStep(OperandMajor::K, SwizzleMode::Bytes32, ElementType::BF16, 256, 1),
      8192u / 16);
}

TEST(TargetWgmmaDescriptor, MNMajorK16StepIs16Rows) {
  // Hardware check and nvgpu: one k16 step of an MN-major SW128 bf16 tile is
  // 16 rows x 128 B = 2048 B = +128.
  EXPECT_EQ(
      kStep(OperandMajor::MN, SwizzleMode::Bytes128, ElementType::BF16, 64, 1),
      128u);
  EXPECT_EQ(
      kStep(OperandMajor::MN, SwizzleMode::Bytes128, ElementType::BF16, 64, 3),
      384u);
}

TEST(TargetWgmmaDescriptor, MNMajorNeeds16BitTypes) {
  ValueOrError<uint64_t> fp8 = wgmmaKStepDescriptorDelta(
      OperandMajor::MN, SwizzleMode::Bytes128, ElementType::E4M3, 64, 1);
  ASSERT_FALSE(fp8);
  EXPECT_EQ(fp8.error(), "wgmma reads e4m3 operands only K-major; transposed "
                         "operands need f16 or bf16");
  EXPECT_FALSE(wgmmaMNDescriptorDelta(OperandMajor::MN, SwizzleMode::Bytes128,
                                      ElementType::TF32, 64, 32));
}

TEST(TargetWgmmaDescriptor, MNMajorOperandPlanOfTheHardwareCheck) {
  // k_mn (sm90-probes, ran on an H200): B stored [K = 64, N = 128] bf16,
  // SW128, two 64-column boxes 8 KiB apart; HI 0x4000004002000000, +128 per
  // k16 step.
  ValueOrError<WgmmaOperandDescriptors> b = planWgmmaOperandDescriptors(
      OperandMajor::MN, SwizzleMode::Bytes128, ElementType::BF16, 64, 128, 4);
  ASSERT_TRUE(b) << b.error();
  EXPECT_EQ(b->highBits, 0x4000004002000000u);
  EXPECT_EQ(b->kStepDeltas, (std::vector<uint64_t>{0, 128, 256, 384}));
}

TEST(TargetWgmmaDescriptor, MNMajorOperandPlanOfAnAttentionVTile) {
  // Attention's V as stored, [T, D]: a [128 keys, 128 d] bf16 SW128 tile is
  // two 64-column blocks of 128 rows x 128 B, 16 KiB apart: LBO 16384,
  // SBO 1024 (8 K-rows), one k16 step = 16 rows x 128 B = +128. Ran on an
  // H100 (test/gpu/test_attention_probe.py, 2026-11-26).
  ValueOrError<WgmmaOperandDescriptors> v = planWgmmaOperandDescriptors(
      OperandMajor::MN, SwizzleMode::Bytes128, ElementType::BF16, 128, 128, 8);
  ASSERT_TRUE(v) << v.error();
  EXPECT_EQ(v->highBits, 0x4000004004000000u);
  SmemDescriptorFields fields = decodeWgmmaSmemDescriptor(v->highBits);
  EXPECT_EQ(fields.leadingByteOffset, 16384u);
  EXPECT_EQ(fields.strideByteOffset, 1024u);
  EXPECT_EQ(fields.swizzle, SwizzleMode::Bytes128);
  EXPECT_EQ(fields.baseOffset, 0u);
  EXPECT_EQ(v->kStepDeltas,
            (std::vector<uint64_t>{0, 128, 256, 384, 512, 640, 768, 896}));
  // f16 is laid out the same.
  ValueOrError<WgmmaOperandDescriptors> h = planWgmmaOperandDescriptors(
      OperandMajor::MN, SwizzleMode::Bytes128, ElementType::F16, 128, 128, 8);
  ASSERT_TRUE(h) << h.error();
  EXPECT_EQ(h->highBits, v->highBits);
}

TEST(TargetWgmmaDescriptor, KMajorOperandPlanIsUnchanged) {
  // A K-major [128 N, 128 K] tile: HI 0x4000004000010000; +2 per k16 inside
  // the 128-B span, then + 128 rows x 128 B = +1024 for the second block.
  ValueOrError<WgmmaOperandDescriptors> k = planWgmmaOperandDescriptors(
      OperandMajor::K, SwizzleMode::Bytes128, ElementType::BF16, 128, 128, 8);
  ASSERT_TRUE(k) << k.error();
  EXPECT_EQ(k->highBits, 0x4000004000010000u);
  EXPECT_EQ(k->kStepDeltas,
            (std::vector<uint64_t>{0, 2, 4, 6, 1024, 1026, 1028, 1030}));
}

TEST(TargetWgmmaDescriptor, MNMajorOperandPlanRejects) {
  ValueOrError<WgmmaOperandDescriptors> fp8 = planWgmmaOperandDescriptors(
      OperandMajor::MN, SwizzleMode::Bytes128, ElementType::E4M3, 128, 128, 4);
  ASSERT_FALSE(fp8);
  EXPECT_EQ(fp8.error(), "wgmma reads e4m3 operands only K-major; transposed "
                         "operands need f16 or bf16");
  ValueOrError<WgmmaOperandDescriptors> narrow = planWgmmaOperandDescriptors(
      OperandMajor::MN, SwizzleMode::Bytes128, ElementType::BF16, 64, 32, 4);
  ASSERT_FALSE(narrow);
  EXPECT_EQ(narrow.error(), "an MN-major operand's rows must be whole 128 B "
                            "swizzle spans, got 32 x bf16");
  EXPECT_FALSE(planWgmmaOperandDescriptors(OperandMajor::MN, SwizzleMode::None,
                                           ElementType::BF16, 64, 64, 4));
  // SW64: 32-column blocks, LBO = 64 rows x 64 B.
  ValueOrError<WgmmaOperandDescriptors> sw64 = planWgmmaOperandDescriptors(
      OperandMajor::MN, SwizzleMode::Bytes64, ElementType::BF16, 64, 64, 1);
  ASSERT_TRUE(sw64) << sw64.error();
  SmemDescriptorFields fields = decodeWgmmaSmemDescriptor(sw64->highBits);
  EXPECT_EQ(fields.leadingByteOffset, 4096u);
  EXPECT_EQ(fields.strideByteOffset, 512u);
}

TEST(TargetWgmmaDescriptor, SecondM64HalfOfA128RowTile) {
  // K-major: + 64 rows x 128 B.
  ValueOrError<uint64_t> kMajor = wgmmaMNDescriptorDelta(
      OperandMajor::K, SwizzleMode::Bytes128, ElementType::BF16, 128, 64);
  ASSERT_TRUE(kMajor) << kMajor.error();
  EXPECT_EQ(*kMajor, 64u * 128 / 16);
  // MN-major: 64 bf16 = one 128-B chunk = + LBO (BLOCK_K x 128 B).
  ValueOrError<uint64_t> mnMajor = wgmmaMNDescriptorDelta(
      OperandMajor::MN, SwizzleMode::Bytes128, ElementType::BF16, 64, 64);
  ASSERT_TRUE(mnMajor) << mnMajor.error();
  EXPECT_EQ(*mnMajor, 8192u / 16);
  EXPECT_FALSE(wgmmaMNDescriptorDelta(OperandMajor::MN, SwizzleMode::Bytes128,
                                      ElementType::BF16, 64, 32))
      << "half a swizzle chunk";
}

//===----------------------------------------------------------------------===//
// Instruction geometry
//===----------------------------------------------------------------------===//

TEST(TargetWgmmaShape, KPerInstruction) {
  EXPECT_EQ(*wgmmaInstructionK(ElementType::BF16), 16u);
  EXPECT_EQ(*wgmmaInstructionK(ElementType::F16), 16u);
  EXPECT_EQ(*wgmmaInstructionK(ElementType::E4M3), 32u);
  EXPECT_EQ(*wgmmaInstructionK(ElementType::E5M2), 32u);
  EXPECT_EQ(*wgmmaInstructionK(ElementType::TF32), 8u);
  EXPECT_EQ(*wgmmaInstructionK(ElementType::S8), 32u);
  ValueOrError<unsigned> f32 = wgmmaInstructionK(ElementType::F32);
  ASSERT_FALSE(f32);
  EXPECT_EQ(f32.error(),
            "wgmma has no f32 operand type (f32 data is read as tf32)");
}

TEST(TargetWgmmaShape, ValidN) {
  for (unsigned n = 8; n <= 256; n += 8) {
    ValueOrError<WgmmaInstructionShape> shape =
        wgmmaInstructionShape(ElementType::BF16, ElementType::F32, n);
    ASSERT_TRUE(shape) << shape.error();
    EXPECT_EQ(shape->m, 64u);
    EXPECT_EQ(shape->n, n);
    EXPECT_EQ(shape->k, 16u);
    EXPECT_TRUE(wgmmaInstructionShape(ElementType::E4M3, ElementType::F32, n));
  }
  for (unsigned n : {0u, 4u, 12u, 100u, 264u}) {
    ValueOrError<WgmmaInstructionShape> shape =
        wgmmaInstructionShape(ElementType::BF16, ElementType::F32, n);
    ASSERT_FALSE(shape) << n;
    EXPECT_EQ(shape.error(), "wgmma N = " + std::to_string(n) +
                                 " is invalid: N must be a multiple of 8 from "
                                 "8 to 256");
  }
  // Integer shapes are sparser.
  EXPECT_TRUE(wgmmaInstructionShape(ElementType::S8, ElementType::I32, 24));
  EXPECT_TRUE(wgmmaInstructionShape(ElementType::U8, ElementType::I32, 48));
  EXPECT_FALSE(wgmmaInstructionShape(ElementType::S8, ElementType::I32, 40));
}

TEST(TargetWgmmaShape, AccumulatorTypes) {
  EXPECT_TRUE(wgmmaInstructionShape(ElementType::F16, ElementType::F16, 128));
  EXPECT_TRUE(wgmmaInstructionShape(ElementType::E4M3, ElementType::F16, 128));
  ValueOrError<WgmmaInstructionShape> bf16 =
      wgmmaInstructionShape(ElementType::BF16, ElementType::F16, 128);
  ASSERT_FALSE(bf16);
  EXPECT_EQ(bf16.error(), "wgmma cannot accumulate bf16 products in f16");
  EXPECT_FALSE(wgmmaInstructionShape(ElementType::S8, ElementType::F32, 128));
  EXPECT_FALSE(wgmmaInstructionShape(ElementType::BF16, ElementType::I32, 128));
}

TEST(TargetWgmmaShape, AccumulatorRegisters) {
  // m64n256k16 with 128 tied accumulators ran on the H200.
  EXPECT_EQ(*wgmmaAccumulatorRegisters(ElementType::F32, 256), 128u);
  EXPECT_EQ(*wgmmaAccumulatorRegisters(ElementType::F32, 128), 64u);
  EXPECT_EQ(*wgmmaAccumulatorRegisters(ElementType::I32, 64), 32u);
  EXPECT_EQ(*wgmmaAccumulatorRegisters(ElementType::F16, 128), 32u);
  EXPECT_FALSE(wgmmaAccumulatorRegisters(ElementType::BF16, 128));
  EXPECT_FALSE(wgmmaAccumulatorRegisters(ElementType::F32, 260));
}
