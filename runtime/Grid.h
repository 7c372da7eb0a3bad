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
///    of cluster.x; grid.x = min(T, floor(smCount / cluster.x) * cluster.x),
///    grid.y = grid.z = 1.
/// Zero tiles give `empty`. Fails on grids beyond CUDA's limits (x < 2^31, y
/// and z <= 65535) and on clusters larger than the SM count.
bool computeGrid(const LaunchPlan &plan, const BoundDims &dims, int smCount,
                 GridDims &out, std::string &error);

} // namespace kiln

#endif // KILN_RUNTIME_GRID_H
