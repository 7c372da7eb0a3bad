//===- Grid.cpp - Grid size from the manifest's launch rule ---------------===//

#include "runtime/Grid.h"

#include "runtime/Limits.h"

#include <algorithm>
#include <cstdio>

namespace kiln {

static int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/// The CTAs a persistent walk over tile counts `counts[0..n)` keeps busy: its
/// clusters are `cx` adjacent tiles of the row axis (the second-to-last, or
/// the only one), so that axis's count is rounded up to whole clusters (one
/// row tile on clusters of 2 still takes two CTAs per column tile); `limit`
/// when the product exceeds it.
static int64_t persistentCtas(const int64_t *counts, int n, int64_t cx,
                              int64_t limit) {
  int rowAxis = n >= 2 ? n - 2 : 0;
  int64_t total = 1;
  for (int i = 0; i < n; ++i) {
    int64_t count = i == rowAxis && counts[i] <= limit
                        ? roundUp(counts[i], cx)
                        : counts[i];
    if (__builtin_mul_overflow(total, count, &total) || total > limit)
      return limit;
  }
  return total;
}

bool computeGrid(const LaunchPlan &plan, const BoundDims &dims, int smCount,
                 GridDims &out, std::string &error, int64_t residentClusters) {
  const Launch &l = plan.manifest.launch;
  out = GridDims();
  out.numTileAxes =
      static_cast<int>(std::min<size_t>(plan.gridExtents.size(), 8));
  int64_t counts[8];
  for (int i = 0; i < out.numTileAxes; ++i) {
    const PlannedExpr &e = plan.gridExtents[i];
    int64_t v = e.dim >= 0 ? dims.values[e.dim] : 0;
    int64_t extent;
    if ((e.dim >= 0 && v < 0) || !e.expr.evaluate(v, extent) || extent < 0) {
      error = "launch.grid.tiles[" + std::to_string(i) + "]: extent " +
              e.expr.str() + " cannot be evaluated (" +
              (e.dim >= 0 ? plan.dimName(e.dim) : "") + " = " +
              std::to_string(v) + ")";
      return false;
    }
    int64_t tile = l.tiles[i].tile;
    counts[i] = extent / tile + (extent % tile != 0);
    out.tiles[i] = counts[i];
    if (counts[i] == 0)
      out.empty = true;
  }
  if (out.empty)
    return true;

  const int64_t maxX = kMaxGridX, maxYZ = kMaxGridYZ;
  int64_t g[3] = {1, 1, 1};
  if (l.rule == GridRule::Tiles) {
    for (int i = 0; i < out.numTileAxes && i < 3; ++i)
      g[i] = counts[i];
    // A count beyond the limit is reported below as it is; rounding it up
    // could overflow.
    for (int d = 0; d < 3; ++d)
      if (g[d] <= maxX)
        g[d] = roundUp(g[d], l.cluster[d]);
  } else {
    // (More tiles than a grid can have: the persistent cap applies anyway.)
    int64_t cx = l.cluster[0];
    int64_t total =
        roundUp(persistentCtas(counts, out.numTileAxes, cx, maxX), cx);
    int64_t cap = smCount / cx * cx;
    if (cap < 1) {
      error = "a cluster of " + std::to_string(cx) + " CTAs needs at least " +
              std::to_string(cx) + " SMs; the device has " +
              std::to_string(smCount);
      return false;
    }
    if (residentClusters > 0)
      cap = std::min(cap, residentClusters * cx);
    g[0] = std::min(total, cap);
  }
  if (g[0] > maxX || g[1] > maxYZ || g[2] > maxYZ) {
    error = "grid [" + std::to_string(g[0]) + ", " + std::to_string(g[1]) +
            ", " + std::to_string(g[2]) +
            "] exceeds CUDA's limits (x < 2^31, y and z <= 65535)";
    return false;
  }
  out.x = static_cast<uint32_t>(g[0]);
  out.y = static_cast<uint32_t>(g[1]);
  out.z = static_cast<uint32_t>(g[2]);
  return true;
}

//===----------------------------------------------------------------------===//
// Variant choice
//===----------------------------------------------------------------------===//

namespace {

/// Tile and CTA counts saturate here, far above any real grid, so the
/// arithmetic below cannot overflow.
constexpr int64_t kSaturated = int64_t(1) << 62;

int64_t satMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r) || r > kSaturated)
    return kSaturated;
  return r;
}

int64_t satRoundUp(int64_t v, int64_t m) {
  return v >= kSaturated - m ? kSaturated : roundUp(v, m);
}

std::string costText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// ceil(extent / tile) of a planned extent at these dims (tiles along a grid
/// axis, K steps); false when it does not evaluate.
bool evaluateSteps(const PlannedExpr &e, int64_t tile, const BoundDims &dims,
                   int64_t &steps) {
  int64_t v = 0, extent;
  if (e.dim >= 0) {
    if (static_cast<size_t>(e.dim) >= dims.values.size() ||
        (v = dims.values[e.dim]) < 0)
      return false;
  }
  if (!e.expr.evaluate(v, extent) || extent < 0 || tile < 1)
    return false;
  steps = extent / tile + (extent % tile != 0);
  return true;
}

} // namespace

VariantCost variantCost(const LaunchPlan &kernel, const BoundDims &dims,
                        int smCount) {
  const Launch &l = kernel.manifest.launch;
  VariantCost c;
  int64_t counts[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  int axes = static_cast<int>(std::min<size_t>(kernel.gridExtents.size(), 8));
  bool empty = false;
  for (int i = 0; i < axes; ++i) {
    int64_t n;
    if (!evaluateSteps(kernel.gridExtents[i], l.tiles[i].tile, dims, n))
      return c;
    empty |= n == 0;
    counts[i] = n;
  }
  int64_t cluster = l.cluster[0] * l.cluster[1] * l.cluster[2];
  c.resident = smCount > 0 ? smCount / cluster * cluster : 0;
  if (c.resident < 1)
    return c;
  c.usable = true;
  if (empty)
    return c; // zero tiles: nothing to launch, cost 0
  if (l.rule == GridRule::Tiles)
    c.ctas = satMul(satMul(satRoundUp(counts[0], l.cluster[0]),
                           satRoundUp(counts[1], l.cluster[1])),
                    satRoundUp(counts[2], l.cluster[2]));
  else
    c.ctas = persistentCtas(counts, axes, l.cluster[0], kSaturated);
  c.waves = c.ctas / c.resident + (c.ctas % c.resident != 0);
  c.cost = static_cast<double>(c.waves) * l.tileCost + l.tailCost;
  return c;
}

StreamKEstimate streamKEstimate(const LaunchPlan &kernel,
                                const BoundDims &dims,
                                const VariantCost &cost) {
  const Launch &l = kernel.manifest.launch;
  StreamKEstimate s;
  s.rounds = static_cast<double>(cost.waves);
  // The device's split rule (docs/architecture.md 7.2) in cluster tiles:
  // at least one full wave, a partial one of at most max_tail_percent, and
  // more rounds saved than the join costs. (Not costed: costing a split as
  // these rounds chose the SwiGLU's stream-K primary at 768 x 14336, 1024 x
  // 11008, 1536 x 7168 and 3072 x 3584 (K = 4096), where it ran 0.92-0.98x
  // the 128x112 variant chosen before; the join took ~1 tile there, ~0.25
  // where the split measured faster: docs/performance.md.)
  int64_t kSteps = 0, cluster = l.cluster[0] * l.cluster[1] * l.cluster[2];
  if (!cost.usable || cost.ctas == 0 || !l.streamK.present() ||
      l.rule != GridRule::Persistent ||
      !evaluateSteps(kernel.streamKExtent, l.streamK.k.tile, dims, kSteps) ||
      kSteps == 0)
    return s;
  int64_t tiles = cost.ctas / cluster, clusters = cost.resident / cluster;
  int64_t rem = tiles % clusters;
  if (l.streamK.halves) {
    // Whole rounds, then the last wave's tiles in two K halves at once.
    int64_t half = kSteps - kSteps / 2;
    if (rem != 0 && rem * 100 <= clusters * l.streamK.maxTailPercent &&
        static_cast<double>(half) > l.streamK.joinSteps) {
      s.streamKSplit = true;
      s.rounds = static_cast<double>(tiles / clusters) +
                 (static_cast<double>(half) + l.streamK.joinSteps) /
                     static_cast<double>(kSteps);
    }
    return s;
  }
  if (rem != 0 && tiles >= clusters &&
      rem * 100 <= clusters * l.streamK.maxTailPercent &&
      static_cast<double>(kSteps) * static_cast<double>(clusters - rem) >
          l.streamK.joinSteps * static_cast<double>(clusters)) {
    s.streamKSplit = true;
    s.rounds = static_cast<double>(tiles) / static_cast<double>(clusters) +
               l.streamK.joinSteps / static_cast<double>(kSteps);
  }
  return s;
}

int chooseVariant(const LaunchPlan &plan, const BoundDims &dims, int smCount) {
  if (!plan.chooseByCost)
    return 0;
  VariantCost primary = variantCost(plan, dims, smCount);
  if (!primary.usable)
    return 0; // computeGrid reports why
  int best = 0;
  double bestCost = primary.cost;
  for (size_t k = 0; k < plan.variants.size(); ++k) {
    VariantCost c = variantCost(plan.variants[k], dims, smCount);
    // Ties, also within rounding, go to the earlier entry (a ping-pong
    // variant's one-wave cost equals the cooperative variant's by design).
    if (c.usable && c.cost < bestCost * (1 - 1e-9)) {
      best = static_cast<int>(k + 1);
      bestCost = c.cost;
    }
  }
  return best;
}

std::string describeVariantChoice(const LaunchPlan &plan, const BoundDims &dims,
                                  int smCount) {
  int chosen = chooseVariant(plan, dims, smCount);
  std::string s;
  if (plan.variants.empty())
    return s;
  if (!plan.chooseByCost)
    s += "  some kernel has tile_cost 0 (unknown): the primary runs\n";
  for (size_t k = 0; k < plan.numVariants(); ++k) {
    const LaunchPlan &v = plan.variantPlan(k);
    VariantCost c = variantCost(v, dims, smCount);
    StreamKEstimate split = streamKEstimate(v, dims, c);
    s += "  variant " + std::to_string(k) + " '" + v.manifest.entry + "'";
    if (!c.usable)
      s += ": cannot be costed (an extent does not evaluate, or the cluster "
           "exceeds " +
           std::to_string(smCount) + " SMs)";
    else
      s += ": " + std::to_string(c.ctas) + " CTAs, " + std::to_string(c.waves) +
           (c.waves == 1 ? " wave" : " waves") + " of " +
           std::to_string(c.resident) +
           (split.streamKSplit
                ? (v.manifest.launch.streamK.halves ? " (split-K halves: ~"
                                                    : " (stream-K split: ~") +
                      costText(split.rounds) + " rounds with the join)"
                : std::string()) +
           ", tile_cost " +
           costText(v.manifest.launch.tileCost) +
           (v.manifest.launch.tailCost != 0
                ? ", tail_cost " + costText(v.manifest.launch.tailCost)
                : std::string()) +
           ", cost " + costText(c.cost);
    s += static_cast<int>(k) == chosen ? "  <- chosen\n" : "\n";
  }
  return s;
}

} // namespace kiln
