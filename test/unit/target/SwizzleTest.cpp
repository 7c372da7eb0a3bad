//===- SwizzleTest.cpp - Swizzle modes and element types ------------------===//

#include "compiler/Target/Swizzle.h"
#include "compiler/Target/ElementType.h"

#include "gtest/gtest.h"

#include <array>

using namespace kiln::target;

namespace {

constexpr SwizzleMode allModes[] = {SwizzleMode::None, SwizzleMode::Bytes32,
                                    SwizzleMode::Bytes64,
                                    SwizzleMode::Bytes128};

/// Physical 16-byte chunk that logical chunk `chunk` of row `row` lands in.
unsigned physicalChunk(SwizzleMode mode, unsigned row, unsigned chunk) {
  unsigned span = swizzleSpanBytes(mode);
  uint64_t logical = uint64_t{row} * span + chunk * 16;
  uint64_t physical = swizzleByteOffset(mode, logical);
  EXPECT_EQ(physical / span, row) << "a swizzle never leaves its row";
  return static_cast<unsigned>((physical % span) / 16);
}

} // namespace

TEST(TargetSwizzle, GeometryPerMode) {
  // mode: bits, span, atom (8 rows), alignment for base_offset 0.
  struct Row {
    SwizzleMode mode;
    unsigned bits, span, atom, alignment;
  } table[] = {{SwizzleMode::None, 0, 16, 128, 16},
               {SwizzleMode::Bytes32, 1, 32, 256, 256},
               {SwizzleMode::Bytes64, 2, 64, 512, 512},
               {SwizzleMode::Bytes128, 3, 128, 1024, 1024}};
  for (const Row &row : table) {
    SCOPED_TRACE(std::string(swizzleName(row.mode)));
    EXPECT_EQ(swizzleBits(row.mode), row.bits);
    EXPECT_EQ(swizzleSpanBytes(row.mode), row.span);
    EXPECT_EQ(swizzleAtomBytes(row.mode), row.atom);
    EXPECT_EQ(swizzleAlignmentBytes(row.mode), row.alignment);
  }
}

TEST(TargetSwizzle, HardwareCodes) {
  // TMA {1,2,3} <-> wgmma {3,2,1} <-> tcgen05 {6,4,2} (brief §5.3, verified
  // on an H200 for TMA/wgmma: a wrong code breaks the result).
  struct Row {
    SwizzleMode mode;
    unsigned tma, wgmma, tcgen05;
  } table[] = {{SwizzleMode::None, 0, 0, 0},
               {SwizzleMode::Bytes32, 1, 3, 6},
               {SwizzleMode::Bytes64, 2, 2, 4},
               {SwizzleMode::Bytes128, 3, 1, 2}};
  for (const Row &row : table) {
    SCOPED_TRACE(std::string(swizzleName(row.mode)));
    EXPECT_EQ(tmaSwizzleCode(row.mode), row.tma);
    EXPECT_EQ(wgmmaSwizzleCode(row.mode), row.wgmma);
    EXPECT_EQ(tcgen05LayoutCode(row.mode), row.tcgen05);
  }
}

TEST(TargetSwizzle, NamesRoundTrip) {
  EXPECT_EQ(swizzleName(SwizzleMode::None), "none");
  EXPECT_EQ(swizzleName(SwizzleMode::Bytes32), "32B");
  EXPECT_EQ(swizzleName(SwizzleMode::Bytes64), "64B");
  EXPECT_EQ(swizzleName(SwizzleMode::Bytes128), "128B");
  for (SwizzleMode mode : allModes)
    EXPECT_EQ(parseSwizzleName(swizzleName(mode)), mode);
  EXPECT_FALSE(parseSwizzleName("128b"));
  EXPECT_FALSE(parseSwizzleName("256B"));
  EXPECT_FALSE(parseSwizzleName(""));
}

TEST(TargetSwizzle, Sw128ChunkPermutationOfRows0To7) {
  // Row r stores logical chunk c at physical chunk c ^ r.
  const std::array<std::array<unsigned, 8>, 8> expected = {{
      {0, 1, 2, 3, 4, 5, 6, 7},
      {1, 0, 3, 2, 5, 4, 7, 6},
      {2, 3, 0, 1, 6, 7, 4, 5},
      {3, 2, 1, 0, 7, 6, 5, 4},
      {4, 5, 6, 7, 0, 1, 2, 3},
      {5, 4, 7, 6, 1, 0, 3, 2},
      {6, 7, 4, 5, 2, 3, 0, 1},
      {7, 6, 5, 4, 3, 2, 1, 0},
  }};
  for (unsigned row = 0; row < 8; ++row)
    for (unsigned chunk = 0; chunk < 8; ++chunk)
      EXPECT_EQ(physicalChunk(SwizzleMode::Bytes128, row, chunk),
                expected[row][chunk])
          << "row " << row << " chunk " << chunk;
}

TEST(TargetSwizzle, Sw64ChunkPermutationOfRows0To7) {
  // 64-byte rows: two rows share one 128-byte line, so rows pair up.
  const std::array<std::array<unsigned, 4>, 8> expected = {{
      {0, 1, 2, 3},
      {0, 1, 2, 3},
      {1, 0, 3, 2},
      {1, 0, 3, 2},
      {2, 3, 0, 1},
      {2, 3, 0, 1},
      {3, 2, 1, 0},
      {3, 2, 1, 0},
  }};
  for (unsigned row = 0; row < 8; ++row)
    for (unsigned chunk = 0; chunk < 4; ++chunk)
      EXPECT_EQ(physicalChunk(SwizzleMode::Bytes64, row, chunk),
                expected[row][chunk])
          << "row " << row << " chunk " << chunk;
}

TEST(TargetSwizzle, Sw32ChunkPermutationOfRows0To7) {
  const std::array<std::array<unsigned, 2>, 8> expected = {{
      {0, 1},
      {0, 1},
      {0, 1},
      {0, 1},
      {1, 0},
      {1, 0},
      {1, 0},
      {1, 0},
  }};
  for (unsigned row = 0; row < 8; ++row)
    for (unsigned chunk = 0; chunk < 2; ++chunk)
      EXPECT_EQ(physicalChunk(SwizzleMode::Bytes32, row, chunk),
                expected[row][chunk])
          << "row " << row << " chunk " << chunk;
}

TEST(TargetSwizzle, ByteOffsetKeepsBytesWithinChunks) {
  // Row 1, chunk 0, byte 5 of a SW128 tile moves to chunk 1, byte 5.
  EXPECT_EQ(swizzleByteOffset(SwizzleMode::Bytes128, 128 + 5), 128 + 16 + 5);
  // Row 7, chunk 7, byte 15 lands in chunk 0.
  EXPECT_EQ(swizzleByteOffset(SwizzleMode::Bytes128, 7 * 128 + 7 * 16 + 15),
            7u * 128 + 15);
  for (uint64_t offset = 0; offset < 4096; offset += 37)
    EXPECT_EQ(swizzleByteOffset(SwizzleMode::None, offset), offset);
}

TEST(TargetSwizzle, ByteOffsetIsAPeriodicInvolution) {
  for (SwizzleMode mode : allModes) {
    uint64_t atom = swizzleAtomBytes(mode);
    for (uint64_t offset = 0; offset < 2 * atom; ++offset) {
      uint64_t swizzled = swizzleByteOffset(mode, offset);
      EXPECT_EQ(swizzleByteOffset(mode, swizzled), offset);
      EXPECT_EQ(swizzleByteOffset(mode, offset + 3 * atom), swizzled + 3 * atom)
          << "the pattern repeats every atom";
    }
  }
}

// The XOR's mask: one bit per doubling of the span past 16 bytes.
TEST(TargetSwizzle, XorMaskPerMode) {
  EXPECT_EQ(swizzleXorMask(SwizzleMode::None), 0u);
  EXPECT_EQ(swizzleXorMask(SwizzleMode::Bytes32), 1u);
  EXPECT_EQ(swizzleXorMask(SwizzleMode::Bytes64), 3u);
  EXPECT_EQ(swizzleXorMask(SwizzleMode::Bytes128), 7u);
}

TEST(TargetSwizzle, ChooseSwizzleTakesTheWidestDividingSpan) {
  EXPECT_EQ(chooseSwizzle(128), SwizzleMode::Bytes128); // 64 x bf16
  EXPECT_EQ(chooseSwizzle(256), SwizzleMode::Bytes128); // 128 x bf16: 2 atoms
  EXPECT_EQ(chooseSwizzle(384), SwizzleMode::Bytes128);
  EXPECT_EQ(chooseSwizzle(64), SwizzleMode::Bytes64);
  EXPECT_EQ(chooseSwizzle(192), SwizzleMode::Bytes64);
  EXPECT_EQ(chooseSwizzle(32), SwizzleMode::Bytes32); // 16 x bf16
  EXPECT_EQ(chooseSwizzle(96), SwizzleMode::Bytes32);
  EXPECT_EQ(chooseSwizzle(160), SwizzleMode::Bytes32);
  EXPECT_EQ(chooseSwizzle(48), SwizzleMode::None);
  EXPECT_EQ(chooseSwizzle(16), SwizzleMode::None);
  EXPECT_EQ(chooseSwizzle(8), SwizzleMode::None);
  EXPECT_EQ(chooseSwizzle(0), SwizzleMode::None);
}

TEST(TargetElementType, WidthsAndNames) {
  struct Row {
    ElementType type;
    unsigned bits;
    const char *name;
  } table[] = {
      {ElementType::BF16, 16, "bf16"},  {ElementType::F16, 16, "f16"},
      {ElementType::F32, 32, "f32"},    {ElementType::TF32, 32, "tf32"},
      {ElementType::I32, 32, "i32"},    {ElementType::U8, 8, "u8"},
      {ElementType::S8, 8, "s8"},       {ElementType::E4M3, 8, "e4m3"},
      {ElementType::E5M2, 8, "e5m2"},   {ElementType::E2M1, 4, "e2m1"},
      {ElementType::UE8M0, 8, "ue8m0"}, {ElementType::UE4M3, 8, "ue4m3"}};
  for (const Row &row : table) {
    EXPECT_EQ(elementBits(row.type), row.bits) << row.name;
    EXPECT_EQ(elementTypeName(row.type), row.name);
    EXPECT_EQ(parseElementType(row.name), row.type);
  }
  EXPECT_FALSE(parseElementType("fp8"));
}

TEST(TargetElementType, BytesOfPackedFp4NeedEvenCounts) {
  EXPECT_EQ(elementBytes(ElementType::E2M1, 256), 128u);
  EXPECT_FALSE(elementBytes(ElementType::E2M1, 3));
  EXPECT_EQ(elementBytes(ElementType::BF16, 64), 128u);
}
