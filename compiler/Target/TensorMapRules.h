//===- TensorMapRules.h - TMA boxes for shared-memory tiles -----*- C++ -*-===//
//
// Decides how TMA (cp.async.bulk.tensor) fills a shared-memory tile: the
// tensor-map element type, the box extents, how many boxes one tile needs
// and where each lands, and the expect_tx byte count. The runtime encodes
// the map from the manifest (cuTensorMapEncodeTiled); the compiler emits the
// copies and the MMA descriptors. Both follow this one plan, so the smem
// layout that TMA writes is the canonical layout that CanonicalLayout.h
// describes to wgmma and tcgen05.
//
// Rules (CUDA 13 cuda.h; lowering-brief.md §5.3; sm90-hardware-check.md):
//   * box extents are 1..256 elements; box[0] x element size is a multiple
//     of 16 bytes;
//   * with a swizzle, box[0] x element size must not exceed the span, and
//     for the MMA's canonical layout it must equal it: a wider tile takes
//     several boxes, box j at smem offset j x rows x span;
//   * FP8 has no TMA type and travels as u8; packed FP4 uses
//     16U4_ALIGN8B, counted in 4-bit elements;
//   * a box is always written in full (out-of-bounds elements are filled),
//     so expect_tx is the full box bytes, even at the tensor's edges.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_TENSORMAPRULES_H
#define KILN_COMPILER_TARGET_TENSORMAPRULES_H

#include "compiler/Target/ElementType.h"
#include "compiler/Target/Swizzle.h"
#include "compiler/Target/ValueOrError.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace kiln::target {

/// The largest extent of any box dimension.
constexpr uint32_t tmaMaxBoxExtent = 256;

/// What an encodable tensor map guarantees of its global tensor: a base
/// address and strides (beyond the innermost) that are multiples of this
/// many bytes (the runtime checks it before encoding:
/// runtime/TensorMapParams.cpp).
constexpr uint32_t tmaGlobalAlignBytes = 16;

/// How a tensor of some element type is described to TMA.
struct TmaElement {
  /// The manifest's tensor-map element name: "bf16", "f16", "f32", "i32",
  /// "u8" or "u4x16_align8".
  std::string_view manifestName;
  /// CUtensorMapDataType value (UINT8 0, INT32 3, FLOAT16 6, FLOAT32 7,
  /// BFLOAT16 9, 16U4_ALIGN8B 13).
  unsigned cudaDataType = 0;
  /// Bits of one map element; box extents count these.
  unsigned bits = 0;
};

/// The TMA element for `type`: e4m3/e5m2/s8/scale factors travel as u8,
/// tf32 as f32, packed e2m1 as u4x16_align8. Fails for types TMA cannot
/// move.
ValueOrError<TmaElement> tmaElementFor(ElementType type);

/// How TMA fills one shared-memory tile of `rows` x `innerElements`.
struct TmaBoxPlan {
  TmaElement element;
  SwizzleMode swizzle = SwizzleMode::None;
  /// Box extents, innermost first, in map elements: {inner, rows}.
  std::array<uint32_t, 2> box = {0, 0};
  /// Boxes per tile along the inner dimension; box j starts at global inner
  /// coordinate base + j * box[0].
  uint32_t boxCount = 0;
  /// Smem distance between consecutive boxes: rows x box inner bytes.
  uint32_t boxSmemStrideBytes = 0;
  /// Bytes one box writes.
  uint32_t boxBytes = 0;
  /// The mbarrier transaction count for the whole tile (boxCount x
  /// boxBytes).
  uint32_t expectTxBytes = 0;
  /// Alignment of the tile's smem start: 1024 B for every swizzle (keeps
  /// base_offset 0; the only layout run on hardware), 128 B otherwise (the
  /// TMA minimum).
  uint32_t smemAlignmentBytes = 0;
};

/// What an unswizzled tile is for. Swizzled tiles are planned the same way
/// for both uses: one span per box is both the MMA's canonical layout and
/// the widest box TMA accepts.
enum class TmaTileUse : uint8_t {
  /// One plain row-major box (epilogue staging, generic copies).
  RowMajor,
  /// An MMA operand in the canonical unswizzled layout: 16-byte-wide boxes
  /// whose 8-row groups are the 128-byte core matrices, box j at
  /// j x rows x 16 B (CanonicalLayout.h).
  MmaOperand,
};

/// Plans the boxes for a `rows` x `innerElements` tile (innerElements are
/// contiguous in global memory: K for K-major operands, M/N for MN-major).
/// With a swizzle, each box is exactly one span wide. Without one, `use`
/// decides between a single row-major box and 16-byte core-matrix columns.
/// Errors name the offending extent, e.g. "box inner extent 80 x 2 B =
/// 160 B exceeds the 128B swizzle span and is not a multiple of it".
ValueOrError<TmaBoxPlan> planTmaBoxes(ElementType type, uint32_t rows,
                                      uint32_t innerElements,
                                      SwizzleMode swizzle,
                                      TmaTileUse use = TmaTileUse::RowMajor);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_TENSORMAPRULES_H
