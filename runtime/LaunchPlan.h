//===- LaunchPlan.h - A manifest resolved for fast launches ----*- C++ -*-===//
//
// The manifest names things (params, dims, maps) by string. Resolving every
// name to an index once, when a module is loaded, keeps string lookups and
// allocations out of the per-launch path.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_LAUNCHPLAN_H
#define KILN_RUNTIME_LAUNCHPLAN_H

#include "runtime/Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// A DimExpr with its dim name resolved (`dim` = -1 for constants).
struct PlannedExpr {
  DimExpr expr;
  int dim = -1;
};

struct PlannedParam {
  std::string name;
  ParamRole role = ParamRole::Input;
  DType dtype = DType::BF16;
  unsigned bits = 16;
  int rank = 0;
  std::vector<PlannedExpr> shape;
  int64_t align = 1;
  /// Indices into LaunchPlan::maps of the tensor maps over this param.
  std::vector<int> maps;
  /// For scales: the index of the scaled param; -1 otherwise.
  int scaleOf = -1;
  /// An output the kernel accumulates into: written with this value before
  /// each launch.
  ParamInit init = ParamInit::None;
};

struct PlannedMap {
  int param = -1;
  TmaElement element = TmaElement::BF16;
  unsigned elementBits = 16;
  int rank = 0;
  /// Innermost first, as the manifest gives it.
  uint32_t box[5] = {};
  Swizzle swizzle = Swizzle::None;
  L2Promotion l2Promotion = L2Promotion::None;
  OobFill oobFill = OobFill::Zero;
  bool optional = false;
  bool clampRows = false;
};

struct PlannedArg {
  KernelArgKind kind = KernelArgKind::Pointer;
  /// The param (pointer, stride), map (tensor_map, tma_ok) or dim (dim) index.
  int index = -1;
  /// The axis of a stride.
  int axis = -1;
};

/// Where a dim gets its value: the first plain occurrence in param order.
struct DimSource {
  int param = -1;
  int axis = -1;
};

/// The plan of one kernel of a manifest. A manifest with variants has one plan
/// per variant: the primary's plan (the one buildLaunchPlan returns) holds the
/// others in `variants`. Every plan is complete on its own, so argument checks,
/// tensor maps, grids and kernel-arg packing take whichever plan a launch
/// chose. Params and dims (and so argument validation) are the same in all.
struct LaunchPlan {
  /// The primary's plan: the manifest as given. A variant's plan: the same
  /// manifest with that variant's entry, tensor_maps, kernel_args and launch in
  /// place of the primary's, and no variants.
  Manifest manifest;
  std::vector<PlannedParam> params;
  std::vector<PlannedMap> maps;
  std::vector<PlannedArg> args;
  std::vector<DimSource> dimSources;
  std::vector<PlannedExpr> gridExtents;
  /// A stream-K kernel's contraction extent (launch.stream_k.k), for
  /// explaining a choice.
  PlannedExpr streamKExtent;
  /// 0 for the primary, k for manifest.variants[k-1] (of the primary's plan).
  int variant = 0;
  /// In the primary's plan: the plans of variants 1..n.
  std::vector<LaunchPlan> variants;
  /// In the primary's plan: there are variants and every kernel has a positive
  /// tile_cost, so launches choose by cost; otherwise they run the primary.
  bool chooseByCost = false;

  size_t numDims() const { return manifest.dims.size(); }
  const std::string &dimName(int d) const { return manifest.dims[d]; }
  /// The primary and its variants: 1 + variants.size().
  size_t numVariants() const { return 1 + variants.size(); }
  /// Variant `k` (0 = this plan).
  const LaunchPlan &variantPlan(size_t k) const {
    return k == 0 ? *this : variants[k - 1];
  }
  /// How messages name tensor map `map` of this kernel: "tensor_maps[2]", or
  /// "variants[0].tensor_maps[2]" in variant 1's plan.
  std::string mapPath(int map) const;
};

/// Validates `m` (validateManifest) and resolves it into `out`, with one plan
/// per variant.
bool buildLaunchPlan(const Manifest &m, LaunchPlan &out, std::string &error);

} // namespace kiln

#endif // KILN_RUNTIME_LAUNCHPLAN_H
