//===- BlockScaleTest.cpp - NVFP4 / MXFP8 codecs, atom layout, quantize ---===//

#include "runtime/BlockScale.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <vector>

using namespace kiln;

namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

/// A quantized matrix held in vectors sized by checkBlockScaledShape.
struct Quantized {
  BlockScaledShape shape;
  std::vector<uint8_t> data;
  std::vector<uint8_t> scales;
};

Quantized quantizeOk(BlockScaledFormat format, const std::vector<float> &x,
                     int64_t rows, int64_t k) {
  Quantized q;
  std::string error;
  EXPECT_TRUE(checkBlockScaledShape(format, rows, k, q.shape, error)) << error;
  // Poison, so a byte quantize fails to write shows up.
  q.data.assign(q.shape.dataBytes, 0xA5);
  q.scales.assign(q.shape.scaleBytes, 0xA5);
  EXPECT_TRUE(quantizeBlockScaled(format, x.data(), rows, k, q.data.data(),
                                  q.scales.data(), error))
      << error;
  return q;
}

std::vector<float> dequantizeOk(BlockScaledFormat format, const Quantized &q) {
  std::vector<float> y(q.shape.rows * q.shape.k, kNaN);
  std::string error;
  EXPECT_TRUE(dequantizeBlockScaled(format, q.data.data(), q.scales.data(),
                                    q.shape.rows, q.shape.k, y.data(), error))
      << error;
  return y;
}

uint64_t offsetOk(uint64_t row, uint64_t kBlock, uint64_t kBlocks) {
  uint64_t offset = ~uint64_t(0);
  std::string error;
  EXPECT_TRUE(scaleFactorOffset(row, kBlock, kBlocks, offset, error)) << error;
  return offset;
}

//===----------------------------------------------------------------------===//
// Element codecs
//===----------------------------------------------------------------------===//

TEST(BlockScaleCodecs, E2M1EveryCode) {
  const float values[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (uint8_t code = 0; code < 16; ++code) {
    float expected = (code & 8) ? -values[code & 7] : values[code & 7];
    EXPECT_EQ(decodeE2M1(code), expected) << int(code);
    EXPECT_EQ(std::signbit(decodeE2M1(code)), (code & 8) != 0) << int(code);
    EXPECT_EQ(encodeE2M1(expected), code) << expected;
  }
  // Only the low nibble counts when decoding.
  EXPECT_EQ(decodeE2M1(0xF7), 6.0f);
}

TEST(BlockScaleCodecs, E2M1RoundsToNearestEven) {
  // Ties go to the even code (mantissa bit 0).
  EXPECT_EQ(encodeE2M1(0.25f), 0x0); // 0 | 0.5
  EXPECT_EQ(encodeE2M1(0.75f), 0x2); // 0.5 | 1
  EXPECT_EQ(encodeE2M1(1.25f), 0x2); // 1 | 1.5
  EXPECT_EQ(encodeE2M1(1.75f), 0x4); // 1.5 | 2
  EXPECT_EQ(encodeE2M1(2.5f), 0x4);  // 2 | 3
  EXPECT_EQ(encodeE2M1(3.5f), 0x6);  // 3 | 4
  EXPECT_EQ(encodeE2M1(5.0f), 0x6);  // 4 | 6
  EXPECT_EQ(encodeE2M1(-5.0f), 0xE);
  EXPECT_EQ(encodeE2M1(-0.25f), 0x8); // -0
  // Off the ties, the nearest.
  EXPECT_EQ(encodeE2M1(0.26f), 0x1);
  EXPECT_EQ(encodeE2M1(5.01f), 0x7);
  EXPECT_EQ(encodeE2M1(2.49f), 0x4);
  EXPECT_EQ(encodeE2M1(1e-30f), 0x0);
}

TEST(BlockScaleCodecs, E2M1Saturates) {
  EXPECT_EQ(encodeE2M1(6.5f), 0x7);
  EXPECT_EQ(encodeE2M1(7.0f), 0x7); // would be the 6 | 8 tie
  EXPECT_EQ(encodeE2M1(1e30f), 0x7);
  EXPECT_EQ(encodeE2M1(kInf), 0x7);
  EXPECT_EQ(encodeE2M1(-kInf), 0xF);
  EXPECT_EQ(encodeE2M1(-100.0f), 0xF);
  EXPECT_EQ(encodeE2M1(kNaN), 0x7);
}

TEST(BlockScaleCodecs, E4M3Golden) {
  EXPECT_EQ(encodeE4M3(448.0f), 0x7E);
  EXPECT_EQ(encodeE4M3(-448.0f), 0xFE);
  EXPECT_EQ(encodeE4M3(std::ldexp(1.0f, -9)), 0x01); // smallest subnormal
  EXPECT_EQ(encodeE4M3(-std::ldexp(1.0f, -9)), 0x81);
  EXPECT_EQ(encodeE4M3(std::ldexp(7.0f, -9)), 0x07); // largest subnormal
  EXPECT_EQ(encodeE4M3(std::ldexp(1.0f, -6)), 0x08); // smallest normal
  EXPECT_EQ(encodeE4M3(1.0f), 0x38);
  EXPECT_EQ(encodeE4M3(240.0f), 0x77);
  EXPECT_EQ(encodeE4M3(0.0f), 0x00);
  EXPECT_EQ(encodeE4M3(-0.0f), 0x80);
  EXPECT_EQ(encodeE4M3(kNaN), 0x7F);
  EXPECT_EQ(decodeE4M3(0x7E), 448.0f);
  EXPECT_EQ(decodeE4M3(0xFE), -448.0f);
  EXPECT_EQ(decodeE4M3(0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(decodeE4M3(0x3A), 1.25f);
  EXPECT_TRUE(std::isnan(decodeE4M3(0x7F)));
  EXPECT_TRUE(std::isnan(decodeE4M3(0xFF)));
}

TEST(BlockScaleCodecs, E4M3EveryFiniteCodeRoundTrips) {
  int finite = 0;
  for (int code = 0; code < 256; ++code) {
    float value = decodeE4M3(static_cast<uint8_t>(code));
    if ((code & 0x7F) == 0x7F) {
      EXPECT_TRUE(std::isnan(value)) << code;
      continue;
    }
    ++finite;
    EXPECT_EQ(encodeE4M3(value), code) << value;
    EXPECT_EQ(std::signbit(value), code >= 0x80) << code;
  }
  EXPECT_EQ(finite, 254);
}

TEST(BlockScaleCodecs, E4M3RoundsToNearestEven) {
  EXPECT_EQ(encodeE4M3(1.0625f), 0x38); // 1 | 1.125: even is 1
  EXPECT_EQ(encodeE4M3(1.1875f), 0x3A); // 1.125 | 1.25: even is 1.25
  EXPECT_EQ(encodeE4M3(std::nextafter(1.0625f, 2.0f)), 0x39);
  EXPECT_EQ(encodeE4M3(std::nextafter(1.0625f, 0.0f)), 0x38);
  EXPECT_EQ(encodeE4M3(std::ldexp(1.0f, -10)), 0x00); // 0 | 2^-9
  EXPECT_EQ(encodeE4M3(std::ldexp(3.0f, -10)), 0x02); // 2^-9 | 2^-8
  // The tie between the largest subnormal and the smallest normal.
  EXPECT_EQ(encodeE4M3(std::ldexp(15.0f, -10)), 0x08);
  // A tie that carries into the next binade: 1.875 | 2 -> 2.
  EXPECT_EQ(encodeE4M3(1.9375f), 0x40);
  EXPECT_EQ(encodeE4M3(-1.0625f), 0xB8);
}

TEST(BlockScaleCodecs, E4M3Saturates) {
  EXPECT_EQ(encodeE4M3(449.0f), 0x7E);
  EXPECT_EQ(encodeE4M3(464.0f), 0x7E); // the 448 | 480 tie
  EXPECT_EQ(encodeE4M3(1e30f), 0x7E);
  EXPECT_EQ(encodeE4M3(kInf), 0x7E);
  EXPECT_EQ(encodeE4M3(-kInf), 0xFE);
  EXPECT_EQ(encodeE4M3(-std::numeric_limits<float>::max()), 0xFE);
}

TEST(BlockScaleCodecs, UE4M3IsUnsignedE4M3) {
  for (int code = 0; code < 0x7F; ++code)
    EXPECT_EQ(decodeUE4M3(static_cast<uint8_t>(code)),
              decodeE4M3(static_cast<uint8_t>(code)));
  EXPECT_EQ(encodeUE4M3(448.0f), 0x7E);
  EXPECT_EQ(encodeUE4M3(1000.0f), 0x7E);
  EXPECT_EQ(encodeUE4M3(1.0f), 0x38);
  EXPECT_EQ(encodeUE4M3(-1.0f), 0x00);
  EXPECT_EQ(encodeUE4M3(-0.0f), 0x00);
  EXPECT_EQ(encodeUE4M3(kNaN), 0x7F);
  EXPECT_TRUE(std::isnan(decodeUE4M3(0x7F)));
  EXPECT_TRUE(std::isnan(decodeUE4M3(0x80)));
  EXPECT_TRUE(std::isnan(decodeUE4M3(0xB8)));
}

TEST(BlockScaleCodecs, UE8M0EveryCode) {
  for (int code = 0; code < 255; ++code) {
    float value = decodeUE8M0(static_cast<uint8_t>(code));
    EXPECT_EQ(value, std::ldexp(1.0f, code - 127)) << code;
    EXPECT_EQ(encodeUE8M0RoundUp(value), code) << code;
  }
  EXPECT_EQ(decodeUE8M0(0), std::ldexp(1.0f, -127));
  EXPECT_EQ(decodeUE8M0(127), 1.0f);
  EXPECT_EQ(decodeUE8M0(254), std::ldexp(1.0f, 127));
  EXPECT_TRUE(std::isnan(decodeUE8M0(0xFF)));
}

TEST(BlockScaleCodecs, UE8M0RoundsUpAndSaturates) {
  EXPECT_EQ(encodeUE8M0RoundUp(1.5f), 128);
  EXPECT_EQ(encodeUE8M0RoundUp(0.75f), 127);
  EXPECT_EQ(encodeUE8M0RoundUp(std::nextafter(2.0f, 3.0f)), 129);
  EXPECT_EQ(encodeUE8M0RoundUp(std::nextafter(2.0f, 0.0f)), 128);
  EXPECT_EQ(encodeUE8M0RoundUp(std::ldexp(0.75f, -126)), 1);
  EXPECT_EQ(encodeUE8M0RoundUp(std::ldexp(1.0f, -140)), 0);
  EXPECT_EQ(encodeUE8M0RoundUp(0.0f), 0);
  EXPECT_EQ(encodeUE8M0RoundUp(-3.0f), 0);
  EXPECT_EQ(encodeUE8M0RoundUp(std::ldexp(1.5f, 127)), 254);
  EXPECT_EQ(encodeUE8M0RoundUp(kInf), 254);
  EXPECT_EQ(encodeUE8M0RoundUp(kNaN), 255);
}

//===----------------------------------------------------------------------===//
// Scale-factor atom layout
//===----------------------------------------------------------------------===//

TEST(BlockScaleLayout, AtomOffsetsByHand) {
  struct Case {
    uint32_t row, kBlock, offset;
  } cases[] = {
      {0, 0, 0},   {0, 3, 3},   {1, 0, 16},   {32, 0, 4},
      {64, 2, 10}, {33, 1, 21}, {31, 3, 499}, {127, 3, 16 * 31 + 4 * 3 + 3},
  };
  for (const Case &c : cases) {
    uint32_t offset = 0;
    std::string error;
    ASSERT_TRUE(scaleFactorAtomOffset(c.row, c.kBlock, offset, error)) << error;
    EXPECT_EQ(offset, c.offset) << c.row << ", " << c.kBlock;
  }
  uint32_t offset = 0;
  std::string error;
  EXPECT_FALSE(scaleFactorAtomOffset(128, 0, offset, error));
  EXPECT_EQ(error,
            "scale-factor atom position (row 128, block 0) is outside the "
            "128 x 4 atom");
  EXPECT_FALSE(scaleFactorAtomOffset(0, 4, offset, error));
}

TEST(BlockScaleLayout, TensorOffsetsByHand) {
  // The second atom along K starts at 512.
  EXPECT_EQ(offsetOk(0, 4, 8), 512u);
  EXPECT_EQ(offsetOk(1, 5, 8), 512u + 16 + 1);
  // The second row atom follows ceil(kBlocks / 4) atoms.
  EXPECT_EQ(offsetOk(128, 0, 8), 2u * 512);
  EXPECT_EQ(offsetOk(128, 0, 5), 2u * 512);
  EXPECT_EQ(offsetOk(128, 0, 4), 1u * 512);
  EXPECT_EQ(offsetOk(128, 0, 3), 1u * 512);
  EXPECT_EQ(offsetOk(128, 0, 12), 3u * 512);
  EXPECT_EQ(offsetOk(129, 5, 8), 3u * 512 + 16 + 1);
  EXPECT_EQ(offsetOk(300, 9, 10),
            (2u * 3 + 2) * 512 + 16 * (44 % 32) + 4 * (44 / 32) + 1);
  uint64_t offset = 0;
  std::string error;
  EXPECT_FALSE(scaleFactorOffset(0, 8, 8, offset, error));
  EXPECT_EQ(error, "scale block 8 is beyond the 8 blocks of a row");
}

TEST(BlockScaleLayout, TensorBytesPadToWholeAtoms) {
  EXPECT_EQ(scaleFactorBytes(0, 0), 0u);
  EXPECT_EQ(scaleFactorBytes(1, 1), 512u);
  EXPECT_EQ(scaleFactorBytes(128, 4), 512u);
  EXPECT_EQ(scaleFactorBytes(129, 4), 1024u);
  EXPECT_EQ(scaleFactorBytes(130, 5), 2u * 2 * 512);
  EXPECT_EQ(scaleFactorBytes(256, 16), 2u * 4 * 512);
}

TEST(BlockScaleLayout, TensorIsABijectionOntoItsBytes) {
  for (uint64_t kBlocks : {1, 4, 5, 8}) {
    const uint64_t rows = 256;
    uint64_t bytes = scaleFactorBytes(rows, kBlocks);
    std::set<uint64_t> seen;
    for (uint64_t row = 0; row < rows; ++row)
      for (uint64_t kb = 0; kb < kBlocks; ++kb) {
        uint64_t offset = offsetOk(row, kb, kBlocks);
        ASSERT_LT(offset, bytes);
        EXPECT_TRUE(seen.insert(offset).second) << row << ", " << kb;
      }
    // Without padding the scales fill the tensor.
    if (kBlocks % 4 == 0) {
      EXPECT_EQ(seen.size(), bytes);
    }
  }
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

TEST(BlockScaleShape, OddShapes) {
  BlockScaledShape s;
  std::string error;
  ASSERT_TRUE(
      checkBlockScaledShape(BlockScaledFormat::NVFP4, 130, 80, s, error));
  EXPECT_EQ(s.kPadded, 80);
  EXPECT_EQ(s.kBlocks, 5);
  EXPECT_EQ(s.rowBytes, 40);
  EXPECT_EQ(s.dataBytes, 130 * 40);
  EXPECT_EQ(s.scaleBytes, 2 * 2 * 512);
  ASSERT_TRUE(
      checkBlockScaledShape(BlockScaledFormat::NVFP4, 130, 70, s, error));
  EXPECT_EQ(s.kPadded, 80);
  EXPECT_EQ(s.rowBytes, 40);
  ASSERT_TRUE(
      checkBlockScaledShape(BlockScaledFormat::MXFP8, 130, 96, s, error));
  EXPECT_EQ(s.kPadded, 96);
  EXPECT_EQ(s.kBlocks, 3);
  EXPECT_EQ(s.rowBytes, 96);
  EXPECT_EQ(s.scaleBytes, 2 * 1 * 512);
  ASSERT_TRUE(checkBlockScaledShape(BlockScaledFormat::MXFP8, 1, 33, s, error));
  EXPECT_EQ(s.kPadded, 64);
  EXPECT_EQ(s.kBlocks, 2);
  ASSERT_TRUE(checkBlockScaledShape(BlockScaledFormat::MXFP8, 0, 0, s, error));
  EXPECT_EQ(s.dataBytes, 0);
  EXPECT_EQ(s.scaleBytes, 0);
}

TEST(BlockScaleShape, BadShapes) {
  BlockScaledShape s;
  std::string error;
  EXPECT_FALSE(
      checkBlockScaledShape(BlockScaledFormat::NVFP4, -1, 16, s, error));
  EXPECT_EQ(error, "nvfp4 matrix -1 x 16: extents must not be negative");
  EXPECT_FALSE(
      checkBlockScaledShape(BlockScaledFormat::MXFP8, 4, -32, s, error));
  EXPECT_FALSE(checkBlockScaledShape(BlockScaledFormat::MXFP8, int64_t(1) << 40,
                                     int64_t(1) << 40, s, error));
  EXPECT_EQ(error, "mxfp8 matrix 1099511627776 x 1099511627776 is too large");
  EXPECT_FALSE(checkBlockScaledShape(BlockScaledFormat::MXFP8,
                                     std::numeric_limits<int64_t>::max(), 1, s,
                                     error));
}

//===----------------------------------------------------------------------===//
// Quantize / dequantize
//===----------------------------------------------------------------------===//

TEST(BlockScaleQuantize, Nvfp4Golden) {
  std::vector<float> x(16, 0.0f);
  x[0] = 6;     // amax: scale e4m3(6 / 6) = 1 (0x38)
  x[1] = -3;    // 0xD
  x[2] = 0.25f; // tie 0 | 0.5 -> 0
  x[3] = 0.75f; // tie 0.5 | 1 -> 1 (0x2)
  x[4] = 5;     // tie 4 | 6 -> 4 (0x6)
  x[15] = -0.5f;
  Quantized q = quantizeOk(BlockScaledFormat::NVFP4, x, 1, 16);
  ASSERT_EQ(q.data.size(), 8u);
  ASSERT_EQ(q.scales.size(), 512u);
  EXPECT_EQ(q.data[0], 0xD7); // element 0 in the low nibble
  EXPECT_EQ(q.data[1], 0x20);
  EXPECT_EQ(q.data[2], 0x06);
  EXPECT_EQ(q.data[7], 0x90);
  EXPECT_EQ(q.scales[0], 0x38);
  for (size_t i = 1; i < q.scales.size(); ++i)
    ASSERT_EQ(q.scales[i], 0x00) << i; // atom padding
  std::vector<float> y = dequantizeOk(BlockScaledFormat::NVFP4, q);
  EXPECT_EQ(y[0], 6.0f);
  EXPECT_EQ(y[1], -3.0f);
  EXPECT_EQ(y[3], 1.0f);
  EXPECT_EQ(y[4], 4.0f);
  EXPECT_EQ(y[15], -0.5f);
}

TEST(BlockScaleQuantize, Nvfp4ScaleRoundsToNearestAndElementsSaturate) {
  // amax 6.5: 6.5 / 6 = 1.0833 rounds to the scale 1.125 (0x39); 6.5 / 1.125
  // = 5.78 -> 6. amax 6.3: 1.05 -> 1 (0x38), and 6.3 saturates to 6.
  std::vector<float> x(32, 0.0f);
  x[0] = 6.5f;
  x[16] = 6.3f;
  x[17] = -6.2f;
  Quantized q = quantizeOk(BlockScaledFormat::NVFP4, x, 1, 32);
  EXPECT_EQ(q.scales[0], 0x39);
  EXPECT_EQ(q.scales[1], 0x38);
  EXPECT_EQ(q.data[0] & 0xF, 0x7);
  EXPECT_EQ(q.data[8], 0xF7);
  std::vector<float> y = dequantizeOk(BlockScaledFormat::NVFP4, q);
  EXPECT_EQ(y[0], 6.75f);
  EXPECT_EQ(y[16], 6.0f);
  EXPECT_EQ(y[17], -6.0f);
}

TEST(BlockScaleQuantize, Mxfp8Golden) {
  std::vector<float> x(64, 0.0f);
  x[0] = 896;         // amax 896: scale 2^ceil(log2(896 / 448)) = 2 (0x80)
  x[1] = -1;          // -0.5 = 0xB0
  x[2] = 1.0625f * 2; // the 1 | 1.125 tie after scaling -> 1 (0x38)
  x[40] = 500; // block 1: 500 / 448 -> scale 2 as well; 250 rounds to 256
  Quantized q = quantizeOk(BlockScaledFormat::MXFP8, x, 1, 64);
  ASSERT_EQ(q.data.size(), 64u);
  EXPECT_EQ(q.scales[0], 0x80);
  EXPECT_EQ(q.scales[1], 0x80);
  EXPECT_EQ(q.data[0], 0x7E);
  EXPECT_EQ(q.data[1], 0xB0);
  EXPECT_EQ(q.data[2], 0x38);
  EXPECT_EQ(q.data[40], encodeE4M3(250.0f));
  EXPECT_EQ(decodeE4M3(q.data[40]), 256.0f);
  std::vector<float> y = dequantizeOk(BlockScaledFormat::MXFP8, q);
  EXPECT_EQ(y[0], 896.0f);
  EXPECT_EQ(y[1], -1.0f);
  EXPECT_EQ(y[2], 2.0f);
  EXPECT_EQ(y[40], 512.0f);
}

TEST(BlockScaleQuantize, Mxfp8NeverSaturates) {
  // 449 / 448 is just above 1: the scale rounds up to 2 and 449 / 2 fits.
  std::vector<float> x(32, 0.0f);
  x[0] = 449;
  x[1] = 448;
  Quantized q = quantizeOk(BlockScaledFormat::MXFP8, x, 1, 32);
  EXPECT_EQ(q.scales[0], 128);
  std::vector<float> y = dequantizeOk(BlockScaledFormat::MXFP8, q);
  EXPECT_EQ(y[0], 448.0f); // 224.5 -> 224 (nearest), not clipped
  EXPECT_EQ(y[1], 448.0f);
  x[0] = 448;
  q = quantizeOk(BlockScaledFormat::MXFP8, x, 1, 32);
  EXPECT_EQ(q.scales[0], 127);
}

TEST(BlockScaleQuantize, ZeroBlocksAndPaddingAreZeroBytes) {
  for (BlockScaledFormat format :
       {BlockScaledFormat::NVFP4, BlockScaledFormat::MXFP8}) {
    std::vector<float> x(130 * 70, 0.0f);
    Quantized q = quantizeOk(format, x, 130, 70);
    for (uint8_t b : q.data)
      ASSERT_EQ(b, 0);
    for (uint8_t b : q.scales)
      ASSERT_EQ(b, 0);
    std::vector<float> y = dequantizeOk(format, q);
    for (float v : y)
      ASSERT_EQ(v, 0.0f);
  }
}

TEST(BlockScaleQuantize, Nvfp4ScalesLandInTheAtomLayout) {
  // 130 x 80: 5 blocks per row, 2 atoms along K, 2 row atoms.
  const int64_t rows = 130, k = 80;
  std::vector<float> x(rows * k, 0.0f);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t kb = 0; kb < 5; ++kb)
      x[r * k + kb * 16 + (r + kb) % 16] = 6; // scale 1 (0x38)
  x[129 * k + 4 * 16 + 3] = -12; // row 129, block 4: scale 2 (0x40)
  Quantized q = quantizeOk(BlockScaledFormat::NVFP4, x, rows, k);
  ASSERT_EQ(q.scales.size(), 2048u);
  // Row 129 = row atom 1, row 1 in it; block 4 = K atom 1, block 0 in it.
  const size_t hand = (1 * 2 + 1) * 512 + 16 * 1 + 4 * 0 + 0;
  EXPECT_EQ(q.scales[hand], 0x40);
  EXPECT_EQ(std::count(q.scales.begin(), q.scales.end(), 0x40), 1);
  EXPECT_EQ(std::count(q.scales.begin(), q.scales.end(), 0x38), 130 * 5 - 1);
  EXPECT_EQ(std::count(q.scales.begin(), q.scales.end(), 0x00), 2048 - 130 * 5);
  // Row 2, block 0 (row atom 0, K atom 0): byte 16 * 2.
  EXPECT_EQ(q.scales[32], 0x38);
  // Row 2, block 3 -> byte 16 * 2 + 3; row 40, block 1 -> 16 * 8 + 4 + 1.
  EXPECT_EQ(q.scales[35], 0x38);
  EXPECT_EQ(q.scales[133], 0x38);
  // Row 0 blocks 4..7 are in K atom 1; only block 4 exists.
  EXPECT_EQ(q.scales[512], 0x38);
  EXPECT_EQ(q.scales[513], 0x00);
  // Data row 129 starts at byte 129 * 40; element 67 is the high nibble of
  // byte 33: -12 / 2 = -6 = 0xF.
  EXPECT_EQ(q.data[129 * 40 + 33] >> 4, 0xF);
}

TEST(BlockScaleQuantize, KPaddingIsZero) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  std::vector<float> x(3 * 70);
  for (float &v : x)
    v = dist(rng);
  Quantized nv = quantizeOk(BlockScaledFormat::NVFP4, x, 3, 70);
  ASSERT_EQ(nv.shape.rowBytes, 40);
  for (int r = 0; r < 3; ++r) // elements 70..79 are bytes 35..39
    for (int b = 35; b < 40; ++b)
      EXPECT_EQ(nv.data[r * 40 + b], 0) << r << ", " << b;
  std::vector<float> mx(3 * 40);
  for (float &v : mx)
    v = dist(rng);
  Quantized m8 = quantizeOk(BlockScaledFormat::MXFP8, mx, 3, 40);
  ASSERT_EQ(m8.shape.rowBytes, 64);
  for (int r = 0; r < 3; ++r)
    for (int b = 40; b < 64; ++b)
      EXPECT_EQ(m8.data[r * 64 + b], 0) << r << ", " << b;
}

/// x built from codes the quantizer must find again: each block holds an
/// element of the largest magnitude (6 or 448) times its scale.
std::vector<float> representable(BlockScaledFormat format, int64_t rows,
                                 int64_t k, std::mt19937 &rng) {
  const bool fp4 = format == BlockScaledFormat::NVFP4;
  const int64_t block = blockScaledBlockSize(format);
  std::vector<float> x(rows * k);
  std::uniform_int_distribution<int> code(0, 255);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t begin = 0; begin < k; begin += block) {
      int64_t end = std::min(begin + block, k);
      // NVFP4 scales: normal e4m3 codes whose 6x stays below 448 * 6;
      // MXFP8 scales: 2^-20 .. 2^20.
      float scale =
          fp4 ? decodeUE4M3(static_cast<uint8_t>(8 + code(rng) % 110))
              : decodeUE8M0(static_cast<uint8_t>(107 + code(rng) % 41));
      for (int64_t c = begin; c < end; ++c) {
        float element;
        if (fp4) {
          element = decodeE2M1(static_cast<uint8_t>(code(rng) & 0xF));
        } else {
          uint8_t e = static_cast<uint8_t>(code(rng));
          element = (e & 0x7F) == 0x7F ? 1.0f : decodeE4M3(e);
        }
        x[r * k + c] = element * scale;
      }
      int64_t top = begin + code(rng) % (end - begin);
      x[r * k + top] =
          (code(rng) & 1 ? -1.0f : 1.0f) * (fp4 ? 6.0f : 448.0f) * scale;
    }
  return x;
}

TEST(BlockScaleQuantize, RepresentableValuesRoundTripExactly) {
  std::mt19937 rng(1234);
  struct Case {
    BlockScaledFormat format;
    int64_t rows, k;
  } cases[] = {
      {BlockScaledFormat::NVFP4, 130, 80},  {BlockScaledFormat::NVFP4, 128, 64},
      {BlockScaledFormat::NVFP4, 3, 70},    {BlockScaledFormat::MXFP8, 130, 96},
      {BlockScaledFormat::MXFP8, 256, 128}, {BlockScaledFormat::MXFP8, 5, 40},
  };
  for (const Case &c : cases) {
    std::vector<float> x = representable(c.format, c.rows, c.k, rng);
    Quantized q = quantizeOk(c.format, x, c.rows, c.k);
    std::vector<float> y = dequantizeOk(c.format, q);
    for (size_t i = 0; i < x.size(); ++i)
      ASSERT_EQ(y[i], x[i]) << blockScaledFormatName(c.format) << " " << c.rows
                            << "x" << c.k << " element " << i;
    // And quantizing the dequantized matrix gives the same bytes.
    Quantized again = quantizeOk(c.format, y, c.rows, c.k);
    EXPECT_EQ(again.data, q.data);
    EXPECT_EQ(again.scales, q.scales);
  }
}

TEST(BlockScaleQuantize, RandomRoundTripErrorBounds) {
  std::mt19937 rng(99);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (BlockScaledFormat format :
       {BlockScaledFormat::NVFP4, BlockScaledFormat::MXFP8}) {
    // NVFP4 rows stay where amax / 6 is a normal e4m3 (>= 2^-6).
    std::uniform_int_distribution<int> magnitude(
        format == BlockScaledFormat::NVFP4 ? 0 : -6, 6);
    const int64_t rows = 130, k = format == BlockScaledFormat::NVFP4 ? 80 : 96;
    const int64_t block = blockScaledBlockSize(format);
    std::vector<float> x(rows * k);
    for (int64_t r = 0; r < rows; ++r) {
      float rowScale = std::ldexp(1.0f, magnitude(rng));
      for (int64_t c = 0; c < k; ++c)
        x[r * k + c] = normal(rng) * rowScale;
    }
    Quantized q = quantizeOk(format, x, rows, k);
    std::vector<float> y = dequantizeOk(format, q);
    double worst = 0;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t begin = 0; begin < k; begin += block) {
        double amax = 0;
        for (int64_t c = begin; c < begin + block; ++c)
          amax = std::max(amax, std::fabs(double(x[r * k + c])));
        double scale =
            format == BlockScaledFormat::NVFP4
                ? decodeUE4M3(q.scales[offsetOk(r, begin / block, k / block)])
                : decodeUE8M0(q.scales[offsetOk(r, begin / block, k / block)]);
        for (int64_t c = begin; c < begin + block; ++c) {
          double err = std::fabs(double(y[r * k + c]) - x[r * k + c]);
          worst = std::max(worst, err / amax);
          if (format == BlockScaledFormat::NVFP4) {
            // Scale within half an e4m3 step of amax / 6; elements within half
            // the widest e2m1 gap (1, between 4 and 6) of x / scale.
            ASSERT_LE(std::fabs(scale - amax / 6), amax / 6 / 16);
            ASSERT_LE(err, scale) << r << ", " << c;
          } else {
            // |x| / scale in (224, 448]; e4m3 keeps 2^-4 relative error, or
            // half the subnormal step 2^-9.
            ASSERT_GT(amax / scale, 224);
            ASSERT_LE(amax / scale, 448);
            ASSERT_LE(err, std::fabs(x[r * k + c]) / 16 +
                               scale * std::ldexp(1.0, -10))
                << r << ", " << c;
          }
        }
      }
    // Sanity: the bounds are not vacuous for this data.
    EXPECT_GT(worst, 0.0);
    EXPECT_LT(worst, format == BlockScaledFormat::NVFP4 ? 0.2 : 0.07);
  }
}

TEST(BlockScaleQuantize, Errors) {
  std::string error;
  std::vector<float> x(2 * 16, 1.0f);
  std::vector<uint8_t> data(16), scales(512);
  x[1 * 16 + 5] = kNaN;
  EXPECT_FALSE(quantizeBlockScaled(BlockScaledFormat::NVFP4, x.data(), 2, 16,
                                   data.data(), scales.data(), error));
  EXPECT_EQ(error, "x[1][5] = nan is not finite");
  x[1 * 16 + 5] = -kInf;
  EXPECT_FALSE(quantizeBlockScaled(BlockScaledFormat::NVFP4, x.data(), 2, 16,
                                   data.data(), scales.data(), error));
  EXPECT_EQ(error, "x[1][5] = -inf is not finite");
  x[1 * 16 + 5] = 1;
  EXPECT_FALSE(quantizeBlockScaled(BlockScaledFormat::MXFP8, nullptr, 2, 16,
                                   data.data(), scales.data(), error));
  EXPECT_EQ(error, "NULL x, data or scales buffer");
  EXPECT_FALSE(quantizeBlockScaled(BlockScaledFormat::NVFP4, x.data(), 2, 16,
                                   data.data(), nullptr, error));
  EXPECT_FALSE(quantizeBlockScaled(BlockScaledFormat::NVFP4, x.data(), -2, 16,
                                   data.data(), scales.data(), error));
  EXPECT_EQ(error, "nvfp4 matrix -2 x 16: extents must not be negative");
  std::vector<float> out(32);
  EXPECT_FALSE(dequantizeBlockScaled(BlockScaledFormat::NVFP4, data.data(),
                                     scales.data(), 2, 16, nullptr, error));
  EXPECT_EQ(error, "NULL data, scales or out buffer");
  EXPECT_FALSE(dequantizeBlockScaled(BlockScaledFormat::MXFP8, nullptr,
                                     scales.data(), 2, 16, out.data(), error));
  // Empty matrices need no buffers.
  EXPECT_TRUE(quantizeBlockScaled(BlockScaledFormat::MXFP8, nullptr, 0, 16,
                                  nullptr, nullptr, error))
      << error;
  EXPECT_TRUE(dequantizeBlockScaled(BlockScaledFormat::NVFP4, nullptr, nullptr,
                                    4, 0, nullptr, error))
      << error;
}

TEST(BlockScaleQuantize, DequantizeDecodesNaNCodes) {
  std::vector<uint8_t> data(32, 0x38), scales(512, 0x00);
  data[3] = 0xFF;
  scales[0] = 127; // 1.0
  std::vector<float> out(32);
  std::string error;
  ASSERT_TRUE(dequantizeBlockScaled(BlockScaledFormat::MXFP8, data.data(),
                                    scales.data(), 1, 32, out.data(), error));
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_TRUE(std::isnan(out[3]));
  scales[0] = 0xFF;
  ASSERT_TRUE(dequantizeBlockScaled(BlockScaledFormat::MXFP8, data.data(),
                                    scales.data(), 1, 32, out.data(), error));
  EXPECT_TRUE(std::isnan(out[0]));
}

} // namespace
