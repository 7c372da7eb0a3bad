//===- Grid.cpp - Grid size from the manifest's launch rule ---------------===//

#include "runtime/Grid.h"

#include <algorithm>
#include <limits>

namespace kiln {

static int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

bool computeGrid(const LaunchPlan &plan, const BoundDims &dims, int smCount,
                 GridDims &out, std::string &error) {
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

  const int64_t maxX = std::numeric_limits<int32_t>::max(), maxYZ = 65535;
  int64_t g[3] = {1, 1, 1};
  if (l.rule == GridRule::Tiles) {
    for (int i = 0; i < out.numTileAxes && i < 3; ++i)
      g[i] = counts[i];
    for (int d = 0; d < 3; ++d)
      g[d] = roundUp(g[d], l.cluster[d]);
  } else {
    int64_t total = 1;
    for (int i = 0; i < out.numTileAxes; ++i)
      if (__builtin_mul_overflow(total, counts[i], &total) || total > maxX) {
        total = maxX; // more tiles than a grid can have: the persistent cap
                      // applies anyway
        break;
      }
    int64_t cx = l.cluster[0];
    total = roundUp(total, cx);
    int64_t cap = smCount / cx * cx;
    if (cap < 1) {
      error = "a cluster of " + std::to_string(cx) + " CTAs needs at least " +
              std::to_string(cx) + " SMs; the device has " +
              std::to_string(smCount);
      return false;
    }
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

} // namespace kiln
