//===- HostData.cpp - Host-side element codecs and random data ------------===//

#include "HostData.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace kiln {
namespace tools {

size_t storageBytes(DType t, int64_t count) {
  return static_cast<size_t>((count * dtypeBits(t) + 7) / 8);
}

bool bufferSize(DType t, const std::vector<int64_t> &shape, int64_t &numel,
                size_t &bytes) {
  numel = 1;
  for (int64_t v : shape)
    if (v < 0 || __builtin_mul_overflow(numel, v, &numel) ||
        numel > kMaxBufferElements)
      return false;
  bytes = storageBytes(t, numel);
  return true;
}

/// A minifloat with `manBits` mantissa bits and exponent bias `bias`
/// (subnormals at exp 0).
static double decodeMinifloat(unsigned sign, unsigned exp, unsigned man,
                              int manBits, int bias) {
  double v = exp == 0 ? std::ldexp(static_cast<double>(man), 1 - bias - manBits)
                      : std::ldexp(static_cast<double>(man | (1u << manBits)),
                                   static_cast<int>(exp) - bias - manBits);
  return sign ? -v : v;
}

double decodeElement(DType t, const uint8_t *bytes, int64_t i) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (t) {
  case DType::F32: {
    float f;
    std::memcpy(&f, bytes + 4 * i, 4);
    return f;
  }
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, bytes + 4 * i, 4);
    return v;
  }
  case DType::BF16: {
    uint16_t h;
    std::memcpy(&h, bytes + 2 * i, 2);
    uint32_t u = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  case DType::F16: {
    uint16_t h;
    std::memcpy(&h, bytes + 2 * i, 2);
    unsigned e = (h >> 10) & 31, m = h & 1023;
    if (e == 31)
      return m ? nan : ((h >> 15) ? -INFINITY : INFINITY);
    return decodeMinifloat(h >> 15, e, m, 10, 15);
  }
  case DType::E4M3: {
    uint8_t c = bytes[i];
    unsigned e = (c >> 3) & 15, m = c & 7;
    if (e == 15 && m == 7)
      return nan; // e4m3fn has no infinities
    return decodeMinifloat(c >> 7, e, m, 3, 7);
  }
  case DType::E5M2: {
    uint8_t c = bytes[i];
    unsigned e = (c >> 2) & 31, m = c & 3;
    if (e == 31)
      return m ? nan : ((c >> 7) ? -INFINITY : INFINITY);
    return decodeMinifloat(c >> 7, e, m, 2, 15);
  }
  case DType::E2M1: {
    uint8_t c = bytes[i / 2];
    unsigned nib = (i % 2) ? (c >> 4) : (c & 15);
    return decodeMinifloat(nib >> 3, (nib >> 1) & 3, nib & 1, 1, 1);
  }
  case DType::UE8M0: {
    uint8_t c = bytes[i];
    return c == 255 ? nan : std::ldexp(1.0, static_cast<int>(c) - 127);
  }
  }
  return nan;
}

void fillRandom(DType t, Fill fill, std::vector<uint8_t> &bytes, int64_t n,
                std::mt19937_64 &rng) {
  bytes.assign(storageBytes(t, n), 0);
  auto bits = [&](unsigned count) {
    return static_cast<unsigned>(rng() & ((1u << count) - 1));
  };
  auto pick = [&](int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  bool scale = fill == Fill::Scale;
  for (int64_t i = 0; i < n; ++i) {
    unsigned sign = scale ? 0 : bits(1);
    int e = scale ? pick(-2, 2) : pick(-4, -1); // value in [2^e, 2^(e+1))
    switch (t) {
    case DType::F32: {
      float f = std::ldexp(1.0f + static_cast<float>(bits(20)) / (1 << 20), e);
      if (scale)
        f = std::ldexp(1.0f, e);
      f = sign ? -f : f;
      std::memcpy(&bytes[4 * i], &f, 4);
      break;
    }
    case DType::I32: {
      int32_t v = 0; // integer inputs carry meaning (offsets); kiln-run sets
                     // them explicitly
      std::memcpy(&bytes[4 * i], &v, 4);
      break;
    }
    case DType::BF16: {
      uint16_t h = static_cast<uint16_t>((sign << 15) | ((e + 127) << 7) |
                                         (scale ? 0 : bits(7)));
      std::memcpy(&bytes[2 * i], &h, 2);
      break;
    }
    case DType::F16: {
      uint16_t h = static_cast<uint16_t>((sign << 15) | ((e + 15) << 10) |
                                         (scale ? 0 : bits(10)));
      std::memcpy(&bytes[2 * i], &h, 2);
      break;
    }
    case DType::E4M3:
      bytes[i] = static_cast<uint8_t>((sign << 7) | ((e + 7) << 3) |
                                      (scale ? 0 : bits(3)));
      break;
    case DType::E5M2:
      bytes[i] = static_cast<uint8_t>((sign << 7) | ((e + 15) << 2) |
                                      (scale ? 0 : bits(2)));
      break;
    case DType::E2M1: {
      // Codes 1..7 are 0.5 .. 6; scales of e2m1 make no sense, so Scale
      // fills 1.0 (code 2).
      unsigned nib =
          scale ? 2u : ((sign << 3) | static_cast<unsigned>(pick(1, 7)));
      bytes[i / 2] |= static_cast<uint8_t>(nib << ((i % 2) * 4));
      break;
    }
    case DType::UE8M0:
      bytes[i] = static_cast<uint8_t>(127 + (scale ? e : pick(-2, 2)));
      break;
    }
  }
}

} // namespace tools
} // namespace kiln
