//===- Manifest.h - The launch manifest, format v1 --------------*- C++ -*-===//
//
// The manifest is the only contract between the compiler, which writes it next
// to the cubin, and the runtime, which reads it to validate arguments and
// launch. Both sides use these structs and functions, so the format has exactly
// one definition (docs/manifest.md describes it).
//
// This header is deliberately plain: no JSON types, no exceptions, no CUDA. The
// compiler is built with -fno-exceptions and -fno-rtti and links this library;
// every failure is reported through a `std::string` error instead.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MANIFEST_H
#define KILN_RUNTIME_MANIFEST_H

#include "runtime/DimExpr.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {

/// The value of the manifest's `format` key.
inline constexpr const char *kManifestFormat = "kiln-manifest";
/// The newest manifest version this library reads and the version it writes.
inline constexpr int kManifestVersion = 1;
/// Most axes a parameter may have (tensor maps are further limited to 5 by the
/// hardware).
inline constexpr int kMaxRank = 8;
/// The workspace a `workspace` kernel arg points to starts with a counter
/// area of this many bytes, zero before a launch and after it: 64 bytes per
/// CTA of the grid (`kWorkspaceCounterStride`, room for 4 warpgroups' 16-byte
/// counters) for up to `kWorkspaceMaxCtas` CTAs, at the same place for every
/// kernel of a manifest, so that no kernel's data lands where another keeps
/// its counters. The `workspace_per_cta` bytes per CTA follow it.
inline constexpr int64_t kWorkspaceCounterStride = 64;
inline constexpr int64_t kWorkspaceMaxCtas = 1024;
inline constexpr int64_t kWorkspaceCounterBytes =
    kWorkspaceCounterStride * kWorkspaceMaxCtas;

/// Element type of a parameter as the caller stores it.
enum class DType : uint8_t { BF16, F16, F32, I32, E4M3, E5M2, E2M1, UE8M0 };

/// The manifest spelling of `t` ("bf16", "e2m1", ...).
const char *dtypeName(DType t);
/// Parses a manifest dtype name; false if `name` is not one.
bool parseDType(std::string_view name, DType &out);
/// Storage bits of one element (4 for e2m1, which is packed two per byte).
unsigned dtypeBits(DType t);

/// What the caller does with a parameter.
enum class ParamRole : uint8_t { Input, Output, Scale };
const char *roleName(ParamRole r);
/// What an accumulated output holds before a launch (Param::init).
enum class ParamInit : uint8_t { None, Zero, NegInf };
const char *initName(ParamInit i);
/// The f32 bit pattern of a ParamInit's value.
inline uint32_t initBits(ParamInit i) {
  return i == ParamInit::NegInf ? 0xff800000u : 0u;
}

/// Element type of a TMA descriptor (fp8 data uses U8, packed fp4 U8 or
/// U4x16Align8).
enum class TmaElement : uint8_t { BF16, F16, F32, I32, U8, U4x16Align8 };
const char *tmaElementName(TmaElement e);
/// Bits of one TMA element (4 for u4x16_align8).
unsigned tmaElementBits(TmaElement e);

enum class Swizzle : uint8_t { None, B32, B64, B128 };
const char *swizzleName(Swizzle s);
/// The swizzle span in bytes (0 for none).
unsigned swizzleBytes(Swizzle s);

enum class L2Promotion : uint8_t { None, B64, B128, B256 };
const char *l2PromotionName(L2Promotion p);

enum class OobFill : uint8_t { Zero, NaN };
const char *oobFillName(OobFill f);

enum class KernelArgKind : uint8_t {
  TensorMap,
  Pointer,
  Dim,
  Stride,
  TmaOk,
  /// The runtime's scratch buffer, `launch.workspace_per_cta` bytes per CTA
  /// of the grid, zero when the kernel starts (and left zero by it).
  Workspace
};
const char *kernelArgKindName(KernelArgKind k);

enum class GridRule : uint8_t { Tiles, Persistent };
const char *gridRuleName(GridRule r);

/// A tensor the caller passes.
struct Param {
  std::string name;
  ParamRole role = ParamRole::Input;
  DType dtype = DType::BF16;
  /// One entry per axis, outermost first.
  std::vector<DimExpr> shape;
  /// For `Scale`: the parameter it scales; empty otherwise.
  std::string scaleOf;
  /// For `Scale`: the block one scale covers, e.g. {1, 128}; empty otherwise.
  std::vector<int64_t> block;
  /// Required byte alignment of the base pointer.
  int64_t align = 16;
  /// For an output the kernel accumulates into (a row reduction whose
  /// column tiles combine atomically): the value every element holds before
  /// the launch, which the runtime writes first. Needs an f32 output.
  ParamInit init = ParamInit::None;

  bool operator==(const Param &o) const {
    return name == o.name && role == o.role && dtype == o.dtype &&
           shape == o.shape && scaleOf == o.scaleOf && block == o.block &&
           align == o.align && init == o.init;
  }
};

/// A TMA descriptor the runtime encodes for every launch.
struct TensorMapDesc {
  std::string param;
  TmaElement element = TmaElement::BF16;
  /// Box extents, innermost first, in elements of `element`.
  std::vector<int64_t> box;
  Swizzle swizzle = Swizzle::None;
  L2Promotion l2Promotion = L2Promotion::None;
  OobFill oobFill = OobFill::Zero;
  /// When the tensor cannot be described, pass a zeroed map and tma_ok = 0
  /// instead of failing.
  bool optional = false;
  /// The box's row extent (box[1], the second-to-last axis) is clamped to
  /// the tensor's: a copy then reads only the rows the tensor has and leaves
  /// the rest of its shared-memory tile as it was (the kernel expects
  /// min(box[1], extent) rows; see clampedBoxRows).
  bool clampRows = false;

  bool operator==(const TensorMapDesc &o) const {
    return param == o.param && element == o.element && box == o.box &&
           swizzle == o.swizzle && l2Promotion == o.l2Promotion &&
           oobFill == o.oobFill && optional == o.optional &&
           clampRows == o.clampRows;
  }
};

/// The rows a `clamp_rows` tensor map's box copies for a tensor with
/// `extent` rows: the kernel expects exactly these bytes per copy.
inline int64_t clampedBoxRows(int64_t boxRows, int64_t extent) {
  return extent < boxRows ? extent : boxRows;
}

/// One parameter of the cubin's entry function, in order.
struct KernelArg {
  KernelArgKind kind = KernelArgKind::Pointer;
  /// `TensorMap`, `TmaOk`: index into `Manifest::tensorMaps`.
  int64_t map = -1;
  /// `Pointer`, `Stride`: the parameter.
  std::string param;
  /// `Dim`: the dim name.
  std::string dim;
  /// `Stride`: the axis.
  int64_t axis = -1;

  bool operator==(const KernelArg &o) const {
    return kind == o.kind && map == o.map && param == o.param && dim == o.dim &&
           axis == o.axis;
  }
};

/// One grid axis of the launch rule: `ceil(extent / tile)` tiles.
struct GridAxis {
  DimExpr extent;
  int64_t tile = 1;
  bool operator==(const GridAxis &o) const {
    return extent == o.extent && tile == o.tile;
  }
};

/// The split rule of a stream-K walk (`launch.stream_k`), for explaining a
/// choice: with T cluster tiles on G clusters and kt K steps per tile, the
/// walk splits the K steps of its last (T mod G) + G tiles evenly over the G
/// clusters when T >= G, 0 < T mod G <= G * max_tail_percent / 100 and
/// kt * (G - T mod G) > join_steps * G; in halves (`split: "halves"`, a
/// split-K tail), each of the last T mod G tiles in two K halves when 0 < T
/// mod G <= G * max_tail_percent / 100 (50: two clusters per tile) and kt -
/// kt / 2 > join_steps (docs/architecture.md 7.2).
struct StreamKRule {
  /// The last wave's tiles cut into two K halves instead of runs.
  bool halves = false;
  /// 1..100; 0: the kernel does not walk stream-K (the key is absent).
  int64_t maxTailPercent = 0;
  /// The contraction extent and K step: a tile has ceil(extent / tile) steps.
  GridAxis k;
  /// What joining a split tile's parts adds to a split launch, in K steps of
  /// one tile (partial sums written, read back and added: a fixed time, so
  /// a larger share of a tile with fewer K steps).
  double joinSteps = 0;

  bool present() const { return maxTailPercent != 0; }
  bool operator==(const StreamKRule &o) const {
    return halves == o.halves && maxTailPercent == o.maxTailPercent &&
           k == o.k && joinSteps == o.joinSteps;
  }
};

struct Launch {
  std::array<int64_t, 3> block = {1, 1, 1};
  std::array<int64_t, 3> cluster = {1, 1, 1};
  int64_t dynamicSmem = 0;
  GridRule rule = GridRule::Tiles;
  std::vector<GridAxis> tiles;
  /// The relative time one CTA takes for one tile of this kernel (`tile_cost`;
  /// 0 = unknown). The runtime compares it across variants
  /// (docs/manifest.md, "Variants"); the unit is the compiler's choice.
  double tileCost = 0;
  /// A cost added once per launch to waves x tile_cost (`tail_cost`; 0 =
  /// none), in tile_cost's unit: the part of a tile that overlap with the
  /// next tile cannot hide at the end of the walk (a ping-pong kernel's
  /// last epilogue).
  double tailCost = 0;
  /// Bytes of zeroed global scratch the kernel needs per CTA of its grid
  /// (`workspace_per_cta`; 0 = none): stream-K partial tiles.
  int64_t workspacePerCta = 0;
  /// A stream-K walk's split rule (`stream_k`; absent: none).
  StreamKRule streamK;

  bool operator==(const Launch &o) const {
    return block == o.block && cluster == o.cluster &&
           dynamicSmem == o.dynamicSmem && rule == o.rule && tiles == o.tiles &&
           tileCost == o.tileCost && tailCost == o.tailCost &&
           workspacePerCta == o.workspacePerCta && streamK == o.streamK;
  }
};

/// An i32 param of group offsets into the rows of dim `rows`: the offsets
/// that drive a grouped tile walk (the experts of a grouped GEMM, packed
/// sequences). Its `E+1` entries are expected to satisfy
/// `0 = o[0] <= ... <= o[E] = rows`; the runtime's checking mode
/// (docs/runtime.md, "Checking offsets") reads them before a launch.
struct Segments {
  std::string param;
  std::string rows;
  bool operator==(const Segments &o) const {
    return param == o.param && rows == o.rows;
  }
};

/// Another compilation of the same kernel in the same cubin (e.g. other tile
/// sizes): its own entry, tensor maps, parameter list and launch, over the
/// manifest's shared params and dims. The runtime picks one kernel per launch.
struct KernelVariant {
  std::string entry;
  std::vector<TensorMapDesc> tensorMaps;
  /// `TensorMap`/`TmaOk` args index this variant's `tensorMaps`.
  std::vector<KernelArg> kernelArgs;
  Launch launch;

  bool operator==(const KernelVariant &o) const {
    return entry == o.entry && tensorMaps == o.tensorMaps &&
           kernelArgs == o.kernelArgs && launch == o.launch;
  }
};

/// The whole manifest, in the order docs/manifest.md lists the keys.
struct Manifest {
  std::string format = kManifestFormat;
  int64_t version = kManifestVersion;
  std::string kernel;
  std::string source;
  std::string chip;
  std::string cubin;
  std::string entry;
  std::vector<std::string> dims;
  std::vector<Param> params;
  std::vector<TensorMapDesc> tensorMaps;
  std::vector<KernelArg> kernelArgs;
  /// The params of group offsets (`segments`; empty: none).
  std::vector<Segments> segments;
  Launch launch;
  /// Variants 1..n (`entry`, `tensorMaps`, `kernelArgs` and `launch` above are
  /// variant 0, the primary); empty for a single-kernel manifest.
  std::vector<KernelVariant> variants;

  bool operator==(const Manifest &o) const {
    return format == o.format && version == o.version && kernel == o.kernel &&
           source == o.source && chip == o.chip && cubin == o.cubin &&
           entry == o.entry && dims == o.dims && params == o.params &&
           tensorMaps == o.tensorMaps && kernelArgs == o.kernelArgs &&
           segments == o.segments && launch == o.launch &&
           variants == o.variants;
  }

  /// Index of the parameter called `name`, or -1.
  int findParam(std::string_view name) const;
  /// Index of the dim called `name`, or -1.
  int findDim(std::string_view name) const;
};

/// Parses manifest JSON and checks it with `validateManifest`. Refuses another
/// `format` and a newer `version`, naming both versions. On failure `out` is
/// unspecified and `error` says what and where (e.g. `params[1].dtype: unknown
/// dtype 'bf61'`).
bool parseManifest(const std::string &text, Manifest &out, std::string &error);

/// Reads and parses the manifest file at `path`; errors name the file.
bool readManifestFile(const std::string &path, Manifest &out,
                      std::string &error);

/// The consistency rules the JSON schema cannot express: unique names, every
/// reference resolves, every dim can be bound at launch, tensor maps the driver
/// can encode (rank, box, swizzle span, element type matching the dtype),
/// launch shape limits, a finite non-negative tile_cost. Every variant is
/// checked like the primary (its kernel_args against its own tensor_maps and
/// the shared params and dims), and no two kernels share an entry. The
/// compiler should call this before writing, so a bad manifest fails at
/// compile time instead of at launch.
bool validateManifest(const Manifest &m, std::string &error);

/// Serializes `m` as JSON (one key per line, one param/map/arg per line). Omits
/// `tile_cost` when it is 0 and `variants` when there are none. Never fails:
/// invalid UTF-8 in strings is replaced.
std::string writeManifest(const Manifest &m);

/// The manifest path the compiler writes for a cubin path: its extension
/// replaced by `.kiln.json` (`out/k.cubin` -> `out/k.kiln.json`).
std::string manifestPathForCubin(const std::string &cubinPath);

} // namespace kiln

#endif // KILN_RUNTIME_MANIFEST_H
