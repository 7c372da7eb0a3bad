//===- TensorMapParams.cpp - Tensor-map arguments -------------------------===//

#include "runtime/TensorMapParams.h"

#include "runtime/Format.h"

namespace kiln {

TmaDataType tmaDataType(TmaElement e) {
  switch (e) {
  case TmaElement::BF16:
    return TmaDataType::BFloat16;
  case TmaElement::F16:
    return TmaDataType::Float16;
  case TmaElement::F32:
    return TmaDataType::Float32;
  case TmaElement::I32:
    return TmaDataType::Int32;
  case TmaElement::U8:
    return TmaDataType::UInt8;
  case TmaElement::U4x16Align8:
    return TmaDataType::U4x16Align8B;
  }
  return TmaDataType::UInt8;
}

bool TensorMapEncoding::operator==(const TensorMapEncoding &o) const {
  if (dataType != o.dataType || rank != o.rank || address != o.address ||
      interleave != o.interleave || swizzle != o.swizzle ||
      l2Promotion != o.l2Promotion || oobFill != o.oobFill)
    return false;
  for (uint32_t i = 0; i < rank && i < 5; ++i) {
    if (dims[i] != o.dims[i] || box[i] != o.box[i] ||
        elementStrides[i] != o.elementStrides[i])
      return false;
    if (i + 1 < rank && strides[i] != o.strides[i])
      return false;
  }
  return true;
}

namespace {

constexpr uint64_t kMaxGlobalDim = uint64_t(1) << 32;
constexpr uint64_t kMaxGlobalStride = uint64_t(1) << 40;

/// Finds why `t` cannot be described by map `m`; fills `enc` as it goes.
/// Returns an empty string when the tensor is describable.
std::string describe(const PlannedParam &p, const PlannedMap &m,
                     const Tensor &t, TensorMapEncoding &enc) {
  int rank = t.rank;
  enc.dataType = static_cast<uint32_t>(tmaDataType(m.element));
  enc.rank = static_cast<uint32_t>(rank);
  enc.address = t.data;
  for (int i = 0; i < rank; ++i) {
    enc.box[i] = m.box[i];
    enc.elementStrides[i] = 1;
  }
  enc.interleave = 0;
  enc.swizzle = static_cast<uint32_t>(m.swizzle);
  enc.l2Promotion = static_cast<uint32_t>(m.l2Promotion);
  enc.oobFill = static_cast<uint32_t>(m.oobFill);

  for (int a = 0; a < rank; ++a)
    if (t.shape[a] == 0)
      return "it is empty (axis " + std::to_string(a) +
             " has extent 0) and a tensor map cannot describe an empty tensor";
  if (t.data % 16 != 0)
    return "data pointer " + hexAddress(t.data) +
           " is not 16-byte aligned, which a tensor map needs";
  int inner = rank - 1;
  if (t.shape[inner] > 1 && t.strides[inner] != 1)
    return "axis " + std::to_string(inner) + " (innermost) has stride " +
           std::to_string(t.strides[inner]) +
           "; a tensor map needs it contiguous";

  // Global dims, innermost first. Only the innermost changes unit: packed e2m1
  // read as u8 bytes has half as many map elements as values.
  for (int i = 0; i < rank; ++i) {
    int axis = rank - 1 - i;
    uint64_t extent = static_cast<uint64_t>(t.shape[axis]);
    if (i == 0 && p.bits != m.elementBits) {
      uint64_t bitsTotal = extent * p.bits;
      if (bitsTotal % m.elementBits != 0)
        return "innermost extent " + std::to_string(extent) + " " +
               dtypeName(p.dtype) + " values is not a whole number of " +
               tmaElementName(m.element) + " map elements";
      extent = bitsTotal / m.elementBits;
    }
    if (extent > kMaxGlobalDim)
      return "axis " + std::to_string(axis) + " has extent " +
             std::to_string(extent) + ", above the tensor map limit of 2^32";
    enc.dims[i] = extent;
  }
  if (m.clampRows && rank >= 2)
    enc.box[1] = static_cast<uint32_t>(
        clampedBoxRows(enc.box[1], static_cast<int64_t>(enc.dims[1])));
  // Optional maps are written by bulk (TMA) stores, which clip at 16-byte
  // granularity along the innermost axis: a row whose bytes are not a
  // multiple of 16 would get up to 15 bytes written past its end (seen on
  // an H200 with a strided view). Such outputs take the direct-store path.
  if (m.optional && (enc.dims[0] * m.elementBits) % 128 != 0)
    return "innermost extent " + std::to_string(enc.dims[0]) + " x " +
           std::to_string(m.elementBits) +
           " bits is not a multiple of 16 bytes, and a bulk store would write "
           "past it";
  if (m.element == TmaElement::U4x16Align8 && enc.dims[0] % 2 != 0)
    return "innermost extent " + std::to_string(enc.dims[0]) +
           " is odd; u4x16_align8 maps need an even number of 4-bit values";

  // Byte strides of axes rank-2 .. 0.
  uint64_t perSixteen = 128 / p.bits; // elements per 16 bytes, for the hint
  for (int i = 0; i + 1 < rank; ++i) {
    int axis = rank - 2 - i;
    int64_t s = t.strides[axis];
    // Strides come from the caller; clamp before multiplying so nothing
    // overflows.
    bool huge = s > (int64_t(1) << 44);
    bool wholeBytes = huge || (s * static_cast<int64_t>(p.bits)) % 8 == 0;
    uint64_t bytes = huge         ? kMaxGlobalStride
                     : wholeBytes ? static_cast<uint64_t>(s) * p.bits / 8
                                  : 0;
    bool usable =
        wholeBytes && bytes > 0 && bytes % 16 == 0 && bytes < kMaxGlobalStride;
    if (!usable && t.shape[axis] == 1) {
      enc.strides[i] =
          16; // never stepped: any legal stride describes the same memory
      continue;
    }
    std::string axisWhere = "axis " + std::to_string(axis);
    if (s == 0)
      return axisWhere +
             " has stride 0 (a broadcast view), which a tensor map cannot "
             "describe;" +
             " materialize it (.contiguous())";
    if (!wholeBytes)
      return axisWhere + " has stride " + std::to_string(s) + " " +
             dtypeName(p.dtype) + " values, not a whole number of bytes";
    if (bytes >= kMaxGlobalStride)
      return axisWhere + " has stride " + std::to_string(s) +
             " elements, at or above the tensor map limit of 2^40 bytes";
    if (bytes % 16 != 0)
      return axisWhere + " has stride " + std::to_string(s) + " " +
             dtypeName(p.dtype) + " elements = " + std::to_string(bytes) +
             " bytes, not a multiple of 16 bytes as a tensor map needs; pad it "
             "to a multiple of " +
             std::to_string(perSixteen) + " elements";
    enc.strides[i] = bytes;
  }
  return std::string();
}

} // namespace

bool planTensorMap(const LaunchPlan &plan, int map, const Tensor &t,
                   TmaDecision &out, std::string &error) {
  const PlannedMap &m = plan.maps[map];
  const PlannedParam &p = plan.params[m.param];
  out = TmaDecision();
  if (t.rank != m.rank || t.rank < 1 || t.rank > 5) {
    error = "param '" + p.name + "' (" + plan.mapPath(map) + "): rank " +
            std::to_string(t.rank) + ", the map expects " +
            std::to_string(m.rank);
    return false;
  }
  std::string why = describe(p, m, t, out.encoding);
  if (why.empty()) {
    out.encode = true;
    return true;
  }
  if (m.optional) {
    out.encode = false;
    out.encoding = TensorMapEncoding();
    out.skipReason =
        "param '" + p.name + "' (" + plan.mapPath(map) + "): " + why;
    return true;
  }
  // A variant's map is named with its entry: the caller did not pick it, the
  // launch's dims did.
  std::string who = plan.variant == 0 ? std::string("the kernel")
                                      : "entry '" + plan.manifest.entry +
                                            "', chosen for these dims,";
  error = "param '" + p.name + "': " + why + " (" + who +
          " accesses it through " + plan.mapPath(map) +
          ", which is not optional)";
  return false;
}

} // namespace kiln
