//===- Grid.h - Grid size from the manifest's launch rule ------*- C++ -*-===//

#ifndef KILN_RUNTIME_GRID_H
#define KILN_RUNTIME_GRID_H

#include "runtime/ArgCheck.h"
#include "runtime/LaunchPlan.h"

#include <cstdint>
#include <string>

namespace kiln {

struct GridDims {
  uint32_t x = 1, y = 1, z = 1;
  /// Some tile count is zero (an empty output): launching nothing is correct.
  bool empty = false;
  /// The tile counts per manifest grid axis, for reports.
  int64_t tiles[8] = {};
  int numTileAxes = 0;
};

/// Computes the grid of a launch (docs/manifest.md, Launch.grid):
///  - `tiles`: grid.{x,y,z} = ceil(extent / tile) of axes 0/1/2 (1 for
///    missing axes), each rounded up to a multiple of the cluster dim;
///  - `persistent`: T = product of the tile counts rounded up to a multiple
///    of cluster.x; grid.x = min(T, R * cluster.x), grid.y = grid.z = 1,
///    where R, the clusters resident at once, is `residentClusters` when
///    positive (the driver's occupancy answer for this kernel) and at most
///    floor(smCount / cluster.x).
/// Zero tiles give `empty`. Fails on grids beyond CUDA's limits (x < 2^31, y
/// and z <= 65535) and on clusters larger than the SM count.
bool computeGrid(const LaunchPlan &plan, const BoundDims &dims, int smCount,
                 GridDims &out, std::string &error,
                 int64_t residentClusters = 0);

/// What the variant rule (docs/manifest.md, "Variants") computes for one kernel
/// of a launch.
struct VariantCost {
  /// False when the kernel cannot be costed: a grid extent does not evaluate
  /// (an unbound dim, overflow, a negative value), or its cluster has more CTAs
  /// than the device has SMs. Such a variant is never chosen.
  bool usable = false;
  /// T: the CTAs its grid rule launches before the persistent cap (tile counts
  /// rounded up to the cluster). Saturates near 2^62 instead of overflowing.
  int64_t ctas = 0;
  /// floor(SMs / C) * C for a cluster of C CTAs: the CTAs one wave runs (one
  /// per SM).
  int64_t resident = 0;
  /// ceil(T / resident); 0 when a tile count is 0.
  int64_t waves = 0;
  /// waves * tile_cost + tail_cost.
  double cost = 0;
};

/// The rule's numbers for `kernel` (any plan: the primary or a variant) with
/// these dims on a device with `smCount` SMs. Integer arithmetic on the bound
/// dims; allocates nothing.
VariantCost variantCost(const LaunchPlan &kernel, const BoundDims &dims,
                        int smCount);

/// What a stream-K kernel's walk (`launch.stream_k`) does at the dims its
/// `cost` was computed for, for explaining a choice (the cost rule does not
/// use it: docs/manifest.md, "Variants").
struct StreamKEstimate {
  /// The walk splits: its G = resident / C clusters share the K steps of
  /// the last tiles.
  bool streamKSplit = false;
  /// The rounds of tiles a split takes by the manifest's join estimate: T / G
  /// cluster tiles per cluster + join_steps / K steps (in halves: the whole
  /// rounds + (a half's K steps + join_steps) / K steps); `waves` when not
  /// split.
  double rounds = 0;
};
StreamKEstimate streamKEstimate(const LaunchPlan &kernel,
                                const BoundDims &dims,
                                const VariantCost &cost);

/// The variant a launch runs: 0 (the primary) or k (manifest.variants[k-1]).
/// `plan` is the primary's plan. Unless every kernel has a positive tile_cost
/// (LaunchPlan::chooseByCost), or when the primary cannot be costed, it is 0;
/// otherwise the usable kernel with the smallest cost, the earliest on ties
/// (also within a relative 1e-9: rounding).
/// Allocates nothing; the launch's grid is then computeGrid of that variant's
/// plan (zero tiles still launch nothing).
int chooseVariant(const LaunchPlan &plan, const BoundDims &dims, int smCount);

/// One line per kernel with the rule's numbers and the choice, for kiln-run
/// --verbose and KILN_DEBUG.
std::string describeVariantChoice(const LaunchPlan &plan, const BoundDims &dims,
                                  int smCount);

} // namespace kiln

#endif // KILN_RUNTIME_GRID_H
