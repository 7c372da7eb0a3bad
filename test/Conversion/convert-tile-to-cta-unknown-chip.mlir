// RUN: not kiln-opt %s --convert-tile-to-cta=chip=sm_80 2>&1 | FileCheck %s

// Regression test (compiler/Conversion/TileToCta/TileToCta.cpp,
// checkTileToCtaSupport): every chip other than sm_90a is reported as
// "not implemented yet: code generation for <chip> (tcgen05 + tensor
// memory)", so a typo reads as a missing sm_100a-style feature.
// tile-select-schedule and convert-cta-to-nvvm say "unknown chip 'sm_80';
// expected sm_90a or sm_100a"; this pass should too.

// CHECK: error: {{.*}}unknown chip 'sm_80'; expected sm_90a or sm_100a
tile.kernel @k(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>})
    -> (tensor<?x?xf32, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>}) {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}
