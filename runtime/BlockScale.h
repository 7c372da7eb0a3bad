//===- BlockScale.h - Host reference of block-scaled formats --*- C++ -*-===//
//
// NVFP4 (e2m1 data, one UE4M3 scale per 16 elements along K) and MXFP8 (e4m3
// data, one UE8M0 scale per 32 elements along K) in the exact bytes the
// sm_100a block-scaled MMAs read: data K-major, scales in the 512-byte
// scale-factor atom, atoms K-fastest. The compiler (compiler/Target/
// BlockScaleLayout.h) takes the atom layout from here, the runtime's C API and
// the Python package expose quantize/dequantize, and GPU tests build their
// operands with it, so there is one definition of the layout. Plain C++ (no
// MLIR, no CUDA, no exceptions, no allocation); docs/runtime.md, "Block-scaled
// formats", states every convention below.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_BLOCKSCALE_H
#define KILN_RUNTIME_BLOCKSCALE_H

#include <cstdint>
#include <string>

namespace kiln {

//===----------------------------------------------------------------------===//
// Element codecs. Encoders round to nearest, ties to even, and saturate finite
// and infinite magnitudes beyond the largest finite value to it (PTX
// `cvt.rn.satfinite`); decoders are exact.
//===----------------------------------------------------------------------===//

/// E2M1 (4 bits: sign, 2 exponent bits with bias 1, 1 mantissa bit): codes
/// 0..7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6, codes 8..15 their negatives. No NaN or
/// infinity; NaN encodes as +6 (quantize refuses non-finite input before it
/// gets here). The code is in the low nibble of the result.
uint8_t encodeE2M1(float value);
/// The value of the low nibble of `code`.
float decodeE2M1(uint8_t code);

/// FP8 E4M3 "fn" (bias 7): no infinity, largest finite 448 (0x7E), smallest
/// subnormal 2^-9 (0x01), NaN 0x7F and 0xFF (NaN encodes as 0x7F).
uint8_t encodeE4M3(float value);
float decodeE4M3(uint8_t code);

/// UE4M3: E4M3 with the sign bit 0 (the NVFP4 scale type): 0x00..0x7E, NaN
/// 0x7F. Negative values (and -0) encode as 0x00; bytes with bit 7 set are not
/// UE4M3 codes and decode as NaN.
uint8_t encodeUE4M3(float value);
float decodeUE4M3(uint8_t code);

/// UE8M0 (the MX scale type): code e is 2^(e - 127) for e = 0..254 (2^-127 ..
/// 2^127; there is no zero), 0xFF is NaN.
float decodeUE8M0(uint8_t code);
/// The smallest power of two >= `value`, as PTX `cvt.rp.satfinite.ue8m0x2`:
/// values <= 2^-127 (zero and negatives included) give 0x00, values above
/// 2^127 (infinity included) 0xFE, NaN 0xFF.
uint8_t encodeUE8M0RoundUp(float value);

//===----------------------------------------------------------------------===//
// The scale-factor atom: 128 rows (M or N) x 4 scale blocks along K in 512
// bytes. Row m = m0 + 32 * m1 (m0 < 32, m1 < 4) and block kb (< 4) live at
// byte 16 * m0 + 4 * m1 + kb (CUTLASS Sm1xxBlockScaledBasicChunk; the order
// tcgen05.cp.32x128b.warpx4 copies into tensor memory). A scale tensor of
// `rows` x `kBlocks` is padded to whole atoms, ordered K-fastest.
//===----------------------------------------------------------------------===//

/// Rows one atom covers.
constexpr uint32_t kScaleAtomRows = 128;
/// Scale blocks along K one atom covers.
constexpr uint32_t kScaleAtomKBlocks = 4;
/// Bytes of one atom.
constexpr uint32_t kScaleAtomBytes = 512;

/// Byte offset of (row, kBlock) inside one atom: 16 * (row % 32) +
/// 4 * (row / 32) + kBlock. Fails unless row < 128 and kBlock < 4.
bool scaleFactorAtomOffset(uint32_t row, uint32_t kBlock, uint32_t &offset,
                           std::string &error);

/// Byte offset of the scale of (row, kBlock) in a scale tensor whose rows have
/// `kBlocks` blocks: ((row / 128) * ceil(kBlocks / 4) + kBlock / 4) * 512 +
/// the atom offset of (row % 128, kBlock % 4). Fails unless kBlock < kBlocks.
bool scaleFactorOffset(uint64_t row, uint64_t kBlock, uint64_t kBlocks,
                       uint64_t &offset, std::string &error);

/// Bytes of a `rows` x `kBlocks` scale tensor padded to whole atoms:
/// ceil(rows / 128) * ceil(kBlocks / 4) * 512. The caller keeps the extents
/// small enough for the product to fit (checkBlockScaledShape does).
uint64_t scaleFactorBytes(uint64_t rows, uint64_t kBlocks);

//===----------------------------------------------------------------------===//
// Quantized matrices. A float matrix x[rows][k] (row-major) becomes
//   data:   rows x kPadded elements, K-major (row r at byte r * rowBytes), with
//           kPadded = k rounded up to the block and the padding elements 0;
//           NVFP4 packs two e2m1 per byte, element 2i in the low nibble of
//           byte i (rowBytes = kPadded / 2); MXFP8 is one e4m3 per byte;
//   scales: one byte per (row, block) at scaleFactorOffset, the atom padding
//           (rows beyond `rows`, blocks beyond ceil(k / block)) all 0x00.
// Scale rules (per row and block, amax = the largest |x| in the block):
//   NVFP4: scale = encodeUE4M3(amax / 6) (nearest, ties to even), elements
//          e2m1(x / scale), saturating at +-6; a zero scale gives zero
//          elements.
//   MXFP8: scale = encodeUE8M0RoundUp(amax / 448), i.e. 2^ceil(log2(amax /
//          448)), so |x| / scale <= 448 always; elements e4m3(x / scale).
// An all-zero block gets scale byte 0x00 (like the padding).
//===----------------------------------------------------------------------===//

enum class BlockScaledFormat {
  /// e2m1 data, UE4M3 scale per 16 elements (tcgen05 kind::mxf4nvf4.block16).
  NVFP4,
  /// e4m3 data, UE8M0 scale per 32 elements (tcgen05 kind::mxf8f6f4.block32).
  MXFP8,
};

/// "nvfp4" or "mxfp8".
const char *blockScaledFormatName(BlockScaledFormat format);
/// Elements along K one scale covers: 16 (NVFP4) or 32 (MXFP8).
uint32_t blockScaledBlockSize(BlockScaledFormat format);

/// The extents and buffer sizes of a quantized `rows` x `k` matrix.
struct BlockScaledShape {
  int64_t rows = 0;
  int64_t k = 0;
  /// k rounded up to a whole number of blocks.
  int64_t kPadded = 0;
  /// Scale blocks per row: kPadded / block.
  int64_t kBlocks = 0;
  /// Bytes of one data row.
  int64_t rowBytes = 0;
  /// Bytes of the data: rows * rowBytes.
  int64_t dataBytes = 0;
  /// Bytes of the scales: scaleFactorBytes(rows, kBlocks).
  int64_t scaleBytes = 0;
};

/// Fills `shape` for a `rows` x `k` matrix. Fails on negative extents and on
/// sizes beyond 2^53 bytes or elements.
bool checkBlockScaledShape(BlockScaledFormat format, int64_t rows, int64_t k,
                           BlockScaledShape &shape, std::string &error);

/// Quantizes x[rows][k] (row-major floats) into `data` (shape.dataBytes) and
/// `scales` (shape.scaleBytes), writing every byte of both. Fails, naming the
/// element, on a NaN or infinite input, and on NULL buffers of non-zero size.
bool quantizeBlockScaled(BlockScaledFormat format, const float *x, int64_t rows,
                         int64_t k, uint8_t *data, uint8_t *scales,
                         std::string &error);

/// The exact values data * scale as out[rows][k] (row-major; the K padding is
/// dropped). NaN codes decode as NaN; a product beyond the float range (only
/// MXFP8 scales above 2^119 can make one) is infinite. Fails on NULL buffers
/// of non-zero size.
bool dequantizeBlockScaled(BlockScaledFormat format, const uint8_t *data,
                           const uint8_t *scales, int64_t rows, int64_t k,
                           float *out, std::string &error);

} // namespace kiln

#endif // KILN_RUNTIME_BLOCKSCALE_H
