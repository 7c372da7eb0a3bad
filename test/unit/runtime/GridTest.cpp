//===- GridTest.cpp - Tiles, persistent, clusters, empty ------------------===//

#include "TestManifests.h"

#include "runtime/Grid.h"

#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::test;

namespace {

BoundDims dimsOf(std::vector<int64_t> v) {
  BoundDims d;
  d.values = std::move(v);
  d.sources.assign(d.values.size(), DimSource());
  return d;
}

Manifest tilesManifest(std::array<int64_t, 3> cluster) {
  Manifest m = matmulManifest();
  m.launch.rule = GridRule::Tiles;
  m.launch.cluster = cluster;
  return m;
}

GridDims gridOk(const Manifest &m, std::vector<int64_t> dims, int sms = 132,
                int64_t residentClusters = 0) {
  LaunchPlan plan = planOf(m);
  GridDims g;
  std::string error;
  EXPECT_TRUE(computeGrid(plan, dimsOf(std::move(dims)), sms, g, error,
                          residentClusters))
      << error;
  return g;
}

std::string gridError(const Manifest &m, std::vector<int64_t> dims,
                      int sms = 132) {
  LaunchPlan plan = planOf(m);
  GridDims g;
  std::string error;
  EXPECT_FALSE(computeGrid(plan, dimsOf(std::move(dims)), sms, g, error))
      << "computed";
  return error;
}

TEST(GridTiles, OneCtaPerTile) {
  GridDims g = gridOk(tilesManifest({1, 1, 1}), {1000, 1000, 64});
  EXPECT_FALSE(g.empty);
  EXPECT_EQ(g.x, 8u); // ceil(1000 / 128)
  EXPECT_EQ(g.y, 4u); // ceil(1000 / 256)
  EXPECT_EQ(g.z, 1u);
  EXPECT_EQ(g.numTileAxes, 2);
  EXPECT_EQ(g.tiles[0], 8);
  EXPECT_EQ(g.tiles[1], 4);
  g = gridOk(tilesManifest({1, 1, 1}), {128, 256, 64});
  EXPECT_EQ(g.x, 1u);
  EXPECT_EQ(g.y, 1u);
}

TEST(GridTiles, RoundsUpToTheCluster) {
  GridDims g = gridOk(tilesManifest({2, 1, 1}), {300, 256, 64});
  EXPECT_EQ(g.x, 4u); // 3 tiles -> 4
  EXPECT_EQ(g.y, 1u);
  g = gridOk(tilesManifest({1, 2, 1}), {300, 256, 64});
  EXPECT_EQ(g.x, 3u);
  EXPECT_EQ(g.y, 2u); // 1 tile -> 2
  // Axes without tiles are 1, rounded up to the cluster too.
  g = gridOk(tilesManifest({1, 1, 2}), {128, 256, 64});
  EXPECT_EQ(g.z, 2u);
}

TEST(GridTiles, ThreeAxesAndExpressions) {
  Manifest m = tilesManifest({1, 1, 1});
  m.launch.tiles = {{DimExpr::dim("N"), 64},
                    {DimExpr::make(DimExpr::Kind::CeilDiv, "M", 2), 32},
                    {DimExpr::make(DimExpr::Kind::Add, "K", 1), 1}};
  GridDims g = gridOk(m, {100, 640, 7});
  EXPECT_EQ(g.x, 10u); // 640 / 64
  EXPECT_EQ(g.y, 2u);  // cdiv(100, 2) = 50 -> ceil(50 / 32)
  EXPECT_EQ(g.z, 8u);  // K + 1
}

TEST(GridTiles, NoTileAxesIsOneCta) {
  Manifest m = tilesManifest({1, 1, 1});
  m.launch.tiles.clear();
  GridDims g = gridOk(m, {5, 5, 5});
  EXPECT_FALSE(g.empty);
  EXPECT_EQ(g.x * g.y * g.z, 1u);
}

TEST(GridTiles, NegativeExtentIsAnError) {
  Manifest m = tilesManifest({1, 1, 1});
  m.launch.tiles[0].extent = DimExpr::make(DimExpr::Kind::Sub, "M", 200);
  EXPECT_EQ(gridError(m, {100, 256, 64}),
            "launch.grid.tiles[0]: extent M-200 cannot be evaluated (M = 100)");
}

TEST(GridTiles, BeyondCudaLimitsIsAnError) {
  Manifest m = tilesManifest({1, 1, 1});
  EXPECT_EQ(
      gridError(m, {128, 256 * 70000, 64}),
      "grid [1, 70000, 1] exceeds CUDA's limits (x < 2^31, y and z <= 65535)");
}

TEST(GridPersistent, AtMostOneCtaPerSm) {
  Manifest m = matmulManifest(); // persistent, cluster [2, 1, 1]
  GridDims g = gridOk(m, {8192, 8192, 64}, 132);
  EXPECT_EQ(g.x, 132u); // 64 * 32 tiles, capped at floor(132 / 2) * 2
  EXPECT_EQ(g.y, 1u);
  EXPECT_EQ(g.z, 1u);
  g = gridOk(m, {8192, 8192, 64}, 133);
  EXPECT_EQ(g.x, 132u); // cap rounded down to whole clusters
  g = gridOk(m, {1024, 1024, 64}, 132);
  EXPECT_EQ(g.x, 32u); // 8 * 4 tiles: fewer tiles than SMs
  // 5 row tiles x 3 column tiles: the clusters are 2 row tiles each, so 3
  // cluster rows of 3 columns, 18 CTAs.
  g = gridOk(m, {640, 768, 64}, 132);
  EXPECT_EQ(g.x, 18u);
  // One row tile: every cluster has a CTA without rows, and the walk's 56
  // cluster tiles need 112 CTAs (not 56).
  g = gridOk(m, {128, 256 * 56, 64}, 132);
  EXPECT_EQ(g.x, 112u);
}

TEST(GridPersistent, OnlyClustersResidentAtOnce) {
  // An H100 runs 66 clusters of 2 but fewer than 33 of 4: a persistent grid
  // holds only the clusters the driver says run at once.
  Manifest m = matmulManifest();
  m.launch.cluster = {4, 1, 1};
  GridDims g = gridOk(m, {8192, 8192, 64}, 132);
  EXPECT_EQ(g.x, 132u); // unknown occupancy: floor(132 / 4) clusters
  g = gridOk(m, {8192, 8192, 64}, 132, /*residentClusters=*/30);
  EXPECT_EQ(g.x, 120u);
  g = gridOk(m, {8192, 8192, 64}, 132, /*residentClusters=*/40);
  EXPECT_EQ(g.x, 132u); // never more than one CTA per SM
  g = gridOk(m, {512, 1024, 64}, 132, /*residentClusters=*/30);
  EXPECT_EQ(g.x, 16u); // 4 * 4 tiles: fewer than the cap
}

TEST(GridPersistent, HugeTileCountsStillCap) {
  Manifest m = matmulManifest();
  m.launch.tiles = {
      {DimExpr::dim("M"), 1}, {DimExpr::dim("N"), 1}, {DimExpr::dim("K"), 1}};
  GridDims g = gridOk(m, {2000000000, 2000000000, 2000000000}, 132);
  EXPECT_EQ(g.x, 132u);
}

TEST(GridPersistent, ClusterLargerThanTheDevice) {
  Manifest m = matmulManifest();
  m.launch.cluster = {16, 1, 1};
  EXPECT_EQ(gridError(m, {1024, 1024, 64}, 8),
            "a cluster of 16 CTAs needs at least 16 SMs; the device has 8");
}

TEST(GridEmpty, ZeroTilesLaunchNothing) {
  EXPECT_TRUE(gridOk(matmulManifest(), {0, 1024, 64}).empty);
  EXPECT_TRUE(gridOk(matmulManifest(), {1024, 0, 64}).empty);
  EXPECT_TRUE(gridOk(tilesManifest({2, 1, 1}), {0, 1024, 64}).empty);
  // K = 0 is not a grid axis: the grid is not empty (the map checks then
  // decide).
  EXPECT_FALSE(gridOk(matmulManifest(), {128, 256, 0}).empty);
}

} // namespace
