//===- BlockScale.cpp - Host reference of the block-scaled formats --------===//

#include "runtime/BlockScale.h"

#include <cmath>
#include <limits>

namespace kiln {

namespace {

/// A small binary float format with subnormals and no infinity.
struct MiniFloat {
  int mantissaBits;
  int bias;
  /// The largest finite magnitude.
  double maxFinite;
};

constexpr MiniFloat kE2M1 = {1, 1, 6.0};
constexpr MiniFloat kE4M3 = {3, 7, 448.0};

/// Rounds q >= 0 to the nearest integer, ties to even, without depending on
/// the floating-point environment.
double roundHalfEven(double q) {
  double floorQ = std::floor(q);
  double rest = q - floorQ;
  if (rest > 0.5)
    return floorQ + 1;
  if (rest < 0.5)
    return floorQ;
  return std::fmod(floorQ, 2.0) == 0 ? floorQ : floorQ + 1;
}

/// The exponent and mantissa fields (sign excluded) of the representable value
/// nearest `magnitude` (finite, >= 0), ties to even, saturating at maxFinite.
uint8_t encodeMagnitude(const MiniFloat &f, double magnitude) {
  const int m = f.mantissaBits;
  const double minNormal = std::ldexp(1.0, 1 - f.bias);
  const double subnormalQuantum = std::ldexp(1.0, 1 - f.bias - m);
  double rounded;
  if (magnitude >= f.maxFinite) {
    rounded = f.maxFinite;
  } else {
    double quantum = subnormalQuantum;
    if (magnitude >= minNormal) {
      int exponent;
      std::frexp(magnitude, &exponent); // magnitude in [2^(e-1), 2^e)
      quantum = std::ldexp(1.0, exponent - 1 - m);
    }
    // Exact: the quotient and product are by powers of two.
    rounded = roundHalfEven(magnitude / quantum) * quantum;
  }
  if (rounded < minNormal) // subnormal (or zero): exponent field 0
    return static_cast<uint8_t>(rounded / subnormalQuantum);
  int exponent;
  std::frexp(rounded, &exponent);
  int biased = exponent - 1 + f.bias;
  double mantissa = rounded / std::ldexp(1.0, exponent - 1 - m) - (1 << m);
  return static_cast<uint8_t>((biased << m) | static_cast<int>(mantissa));
}

/// The value of the exponent and mantissa fields `bits` (sign excluded).
double decodeMagnitude(const MiniFloat &f, unsigned bits) {
  const int m = f.mantissaBits;
  unsigned mantissa = bits & ((1u << m) - 1);
  int biased = static_cast<int>(bits >> m);
  if (biased == 0)
    return std::ldexp(static_cast<double>(mantissa), 1 - f.bias - m);
  return std::ldexp(static_cast<double>(mantissa + (1u << m)),
                    biased - f.bias - m);
}

float quietNaN() { return std::numeric_limits<float>::quiet_NaN(); }

uint64_t ceilDiv(uint64_t value, uint64_t divisor) {
  return (value + divisor - 1) / divisor;
}

/// Elements (or bytes) we are willing to address: every size stays exact in a
/// double and far from int64 overflow.
constexpr int64_t kMaxSize = int64_t(1) << 53;

uint8_t encodeSigned(const MiniFloat &f, double value, uint8_t signBit) {
  uint8_t sign = std::signbit(value) ? signBit : 0;
  return sign | encodeMagnitude(f, std::fabs(value));
}

// The encoders on doubles: quantize divides in double and rounds once.
uint8_t e2m1FromDouble(double value) {
  return std::isnan(value) ? 0x7 : encodeSigned(kE2M1, value, 0x8);
}

uint8_t e4m3FromDouble(double value) {
  return std::isnan(value) ? 0x7F : encodeSigned(kE4M3, value, 0x80);
}

uint8_t ue4m3FromDouble(double value) {
  if (std::isnan(value))
    return 0x7F;
  return std::signbit(value) ? 0x00 : encodeMagnitude(kE4M3, value);
}

uint8_t ue8m0RoundUpFromDouble(double value) {
  if (std::isnan(value))
    return 0xFF;
  if (value <= std::ldexp(1.0, -127))
    return 0x00;
  if (value > std::ldexp(1.0, 127))
    return 0xFE;
  int exponent;
  double fraction =
      std::frexp(value, &exponent); // value = fraction * 2^exponent
  int log2Ceil = fraction == 0.5 ? exponent - 1 : exponent;
  return static_cast<uint8_t>(log2Ceil + 127);
}

uint8_t encodeScale(BlockScaledFormat format, double amax) {
  // amax has 24 significant bits, so amax / 6 and amax / 448 in double are
  // never rounded onto an e4m3 tie or a power of two they are not exactly.
  if (format == BlockScaledFormat::NVFP4)
    return ue4m3FromDouble(amax / 6.0);
  return ue8m0RoundUpFromDouble(amax / 448.0);
}

double decodeScale(BlockScaledFormat format, uint8_t code) {
  return format == BlockScaledFormat::NVFP4 ? decodeUE4M3(code)
                                            : decodeUE8M0(code);
}

} // namespace

uint8_t encodeE2M1(float value) { return e2m1FromDouble(value); }

float decodeE2M1(uint8_t code) {
  double magnitude = decodeMagnitude(kE2M1, code & 0x7);
  return static_cast<float>((code & 0x8) ? -magnitude : magnitude);
}

uint8_t encodeE4M3(float value) { return e4m3FromDouble(value); }

float decodeE4M3(uint8_t code) {
  if ((code & 0x7F) == 0x7F)
    return quietNaN();
  double magnitude = decodeMagnitude(kE4M3, code & 0x7F);
  return static_cast<float>((code & 0x80) ? -magnitude : magnitude);
}

uint8_t encodeUE4M3(float value) { return ue4m3FromDouble(value); }

float decodeUE4M3(uint8_t code) {
  if (code & 0x80)
    return quietNaN();
  return decodeE4M3(code);
}

float decodeUE8M0(uint8_t code) {
  if (code == 0xFF)
    return quietNaN();
  return std::ldexp(1.0f, static_cast<int>(code) - 127);
}

uint8_t encodeUE8M0RoundUp(float value) {
  return ue8m0RoundUpFromDouble(value);
}

bool scaleFactorAtomOffset(uint32_t row, uint32_t kBlock, uint32_t &offset,
                           std::string &error) {
  if (row >= kScaleAtomRows || kBlock >= kScaleAtomKBlocks) {
    error = "scale-factor atom position (row " + std::to_string(row) +
            ", block " + std::to_string(kBlock) +
            ") is outside the 128 x 4 atom";
    return false;
  }
  offset = 16 * (row % 32) + 4 * (row / 32) + kBlock;
  return true;
}

bool scaleFactorOffset(uint64_t row, uint64_t kBlock, uint64_t kBlocks,
                       uint64_t &offset, std::string &error) {
  if (kBlock >= kBlocks) {
    error = "scale block " + std::to_string(kBlock) + " is beyond the " +
            std::to_string(kBlocks) + " blocks of a row";
    return false;
  }
  uint64_t atomsAlongK = ceilDiv(kBlocks, kScaleAtomKBlocks);
  uint64_t atom =
      (row / kScaleAtomRows) * atomsAlongK + kBlock / kScaleAtomKBlocks;
  uint32_t inside = 0;
  scaleFactorAtomOffset(static_cast<uint32_t>(row % kScaleAtomRows),
                        static_cast<uint32_t>(kBlock % kScaleAtomKBlocks),
                        inside, error);
  offset = atom * kScaleAtomBytes + inside;
  return true;
}

uint64_t scaleFactorBytes(uint64_t rows, uint64_t kBlocks) {
  return ceilDiv(rows, kScaleAtomRows) * ceilDiv(kBlocks, kScaleAtomKBlocks) *
         kScaleAtomBytes;
}

const char *blockScaledFormatName(BlockScaledFormat format) {
  return format == BlockScaledFormat::NVFP4 ? "nvfp4" : "mxfp8";
}

uint32_t blockScaledBlockSize(BlockScaledFormat format) {
  return format == BlockScaledFormat::NVFP4 ? 16 : 32;
}

bool checkBlockScaledShape(BlockScaledFormat format, int64_t rows, int64_t k,
                           BlockScaledShape &shape, std::string &error) {
  std::string what = std::string(blockScaledFormatName(format)) + " matrix " +
                     std::to_string(rows) + " x " + std::to_string(k);
  if (rows < 0 || k < 0) {
    error = what + ": extents must not be negative";
    return false;
  }
  // Each extent below 2^53 keeps the sums below from overflowing; then the
  // products are checked by division.
  if (rows >= kMaxSize || k >= kMaxSize) {
    error = what + " is too large";
    return false;
  }
  const int64_t block = blockScaledBlockSize(format);
  BlockScaledShape s;
  s.rows = rows;
  s.k = k;
  s.kPadded = (k + block - 1) / block * block;
  s.kBlocks = s.kPadded / block;
  s.rowBytes = format == BlockScaledFormat::NVFP4 ? s.kPadded / 2 : s.kPadded;
  int64_t paddedRows = static_cast<int64_t>(
      ceilDiv(static_cast<uint64_t>(rows), kScaleAtomRows) * kScaleAtomRows);
  int64_t paddedBlocks = static_cast<int64_t>(
      ceilDiv(static_cast<uint64_t>(s.kBlocks), kScaleAtomKBlocks) *
      kScaleAtomKBlocks);
  if ((s.kPadded != 0 && rows > kMaxSize / s.kPadded) ||
      (paddedBlocks != 0 && paddedRows > kMaxSize / paddedBlocks)) {
    error = what + " is too large";
    return false;
  }
  s.dataBytes = rows * s.rowBytes;
  s.scaleBytes = static_cast<int64_t>(scaleFactorBytes(
      static_cast<uint64_t>(rows), static_cast<uint64_t>(s.kBlocks)));
  shape = s;
  return true;
}

bool quantizeBlockScaled(BlockScaledFormat format, const float *x, int64_t rows,
                         int64_t k, uint8_t *data, uint8_t *scales,
                         std::string &error) {
  BlockScaledShape shape;
  if (!checkBlockScaledShape(format, rows, k, shape, error))
    return false;
  if ((!x && rows * k > 0) || (!data && shape.dataBytes > 0) ||
      (!scales && shape.scaleBytes > 0)) {
    error = "NULL x, data or scales buffer";
    return false;
  }
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < k; ++c)
      if (!std::isfinite(x[r * k + c])) {
        error = "x[" + std::to_string(r) + "][" + std::to_string(c) +
                "] = " + std::to_string(x[r * k + c]) + " is not finite";
        return false;
      }

  const bool fp4 = format == BlockScaledFormat::NVFP4;
  const int64_t block = blockScaledBlockSize(format);
  for (int64_t i = 0; i < shape.dataBytes; ++i)
    data[i] = 0;
  for (int64_t i = 0; i < shape.scaleBytes; ++i)
    scales[i] = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = x + r * k;
    uint8_t *dataRow = data + r * shape.rowBytes;
    for (int64_t kb = 0; kb < shape.kBlocks; ++kb) {
      int64_t begin = kb * block;
      int64_t end = begin + block < k ? begin + block : k;
      double amax = 0;
      for (int64_t c = begin; c < end; ++c)
        amax = std::fmax(amax, std::fabs(static_cast<double>(row[c])));
      uint8_t scaleCode = encodeScale(format, amax);
      uint64_t offset = 0;
      scaleFactorOffset(static_cast<uint64_t>(r), static_cast<uint64_t>(kb),
                        static_cast<uint64_t>(shape.kBlocks), offset, error);
      scales[offset] = scaleCode;
      double scale = decodeScale(format, scaleCode);
      if (scale == 0)
        continue; // the elements stay 0
      for (int64_t c = begin; c < end; ++c) {
        // Exact for MXFP8 (a power of two). For NVFP4 x has 24 significant
        // bits and the scale 4, so the double quotient is within 2^-53 of the
        // true one and only exactly on an e2m1 tie when the true one is.
        double scaled = row[c] / scale;
        if (fp4)
          dataRow[c / 2] |=
              static_cast<uint8_t>(e2m1FromDouble(scaled) << (4 * (c % 2)));
        else
          dataRow[c] = e4m3FromDouble(scaled);
      }
    }
  }
  return true;
}

bool dequantizeBlockScaled(BlockScaledFormat format, const uint8_t *data,
                           const uint8_t *scales, int64_t rows, int64_t k,
                           float *out, std::string &error) {
  BlockScaledShape shape;
  if (!checkBlockScaledShape(format, rows, k, shape, error))
    return false;
  if ((!out && rows * k > 0) || (!data && shape.dataBytes > 0) ||
      (!scales && shape.scaleBytes > 0)) {
    error = "NULL data, scales or out buffer";
    return false;
  }
  const bool fp4 = format == BlockScaledFormat::NVFP4;
  const int64_t block = blockScaledBlockSize(format);
  for (int64_t r = 0; r < rows; ++r) {
    const uint8_t *dataRow = data + r * shape.rowBytes;
    for (int64_t c = 0; c < k; ++c) {
      uint64_t offset = 0;
      scaleFactorOffset(static_cast<uint64_t>(r),
                        static_cast<uint64_t>(c / block),
                        static_cast<uint64_t>(shape.kBlocks), offset, error);
      double scale = decodeScale(format, scales[offset]);
      double element = fp4 ? decodeE2M1(dataRow[c / 2] >> (4 * (c % 2)))
                           : decodeE4M3(dataRow[c]);
      // Exact in double (at most 4 + 4 significant bits); the float
      // conversion is exact unless the product leaves the float range.
      out[r * k + c] = static_cast<float>(element * scale);
    }
  }
  return true;
}

} // namespace kiln
