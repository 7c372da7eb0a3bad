// RUN: kiln-opt %s --convert-tile-to-cta | FileCheck %s

// Regression test (compiler/Conversion/TileToCta/TileToCta.cpp, KernelToProgram):
// tile.kernel does not require tile.name on its arguments and results, but
// the conversion copies only tile.name into cta.param, which cta.program
// requires on every memref argument; a verifier-valid kernel without names
// becomes invalid IR ("'cta.program' op tensor argument #0 needs a cta.param
// name"). The conversion should name unnamed tensors (or the tile verifier
// should require names).

// CHECK-LABEL: cta.program @unnamed(
// CHECK-SAME:    {cta.param = "{{.+}}", cta.role = "input"
tile.kernel @unnamed(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> tensor<?x?xbf16, #tile.dims<M, N>> {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}
