// RUN: kiln-opt %s --convert-tile-to-cta | FileCheck %s

// An epilogue that yields a constant defined outside it (as --canonicalize
// leaves a hoisted constant: `tile.yield %zero` with %zero in the kernel body)
// gets its own copy of the constant in the store, as a used constant does
// (regression: the store kept using the erased kernel's constant and
// convert-tile-to-cta crashed).

// CHECK-LABEL: cta.program @zeros(
// CHECK:         cta.store
// CHECK-NEXT:    ^bb0(%{{.*}}: f32):
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-NEXT:      cta.yield %[[Z]] : bf16
tile.kernel @zeros(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"z", output>}) {
  %zero = arith.constant 0.0 : bf16
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %zero : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}
