//===- Manifest.cpp - Read, check and write launch manifests --------------===//
//
// nlohmann-json throws on malformed input and on type mismatches; every entry
// point here catches everything, because the compiler that links this library
// is built without exceptions.
//
//===----------------------------------------------------------------------===//

#include "runtime/Manifest.h"

#include "runtime/FileRead.h"
#include "runtime/Limits.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>
#include <set>

namespace kiln {

using Json = nlohmann::ordered_json;

//===----------------------------------------------------------------------===//
// Enum spellings
//===----------------------------------------------------------------------===//

namespace {

/// A name table for one enum; the order is the enum's.
template <typename E, size_t N> struct Names {
  const char *names[N];
  const char *name(E e) const {
    size_t i = static_cast<size_t>(e);
    return i < N ? names[i] : "?";
  }
  bool parse(std::string_view s, E &out) const {
    for (size_t i = 0; i < N; ++i)
      if (s == names[i]) {
        out = static_cast<E>(i);
        return true;
      }
    return false;
  }
  /// "a b c", for error messages.
  std::string list() const {
    std::string r;
    for (size_t i = 0; i < N; ++i)
      r += (i ? " " : "") + std::string(names[i]);
    return r;
  }
};

const Names<DType, 8> kDTypes = {
    {"bf16", "f16", "f32", "i32", "e4m3", "e5m2", "e2m1", "ue8m0"}};
const Names<ParamRole, 3> kRoles = {{"input", "output", "scale"}};
const Names<ParamInit, 3> kInits = {{"none", "zero", "-inf"}};
const Names<TmaElement, 6> kTmaElements = {
    {"bf16", "f16", "f32", "i32", "u8", "u4x16_align8"}};
const Names<Swizzle, 4> kSwizzles = {{"none", "32B", "64B", "128B"}};
const Names<L2Promotion, 4> kL2 = {{"none", "64B", "128B", "256B"}};
const Names<OobFill, 2> kOob = {{"zero", "nan"}};
const Names<KernelArgKind, 6> kArgKinds = {
    {"tensor_map", "pointer", "dim", "stride", "tma_ok", "workspace"}};
const Names<GridRule, 2> kRules = {{"tiles", "persistent"}};

} // namespace

const char *dtypeName(DType t) { return kDTypes.name(t); }
bool parseDType(std::string_view name, DType &out) {
  return kDTypes.parse(name, out);
}
unsigned dtypeBits(DType t) {
  switch (t) {
  case DType::BF16:
  case DType::F16:
    return 16;
  case DType::F32:
  case DType::I32:
    return 32;
  case DType::E4M3:
  case DType::E5M2:
  case DType::UE8M0:
    return 8;
  case DType::E2M1:
    return 4;
  }
  return 0;
}
const char *roleName(ParamRole r) { return kRoles.name(r); }
const char *initName(ParamInit i) { return kInits.name(i); }
const char *tmaElementName(TmaElement e) { return kTmaElements.name(e); }
unsigned tmaElementBits(TmaElement e) {
  switch (e) {
  case TmaElement::BF16:
  case TmaElement::F16:
    return 16;
  case TmaElement::F32:
  case TmaElement::I32:
    return 32;
  case TmaElement::U8:
    return 8;
  case TmaElement::U4x16Align8:
    return 4;
  }
  return 0;
}
const char *swizzleName(Swizzle s) { return kSwizzles.name(s); }
unsigned swizzleBytes(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return 0;
  case Swizzle::B32:
    return 32;
  case Swizzle::B64:
    return 64;
  case Swizzle::B128:
    return 128;
  }
  return 0;
}
const char *l2PromotionName(L2Promotion p) { return kL2.name(p); }
const char *oobFillName(OobFill f) { return kOob.name(f); }
const char *kernelArgKindName(KernelArgKind k) { return kArgKinds.name(k); }
const char *gridRuleName(GridRule r) { return kRules.name(r); }

int Manifest::findParam(std::string_view name) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name)
      return static_cast<int>(i);
  return -1;
}

int Manifest::findDim(std::string_view name) const {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] == name)
      return static_cast<int>(i);
  return -1;
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

namespace {

std::string joinNames(const std::vector<std::string> &v) {
  std::string r;
  for (size_t i = 0; i < v.size(); ++i)
    r += (i ? ", " : "") + v[i];
  return r.empty() ? "none" : r;
}

/// A name that stays inside the folder it is looked up in: no '/' (so not
/// absolute either) and no backslash (a separator on other systems), not "."
/// or "..", no NUL (which would cut the path short).
bool isPlainFileName(std::string_view name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\\\0", 3)) ==
             std::string_view::npos;
}

/// `s` with control characters (a NUL above all, which would end the message
/// early in C) written as \xNN.
std::string printable(std::string_view s) {
  std::string r;
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
      r += c;
      continue;
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
    r += hex;
  }
  return r;
}

bool isChip(std::string_view chip) {
  if (chip.rfind("sm_", 0) != 0)
    return false;
  size_t i = 3, digits = 0;
  while (i < chip.size() && std::isdigit(static_cast<unsigned char>(chip[i])))
    ++i, ++digits;
  // sm_90 .. sm_9999: parseChip (DeviceCheck.h) reads at most 4 digits.
  if (digits < 2 || digits > 4)
    return false;
  if (i < chip.size() && (chip[i] == 'a' || chip[i] == 'f'))
    ++i;
  return i == chip.size();
}

/// Whether a TMA element type can carry a parameter of dtype `t` (the bytes are
/// copied as is).
bool elementFits(DType t, TmaElement e) {
  switch (t) {
  case DType::BF16:
    return e == TmaElement::BF16;
  case DType::F16:
    return e == TmaElement::F16;
  case DType::F32:
    return e == TmaElement::F32;
  case DType::I32:
    return e == TmaElement::I32;
  case DType::E4M3:
  case DType::E5M2:
  case DType::UE8M0:
    return e == TmaElement::U8;
  case DType::E2M1:
    return e == TmaElement::U8 || e == TmaElement::U4x16Align8;
  }
  return false;
}

bool isFloatElement(TmaElement e) {
  return e == TmaElement::BF16 || e == TmaElement::F16 || e == TmaElement::F32;
}

std::string paramWhere(const Manifest &m, size_t i) {
  return "params[" + std::to_string(i) + "] '" + m.params[i].name + "'";
}

bool checkExpr(const Manifest &m, const DimExpr &e, const std::string &where,
               std::string &error) {
  if (e.kind == DimExpr::Kind::Const && e.value < 0) {
    error = where + ": negative extent " + std::to_string(e.value);
    return false;
  }
  // Constants and operands reach the kernel's 32-bit index arithmetic (the
  // compiler never writes larger ones); bounding them here also keeps every
  // product the runtime forms from them far from int64 overflow.
  if (e.value > kMaxKernelIndex) {
    error = where + ": '" + e.str() + "': " + std::to_string(e.value) +
            " exceeds the kernel's 32-bit index limit (" +
            std::to_string(kMaxKernelIndex) + ")";
    return false;
  }
  if (e.kind == DimExpr::Kind::Const)
    return true;
  if (m.findDim(e.name) < 0) {
    error = where + ": '" + e.str() + "' uses dim '" + e.name +
            "', which is not in dims (" + joinNames(m.dims) + ")";
    return false;
  }
  if (e.kind == DimExpr::Kind::CeilDiv && e.value <= 0) {
    error = where + ": cdiv by " + std::to_string(e.value);
    return false;
  }
  return true;
}

/// An [extent, tile] pair (a grid axis, a stream-K walk's K steps): the
/// extent over known dims, the tile in 1..kMaxKernelIndex.
bool checkGridAxis(const Manifest &m, const GridAxis &axis,
                   const std::string &where, std::string &error) {
  if (!checkExpr(m, axis.extent, where, error))
    return false;
  if (axis.tile < 1 || axis.tile > kMaxKernelIndex) {
    error = where + ": tile " + std::to_string(axis.tile) +
            (axis.tile < 1 ? " is not positive"
                           : " exceeds the kernel's 32-bit index limit (" +
                                 std::to_string(kMaxKernelIndex) + ")");
    return false;
  }
  return true;
}

/// The checks of one kernel (the primary, or a variant when `at` is
/// "variants[i]."): its tensor maps over the shared params, its kernel args
/// against its own maps and the shared params and dims, its launch.
bool checkKernel(const Manifest &m, const std::string &at,
                 const std::vector<TensorMapDesc> &maps,
                 const std::vector<KernelArg> &args, const Launch &l,
                 std::string &error) {
  // Tensor maps: everything cuTensorMapEncodeTiled would reject for any tensor.
  for (size_t i = 0; i < maps.size(); ++i) {
    const TensorMapDesc &t = maps[i];
    std::string where = at + "tensor_maps[" + std::to_string(i) + "]";
    int p = m.findParam(t.param);
    if (p < 0) {
      error = where + ": param '" + t.param + "' does not exist";
      return false;
    }
    where += " ('" + t.param + "')";
    const Param &param = m.params[p];
    size_t rank = param.shape.size();
    if (rank < 1 || rank > 5) {
      error = where + ": the param has rank " + std::to_string(rank) +
              "; tensor maps need rank 1..5";
      return false;
    }
    if (t.box.size() != rank) {
      error = where + ": box has " + std::to_string(t.box.size()) +
              " entries but the param has rank " + std::to_string(rank);
      return false;
    }
    for (size_t a = 0; a < rank; ++a)
      if (t.box[a] < 1 || t.box[a] > kMaxTmaBoxDim) {
        error = where + ": box[" + std::to_string(a) +
                "] = " + std::to_string(t.box[a]) + " is outside 1.." +
                std::to_string(kMaxTmaBoxDim);
        return false;
      }
    if (!elementFits(param.dtype, t.element)) {
      error = where + ": element " + tmaElementName(t.element) +
              " cannot carry dtype " + dtypeName(param.dtype) +
              " (fp8 and ue8m0 use u8; e2m1 uses u8 or u4x16_align8)";
      return false;
    }
    int64_t innerBits = t.box[0] * tmaElementBits(t.element);
    if (innerBits % 128 != 0) {
      error = where + ": the innermost box is " + std::to_string(t.box[0]) +
              " x " + tmaElementName(t.element) + " = " +
              std::to_string(innerBits) + " bits, not a multiple of 16 bytes";
      return false;
    }
    if (t.swizzle != Swizzle::None && innerBits / 8 > swizzleBytes(t.swizzle)) {
      error = where + ": the innermost box is " +
              std::to_string(innerBits / 8) + " bytes, wider than the " +
              swizzleName(t.swizzle) + " swizzle span";
      return false;
    }
    if (t.clampRows && rank < 2) {
      error = where + ": clamp_rows clamps the second-to-last axis; the param "
                      "has rank 1";
      return false;
    }
    if (t.oobFill == OobFill::NaN && !isFloatElement(t.element)) {
      error = where +
              ": oob_fill \"nan\" needs a floating-point element, not " +
              tmaElementName(t.element);
      return false;
    }
  }

  // Kernel args.
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg &a = args[i];
    std::string where = at + "kernel_args[" + std::to_string(i) + "] (" +
                        kernelArgKindName(a.kind) + ")";
    switch (a.kind) {
    case KernelArgKind::TensorMap:
    case KernelArgKind::TmaOk:
      if (a.map < 0 || a.map >= static_cast<int64_t>(maps.size())) {
        error = where + ": map " + std::to_string(a.map) +
                " is not an index into " + at + "tensor_maps (" +
                std::to_string(maps.size()) + " maps)";
        return false;
      }
      break;
    case KernelArgKind::Pointer:
    case KernelArgKind::Stride: {
      int p = m.findParam(a.param);
      if (p < 0) {
        error = where + ": param '" + a.param + "' does not exist";
        return false;
      }
      if (a.kind == KernelArgKind::Stride &&
          (a.axis < 0 ||
           a.axis >= static_cast<int64_t>(m.params[p].shape.size()))) {
        error = where + ": axis " + std::to_string(a.axis) +
                " is outside param '" + a.param + "' of rank " +
                std::to_string(m.params[p].shape.size());
        return false;
      }
      break;
    }
    case KernelArgKind::Dim:
      if (m.findDim(a.dim) < 0) {
        error = where + ": dim '" + a.dim + "' is not in dims (" +
                joinNames(m.dims) + ")";
        return false;
      }
      break;
    case KernelArgKind::Workspace:
      if (l.workspacePerCta <= 0) {
        error = where + ": the kernel takes a workspace but " + at +
                "launch.workspace_per_cta is not positive";
        return false;
      }
      break;
    }
  }

  // Launch. No product may overflow: block [2^32, 2^32, 1] would wrap to 0
  // threads. Block entries are bounded before their product is formed, the
  // cluster's product is checked.
  for (int d = 0; d < 3; ++d)
    if (l.block[d] < 1 || l.cluster[d] < 1) {
      error = at + "launch." + (l.block[d] < 1 ? "block" : "cluster") +
              " has a non-positive entry";
      return false;
    }
  auto triple = [](const std::array<int64_t, 3> &v) {
    return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
           std::to_string(v[2]) + "]";
  };
  // x, y <= 1024 follow from the thread count, so the message leaves them
  // out; they are checked on their own so that the product cannot overflow.
  if (l.block[0] > kMaxBlockDimXY || l.block[1] > kMaxBlockDimXY ||
      l.block[2] > kMaxBlockDimZ ||
      l.block[0] * l.block[1] * l.block[2] > kMaxThreadsPerBlock) {
    error = at + "launch.block " + triple(l.block) +
            " exceeds CUDA's limits (" + std::to_string(kMaxThreadsPerBlock) +
            " threads, z <= " + std::to_string(kMaxBlockDimZ) + ")";
    return false;
  }
  int64_t ctas;
  if (__builtin_mul_overflow(l.cluster[0], l.cluster[1], &ctas) ||
      __builtin_mul_overflow(ctas, l.cluster[2], &ctas)) {
    error = at + "launch.cluster " + triple(l.cluster) +
            " has more than 2^63 CTAs; the hardware maximum is " +
            std::to_string(kMaxClusterCtas);
    return false;
  }
  if (ctas > kMaxClusterCtas) {
    error = at + "launch.cluster has " + std::to_string(ctas) +
            " CTAs; the hardware maximum is " + std::to_string(kMaxClusterCtas);
    return false;
  }
  if (l.dynamicSmem < 0 || l.dynamicSmem > kMaxDynamicSmemBytes) {
    error = at + "launch.dynamic_smem " + std::to_string(l.dynamicSmem) +
            " is out of range (0.." + std::to_string(kMaxDynamicSmemBytes) +
            " bytes, the most shared memory one block can opt into on any "
            "supported chip)";
    return false;
  }
  if (l.rule == GridRule::Tiles && l.tiles.size() > 3) {
    error = at + "launch.grid: rule \"tiles\" has " +
            std::to_string(l.tiles.size()) + " axes; a grid has at most 3";
    return false;
  }
  if (l.rule == GridRule::Persistent &&
      (l.cluster[1] != 1 || l.cluster[2] != 1)) {
    error = at +
            "launch.grid: rule \"persistent\" launches a 1-D grid, so cluster "
            "must be [n, 1, 1]";
    return false;
  }
  for (size_t i = 0; i < l.tiles.size(); ++i)
    if (!checkGridAxis(m, l.tiles[i],
                       at + "launch.grid.tiles[" + std::to_string(i) + "]",
                       error))
      return false;
  // (A workspace of a whole grid of CTAs must stay far from overflow.)
  if (l.workspacePerCta < 0 || l.workspacePerCta > (int64_t(1) << 32)) {
    error = at + "launch.workspace_per_cta " +
            std::to_string(l.workspacePerCta) +
            " is outside [0, 2^32] bytes";
    return false;
  }
  if (l.workspacePerCta > 0 &&
      std::none_of(args.begin(), args.end(), [](const KernelArg &a) {
        return a.kind == KernelArgKind::Workspace;
      })) {
    error = at + "launch.workspace_per_cta is set but no kernel_arg is a "
                 "workspace";
    return false;
  }
  if (!(l.tileCost >= 0) || l.tileCost > std::numeric_limits<double>::max()) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", l.tileCost);
    error = at + "launch.tile_cost " + text + " is not a finite number >= 0";
    return false;
  }
  if (!(l.tailCost >= 0) || l.tailCost > std::numeric_limits<double>::max()) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", l.tailCost);
    error = at + "launch.tail_cost " + text + " is not a finite number >= 0";
    return false;
  }
  if (l.streamK.present()) {
    if (l.streamK.maxTailPercent < 1 || l.streamK.maxTailPercent > 100) {
      error = at + "launch.stream_k.max_tail_percent " +
              std::to_string(l.streamK.maxTailPercent) +
              " is outside [1, 100]";
      return false;
    }
    if (!checkGridAxis(m, l.streamK.k, at + "launch.stream_k.k", error))
      return false;
    if (!(l.streamK.joinSteps >= 0) ||
        l.streamK.joinSteps > std::numeric_limits<double>::max()) {
      char text[32];
      std::snprintf(text, sizeof text, "%g", l.streamK.joinSteps);
      error = at + "launch.stream_k.join_steps " + text +
              " is not a finite number >= 0";
      return false;
    }
    // Only a persistent grid walks stream-K: its clusters share the split.
    if (l.rule != GridRule::Persistent) {
      error = at + "launch.stream_k needs the persistent grid rule";
      return false;
    }
  }
  return true;
}

} // namespace

bool validateManifest(const Manifest &m, std::string &error) {
  if (m.format != kManifestFormat) {
    error = "format is '" + m.format + "', expected '" + kManifestFormat + "'";
    return false;
  }
  if (m.version > kManifestVersion) {
    error = "manifest version " + std::to_string(m.version) +
            " is newer than the newest version this build knows (" +
            std::to_string(kManifestVersion) +
            "); rebuild the runtime from a newer Kiln";
    return false;
  }
  if (m.version < 1) {
    error = "version " + std::to_string(m.version) +
            " is not a manifest version (1.." +
            std::to_string(kManifestVersion) + ")";
    return false;
  }
  if (m.kernel.empty() || m.entry.empty() || m.cubin.empty()) {
    error = std::string(m.kernel.empty()  ? "kernel"
                        : m.entry.empty() ? "entry"
                                          : "cubin") +
            " is empty";
    return false;
  }
  if (!isChip(m.chip)) {
    error = "chip '" + m.chip + "' is not a chip name like sm_90a or sm_100a";
    return false;
  }
  if (!isPlainFileName(m.cubin)) {
    error = "cubin '" + printable(m.cubin) +
            "' is not a plain file name: the cubin is read from the "
            "manifest's folder, so the name may not contain '/' or '\\', be "
            "'.' or '..', or be absolute";
    return false;
  }

  // Dims: valid, unique names.
  for (size_t i = 0; i < m.dims.size(); ++i) {
    if (!isDimName(m.dims[i])) {
      error = "dims[" + std::to_string(i) + "]: '" + m.dims[i] +
              "' is not a dim name";
      return false;
    }
    for (size_t j = 0; j < i; ++j)
      if (m.dims[j] == m.dims[i]) {
        error = "dims: '" + m.dims[i] + "' appears twice";
        return false;
      }
  }

  // Params.
  std::vector<bool> bindable(m.dims.size(), false);
  for (size_t i = 0; i < m.params.size(); ++i) {
    const Param &p = m.params[i];
    std::string where = paramWhere(m, i);
    if (p.name.empty()) {
      error = "params[" + std::to_string(i) + "]: empty name";
      return false;
    }
    if (m.findParam(p.name) != static_cast<int>(i)) {
      error = where + ": the name is used by params[" +
              std::to_string(m.findParam(p.name)) + "] too";
      return false;
    }
    if (p.shape.size() > static_cast<size_t>(kMaxRank)) {
      error = where + ": rank " + std::to_string(p.shape.size()) +
              " exceeds the maximum of " + std::to_string(kMaxRank);
      return false;
    }
    if (p.align < 1 || (p.align & (p.align - 1)) != 0) {
      error = where + ": align " + std::to_string(p.align) +
              " is not a power of two";
      return false;
    }
    for (size_t a = 0; a < p.shape.size(); ++a) {
      if (!checkExpr(m, p.shape[a], where + " shape[" + std::to_string(a) + "]",
                     error))
        return false;
      if (p.shape[a].isPlainName() || p.shape[a].isShiftedName() ||
          p.shape[a].isScaledName())
        bindable[m.findDim(p.shape[a].name)] = true;
    }
    if (p.init != ParamInit::None &&
        (p.role != ParamRole::Output || p.dtype != DType::F32)) {
      error = where + ": init is for f32 outputs the kernel accumulates "
                      "into, not a " +
              std::string(dtypeName(p.dtype)) + " " + roleName(p.role);
      return false;
    }
    if (p.role == ParamRole::Scale) {
      int of = m.findParam(p.scaleOf);
      if (of < 0) {
        error = where + ": scale_of '" + p.scaleOf + "' is not a param";
        return false;
      }
      if (m.params[of].role == ParamRole::Scale) {
        error = where + ": scale_of '" + p.scaleOf + "' is itself a scale";
        return false;
      }
      if (p.block.empty() || p.block.size() > m.params[of].shape.size()) {
        error = where + ": block has " + std::to_string(p.block.size()) +
                " entries; it needs 1.." +
                std::to_string(m.params[of].shape.size()) + " (the rank of '" +
                p.scaleOf + "')";
        return false;
      }
      for (int64_t b : p.block)
        if (b < 1 || b > kMaxKernelIndex) {
          error = where + ": block entry " + std::to_string(b) +
                  (b < 1 ? " is not positive"
                         : " exceeds the kernel's 32-bit index limit (" +
                               std::to_string(kMaxKernelIndex) + ")");
          return false;
        }
    } else if (!p.scaleOf.empty() || !p.block.empty()) {
      error = where + ": scale_of/block are only allowed on role \"scale\"";
      return false;
    }
  }
  for (size_t d = 0; d < m.dims.size(); ++d)
    if (!bindable[d]) {
      error =
          "dim '" + m.dims[d] +
          "' is never a plain entry (or a name plus or times a constant) of a param "
          "shape, so no launch can bind it";
      return false;
    }

  if (!checkKernel(m, "", m.tensorMaps, m.kernelArgs, m.launch, error))
    return false;

  // Group offsets: a rank-1 i32 param, the rows a dim.
  for (size_t i = 0; i < m.segments.size(); ++i) {
    const Segments &g = m.segments[i];
    std::string at = "segments[" + std::to_string(i) + "]";
    int p = m.findParam(g.param);
    if (p < 0) {
      error = at + ".param: no param named '" + g.param + "'";
      return false;
    }
    if (m.params[p].dtype != DType::I32 || m.params[p].shape.size() != 1) {
      error = at + ".param: '" + g.param + "' is not a rank-1 i32 tensor";
      return false;
    }
    if (m.findDim(g.rows) < 0) {
      error = at + ".rows: no dim named '" + g.rows + "'";
      return false;
    }
  }

  // Variants: each checked like the primary; no two kernels share an entry.
  for (size_t v = 0; v < m.variants.size(); ++v) {
    const KernelVariant &kv = m.variants[v];
    std::string at = "variants[" + std::to_string(v) + "]";
    if (kv.entry.empty()) {
      error = at + ".entry is empty";
      return false;
    }
    if (kv.entry == m.entry) {
      error =
          at + ".entry '" + kv.entry + "' is also the primary kernel's entry";
      return false;
    }
    for (size_t w = 0; w < v; ++w)
      if (m.variants[w].entry == kv.entry) {
        error = at + ".entry '" + kv.entry +
                "' is also the entry of variants[" + std::to_string(w) + "]";
        return false;
      }
    if (!checkKernel(m, at + ".", kv.tensorMaps, kv.kernelArgs, kv.launch,
                     error))
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// JSON reading
//===----------------------------------------------------------------------===//

namespace {

/// Reads typed values out of JSON objects, recording the JSON path of the first
/// problem.
class Reader {
public:
  explicit Reader(std::string &error) : error(error) {}

  bool fail(const std::string &path, const std::string &msg) {
    error = path + ": " + msg;
    return false;
  }

  const Json *field(const Json &obj, const char *key, const std::string &path,
                    bool required) {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required)
        fail(path, std::string("missing key \"") + key + "\"");
      return nullptr;
    }
    return &*it;
  }

  bool object(const Json &j, const std::string &path) {
    return j.is_object() ||
           fail(path, std::string("expected an object, got ") + j.type_name());
  }

  bool str(const Json &j, const std::string &path, std::string &out) {
    if (!j.is_string())
      return fail(path, std::string("expected a string, got ") + j.type_name());
    out = j.get<std::string>();
    return true;
  }

  bool integer(const Json &j, const std::string &path, int64_t &out) {
    if (j.is_number_float()) {
      // nlohmann reads integers beyond 64 bits, and any number written with
      // a '.' or an exponent, as a double: none of them is taken.
      double d = j.get<double>();
      if (std::isfinite(d) && d == std::floor(d)) {
        char text[40];
        std::snprintf(text, sizeof text, "%.17g", d);
        return fail(path, std::string("expected an integer, got ") + text +
                              " (written as a floating-point number, or "
                              "beyond 64 bits)");
      }
      return fail(path, "expected an integer, got a fraction");
    }
    if (!j.is_number_integer())
      return fail(path,
                  std::string("expected an integer, got ") + j.type_name());
    if (j.is_number_unsigned() &&
        j.get<uint64_t>() >
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return fail(path, "integer out of range");
    out = j.get<int64_t>();
    return true;
  }

  bool number(const Json &j, const std::string &path, double &out) {
    if (!j.is_number())
      return fail(path, std::string("expected a number, got ") + j.type_name());
    out = j.get<double>();
    return true;
  }

  bool boolean(const Json &j, const std::string &path, bool &out) {
    if (!j.is_boolean())
      return fail(path,
                  std::string("expected true or false, got ") + j.type_name());
    out = j.get<bool>();
    return true;
  }

  bool array(const Json &j, const std::string &path) {
    return j.is_array() ||
           fail(path, std::string("expected an array, got ") + j.type_name());
  }

  bool intArray(const Json &j, const std::string &path,
                std::vector<int64_t> &out) {
    if (!array(j, path))
      return false;
    out.clear();
    for (size_t i = 0; i < j.size(); ++i) {
      int64_t v;
      if (!integer(j[i], path + "[" + std::to_string(i) + "]", v))
        return false;
      out.push_back(v);
    }
    return true;
  }

  bool dimExpr(const Json &j, const std::string &path, DimExpr &out) {
    std::string s, why;
    if (!str(j, path, s))
      return false;
    if (!DimExpr::parse(s, out, why))
      return fail(path, why);
    return true;
  }

  template <typename E, size_t N>
  bool enumeration(const Json &j, const std::string &path,
                   const Names<E, N> &names, const char *what, E &out) {
    std::string s;
    if (!str(j, path, s))
      return false;
    if (!names.parse(s, out))
      return fail(path, "unknown " + std::string(what) + " '" + s +
                            "' (expected one of " + names.list() + ")");
    return true;
  }

  // Field helpers: `obj[key]` read as T; the path is `path.key`.
  bool strField(const Json &o, const char *k, const std::string &p,
                std::string &out, bool required = true) {
    const Json *j = field(o, k, p, required);
    if (!j)
      return !required;
    return str(*j, p + "." + k, out);
  }
  bool intField(const Json &o, const char *k, const std::string &p,
                int64_t &out) {
    const Json *j = field(o, k, p, true);
    return j && integer(*j, p + "." + k, out);
  }
  template <typename E, size_t N>
  bool enumField(const Json &o, const char *k, const std::string &p,
                 const Names<E, N> &names, const char *what, E &out) {
    const Json *j = field(o, k, p, true);
    return j && enumeration(*j, p + "." + k, names, what, out);
  }

private:
  std::string &error;
};

bool readParam(Reader &r, const Json &j, const std::string &path, Param &p) {
  if (!r.object(j, path) || !r.strField(j, "name", path, p.name) ||
      !r.enumField(j, "role", path, kRoles, "role", p.role) ||
      !r.enumField(j, "dtype", path, kDTypes, "dtype", p.dtype) ||
      !r.intField(j, "align", path, p.align))
    return false;
  const Json *shape = r.field(j, "shape", path, true);
  if (!shape || !r.array(*shape, path + ".shape"))
    return false;
  p.shape.clear();
  for (size_t i = 0; i < shape->size(); ++i) {
    DimExpr e;
    if (!r.dimExpr((*shape)[i], path + ".shape[" + std::to_string(i) + "]", e))
      return false;
    p.shape.push_back(e);
  }
  bool isScale = p.role == ParamRole::Scale;
  if (!r.strField(j, "scale_of", path, p.scaleOf, isScale))
    return false;
  p.block.clear();
  if (const Json *b = r.field(j, "block", path, isScale)) {
    if (!r.intArray(*b, path + ".block", p.block))
      return false;
  } else if (isScale) {
    return false;
  }
  p.init = ParamInit::None;
  if (j.contains("init") &&
      !r.enumField(j, "init", path, kInits, "init", p.init))
    return false;
  return true;
}

bool readSegments(Reader &r, const Json &j, const std::string &path,
                  Segments &g) {
  return r.object(j, path) && r.strField(j, "param", path, g.param) &&
         r.strField(j, "rows", path, g.rows);
}

bool readTensorMap(Reader &r, const Json &j, const std::string &path,
                   TensorMapDesc &t) {
  if (!r.object(j, path) || !r.strField(j, "param", path, t.param) ||
      !r.enumField(j, "element", path, kTmaElements, "element", t.element) ||
      !r.enumField(j, "swizzle", path, kSwizzles, "swizzle", t.swizzle) ||
      !r.enumField(j, "l2_promotion", path, kL2, "l2_promotion",
                   t.l2Promotion) ||
      !r.enumField(j, "oob_fill", path, kOob, "oob_fill", t.oobFill))
    return false;
  const Json *box = r.field(j, "box", path, true);
  if (!box || !r.intArray(*box, path + ".box", t.box))
    return false;
  const Json *opt = r.field(j, "optional", path, true);
  if (!opt || !r.boolean(*opt, path + ".optional", t.optional))
    return false;
  const Json *clamp = r.field(j, "clamp_rows", path, false);
  return !clamp || r.boolean(*clamp, path + ".clamp_rows", t.clampRows);
}

bool readKernelArg(Reader &r, const Json &j, const std::string &path,
                   KernelArg &a) {
  if (!r.object(j, path) ||
      !r.enumField(j, "kind", path, kArgKinds, "kernel arg kind", a.kind))
    return false;
  switch (a.kind) {
  case KernelArgKind::TensorMap:
  case KernelArgKind::TmaOk:
    return r.intField(j, "map", path, a.map);
  case KernelArgKind::Pointer:
    return r.strField(j, "param", path, a.param);
  case KernelArgKind::Stride:
    return r.strField(j, "param", path, a.param) &&
           r.intField(j, "axis", path, a.axis);
  case KernelArgKind::Dim:
    return r.strField(j, "dim", path, a.dim);
  case KernelArgKind::Workspace:
    return true;
  }
  return false;
}

bool readTriple(Reader &r, const Json &o, const char *key,
                const std::string &path, std::array<int64_t, 3> &out) {
  const Json *j = r.field(o, key, path, true);
  std::vector<int64_t> v;
  if (!j || !r.intArray(*j, path + "." + key, v))
    return false;
  if (v.size() != 3)
    return r.fail(path + "." + key, "expected 3 integers [x, y, z], got " +
                                        std::to_string(v.size()));
  out = {v[0], v[1], v[2]};
  return true;
}

/// An [extent, tile] pair: a grid axis, or a stream-K walk's K steps.
bool readGridAxis(Reader &r, const Json &t, const std::string &path,
                  GridAxis &axis) {
  if (!t.is_array() || t.size() != 2)
    return r.fail(path, "expected [extent, tile]");
  return r.dimExpr(t[0], path + "[0]", axis.extent) &&
         r.integer(t[1], path + "[1]", axis.tile);
}

bool readLaunch(Reader &r, const Json &j, const std::string &path, Launch &l) {
  if (!r.object(j, path) || !readTriple(r, j, "block", path, l.block) ||
      !readTriple(r, j, "cluster", path, l.cluster) ||
      !r.intField(j, "dynamic_smem", path, l.dynamicSmem))
    return false;
  std::string gpath = path + ".grid";
  const Json *g = r.field(j, "grid", path, true);
  if (!g || !r.object(*g, gpath) ||
      !r.enumField(*g, "rule", gpath, kRules, "grid rule", l.rule))
    return false;
  const Json *tiles = r.field(*g, "tiles", gpath, true);
  if (!tiles || !r.array(*tiles, gpath + ".tiles"))
    return false;
  l.tiles.clear();
  for (size_t i = 0; i < tiles->size(); ++i) {
    GridAxis axis;
    if (!readGridAxis(r, (*tiles)[i],
                      gpath + ".tiles[" + std::to_string(i) + "]", axis))
      return false;
    l.tiles.push_back(axis);
  }
  l.tileCost = 0;
  if (const Json *c = r.field(j, "tile_cost", path, false))
    if (!r.number(*c, path + ".tile_cost", l.tileCost))
      return false;
  l.tailCost = 0;
  if (const Json *c = r.field(j, "tail_cost", path, false))
    if (!r.number(*c, path + ".tail_cost", l.tailCost))
      return false;
  l.workspacePerCta = 0;
  if (r.field(j, "workspace_per_cta", path, false) &&
      !r.intField(j, "workspace_per_cta", path, l.workspacePerCta))
    return false;
  l.streamK = StreamKRule();
  if (const Json *sk = r.field(j, "stream_k", path, false)) {
    std::string skPath = path + ".stream_k";
    const Json *k = nullptr, *join = nullptr;
    if (!r.object(*sk, skPath) ||
        !r.intField(*sk, "max_tail_percent", skPath,
                    l.streamK.maxTailPercent) ||
        !(k = r.field(*sk, "k", skPath, true)) ||
        !readGridAxis(r, *k, skPath + ".k", l.streamK.k) ||
        !(join = r.field(*sk, "join_steps", skPath, true)) ||
        !r.number(*join, skPath + ".join_steps", l.streamK.joinSteps))
      return false;
    std::string split = "runs";
    if (!r.strField(*sk, "split", skPath, split, /*required=*/false))
      return false;
    if (split != "runs" && split != "halves")
      return r.fail(skPath + ".split",
                    "'" + split + "' is not runs or halves");
    l.streamK.halves = split == "halves";
    if (!l.streamK.present())
      return r.fail(skPath + ".max_tail_percent",
                    "0 is outside [1, 100] (leave stream_k out instead)");
  }
  return true;
}

/// Reads the array `obj[key]` (required) item by item; `objPath` names `obj`
/// in messages and `at` prefixes the items' paths ("" or "variants[0].").
template <typename T, typename F>
bool readList(Reader &r, const Json &obj, const std::string &objPath,
              const std::string &at, const char *key, std::vector<T> &out,
              F readOne) {
  const Json *j = r.field(obj, key, objPath, true);
  std::string path = at + key;
  if (!j || !r.array(*j, path))
    return false;
  out.clear();
  for (size_t i = 0; i < j->size(); ++i) {
    T item;
    if (!readOne(r, (*j)[i], path + "[" + std::to_string(i) + "]", item))
      return false;
    out.push_back(std::move(item));
  }
  return true;
}

bool readVariant(Reader &r, const Json &j, const std::string &path,
                 KernelVariant &v) {
  std::string at = path + ".";
  if (!r.object(j, path) || !r.strField(j, "entry", path, v.entry) ||
      !readList(r, j, path, at, "tensor_maps", v.tensorMaps, readTensorMap) ||
      !readList(r, j, path, at, "kernel_args", v.kernelArgs, readKernelArg))
    return false;
  const Json *launch = r.field(j, "launch", path, true);
  return launch && readLaunch(r, *launch, at + "launch", v.launch);
}

bool readManifest(const Json &top, Manifest &m, std::string &error) {
  Reader r(error);
  if (!r.object(top, "manifest"))
    return false;
  // Format and version first: a newer manifest may differ in any other key, and
  // the version message is the useful one then.
  if (!r.strField(top, "format", "manifest", m.format))
    return false;
  if (m.format != kManifestFormat)
    return r.fail("format", "'" + m.format +
                                "' is not a Kiln manifest (expected '" +
                                kManifestFormat + "')");
  if (!r.intField(top, "version", "manifest", m.version))
    return false;
  if (m.version > kManifestVersion)
    return r.fail("version",
                  "manifest version " + std::to_string(m.version) +
                      " is newer than the newest version this build knows (" +
                      std::to_string(kManifestVersion) +
                      "); rebuild the runtime from a newer Kiln");

  if (!r.strField(top, "kernel", "manifest", m.kernel) ||
      !r.strField(top, "source", "manifest", m.source, /*required=*/false) ||
      !r.strField(top, "chip", "manifest", m.chip) ||
      !r.strField(top, "cubin", "manifest", m.cubin) ||
      !r.strField(top, "entry", "manifest", m.entry))
    return false;
  const Json *dims = r.field(top, "dims", "manifest", true);
  if (!dims || !r.array(*dims, "dims"))
    return false;
  m.dims.clear();
  for (size_t i = 0; i < dims->size(); ++i) {
    std::string d;
    if (!r.str((*dims)[i], "dims[" + std::to_string(i) + "]", d))
      return false;
    m.dims.push_back(d);
  }
  if (!readList(r, top, "manifest", "", "params", m.params, readParam) ||
      !readList(r, top, "manifest", "", "tensor_maps", m.tensorMaps,
                readTensorMap) ||
      !readList(r, top, "manifest", "", "kernel_args", m.kernelArgs,
                readKernelArg))
    return false;
  m.segments.clear();
  if (top.contains("segments") &&
      !readList(r, top, "manifest", "", "segments", m.segments, readSegments))
    return false;
  const Json *launch = r.field(top, "launch", "manifest", true);
  if (!launch || !readLaunch(r, *launch, "launch", m.launch))
    return false;
  m.variants.clear();
  if (top.contains("variants"))
    return readList(r, top, "manifest", "", "variants", m.variants,
                    readVariant);
  return true;
}

/// nlohmann prefixes messages with "[json.exception.parse_error.101] "; users
/// need the rest.
std::string stripJsonPrefix(const char *what) {
  std::string s(what);
  if (s.rfind("[json.exception.", 0) == 0) {
    size_t end = s.find("] ");
    if (end != std::string::npos)
      return s.substr(end + 2);
  }
  return s;
}

} // namespace

bool parseManifest(const std::string &text, Manifest &out, std::string &error) {
  try {
    Json top = Json::parse(text);
    Manifest m;
    if (!readManifest(top, m, error) || !validateManifest(m, error))
      return false;
    out = std::move(m);
    return true;
  } catch (const nlohmann::json::parse_error &e) {
    error = "malformed JSON: " + stripJsonPrefix(e.what());
  } catch (const nlohmann::json::exception &e) {
    error = "invalid manifest: " + stripJsonPrefix(e.what());
  } catch (const std::bad_alloc &) {
    error = "out of memory while reading the manifest";
  } catch (const std::exception &e) {
    error = std::string("cannot read the manifest: ") + e.what();
  } catch (...) {
    error = "cannot read the manifest: unknown error";
  }
  return false;
}

bool readManifestFile(const std::string &path, Manifest &out,
                      std::string &error) {
  std::string text;
  try {
    if (!readRegularFile(path, kMaxManifestBytes, text, error)) {
      error = path + ": cannot read the manifest: " + error;
      return false;
    }
  } catch (...) {
    error = path + ": cannot read the manifest";
    return false;
  }
  if (!parseManifest(text, out, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// JSON writing
//===----------------------------------------------------------------------===//

namespace {

Json toJson(const Segments &g) {
  return Json{{"param", g.param}, {"rows", g.rows}};
}

Json toJson(const Param &p) {
  Json j;
  j["name"] = p.name;
  j["role"] = roleName(p.role);
  j["dtype"] = dtypeName(p.dtype);
  Json shape = Json::array();
  for (const DimExpr &e : p.shape)
    shape.push_back(e.str());
  j["shape"] = shape;
  if (p.role == ParamRole::Scale || !p.scaleOf.empty())
    j["scale_of"] = p.scaleOf;
  if (p.role == ParamRole::Scale || !p.block.empty())
    j["block"] = p.block;
  j["align"] = p.align;
  if (p.init != ParamInit::None)
    j["init"] = initName(p.init);
  return j;
}

Json toJson(const TensorMapDesc &t) {
  Json j;
  j["param"] = t.param;
  j["element"] = tmaElementName(t.element);
  j["box"] = t.box;
  j["swizzle"] = swizzleName(t.swizzle);
  j["l2_promotion"] = l2PromotionName(t.l2Promotion);
  j["oob_fill"] = oobFillName(t.oobFill);
  j["optional"] = t.optional;
  if (t.clampRows)
    j["clamp_rows"] = true;
  return j;
}

Json toJson(const KernelArg &a) {
  Json j;
  j["kind"] = kernelArgKindName(a.kind);
  switch (a.kind) {
  case KernelArgKind::TensorMap:
  case KernelArgKind::TmaOk:
    j["map"] = a.map;
    break;
  case KernelArgKind::Pointer:
    j["param"] = a.param;
    break;
  case KernelArgKind::Stride:
    j["param"] = a.param;
    j["axis"] = a.axis;
    break;
  case KernelArgKind::Dim:
    j["dim"] = a.dim;
    break;
  case KernelArgKind::Workspace:
    break;
  }
  return j;
}

Json toJson(const Launch &l) {
  Json j;
  j["block"] = l.block;
  j["cluster"] = l.cluster;
  j["dynamic_smem"] = l.dynamicSmem;
  Json tiles = Json::array();
  for (const GridAxis &a : l.tiles)
    tiles.push_back(Json::array({a.extent.str(), a.tile}));
  j["grid"] = Json{{"rule", gridRuleName(l.rule)}, {"tiles", tiles}};
  if (l.tileCost != 0)
    j["tile_cost"] = l.tileCost;
  if (l.tailCost != 0)
    j["tail_cost"] = l.tailCost;
  if (l.workspacePerCta != 0)
    j["workspace_per_cta"] = l.workspacePerCta;
  if (l.streamK.present())
    j["stream_k"] = Json{
        {"max_tail_percent", l.streamK.maxTailPercent},
        {"k", Json::array({l.streamK.k.extent.str(), l.streamK.k.tile})},
        {"join_steps", l.streamK.joinSteps}};
  if (l.streamK.halves)
    j["stream_k"]["split"] = "halves";
  return j;
}

/// Compact JSON that never throws on bad UTF-8.
std::string compact(const Json &j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// One item per line; `indent` is the indentation of the line holding the
/// list's key.
template <typename T>
std::string list(const std::vector<T> &items,
                 const std::string &indent = "  ") {
  if (items.empty())
    return "[]";
  std::string s = "[\n";
  for (size_t i = 0; i < items.size(); ++i)
    s += indent + "  " + compact(toJson(items[i])) +
         (i + 1 < items.size() ? ",\n" : "\n");
  return s + indent + "]";
}

/// A variant as an indented object whose lists have one item per line.
std::string variantText(const KernelVariant &v) {
  const std::string in = "      ";
  return "{\n" + in + "\"entry\": " + compact(v.entry) + ",\n" + in +
         "\"tensor_maps\": " + list(v.tensorMaps, in) + ",\n" + in +
         "\"kernel_args\": " + list(v.kernelArgs, in) + ",\n" + in +
         "\"launch\": " + compact(toJson(v.launch)) + "\n    }";
}

} // namespace

std::string writeManifest(const Manifest &m) {
  try {
    std::string s = "{\n";
    auto kv = [&](const char *key, const std::string &value,
                  bool last = false) {
      s += "  \"" + std::string(key) + "\": " + value + (last ? "\n" : ",\n");
    };
    kv("format", compact(m.format));
    kv("version", std::to_string(m.version));
    kv("kernel", compact(m.kernel));
    kv("source", compact(m.source));
    kv("chip", compact(m.chip));
    kv("cubin", compact(m.cubin));
    kv("entry", compact(m.entry));
    kv("dims", compact(Json(m.dims)));
    kv("params", list(m.params));
    kv("tensor_maps", list(m.tensorMaps));
    kv("kernel_args", list(m.kernelArgs));
    if (!m.segments.empty())
      kv("segments", list(m.segments));
    kv("launch", compact(toJson(m.launch)), /*last=*/m.variants.empty());
    if (!m.variants.empty()) {
      std::string v = "[\n";
      for (size_t i = 0; i < m.variants.size(); ++i)
        v += "    " + variantText(m.variants[i]) +
             (i + 1 < m.variants.size() ? ",\n" : "\n");
      kv("variants", v + "  ]", /*last=*/true);
    }
    return s + "}\n";
  } catch (...) {
    // Only allocation can fail here; an empty string is not a manifest, so
    // readers report it.
    return std::string();
  }
}

std::string manifestPathForCubin(const std::string &cubinPath) {
  size_t slash = cubinPath.find_last_of('/');
  size_t dot = cubinPath.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
      dot == (slash == std::string::npos ? 0 : slash + 1))
    return cubinPath + ".kiln.json";
  return cubinPath.substr(0, dot) + ".kiln.json";
}

} // namespace kiln
