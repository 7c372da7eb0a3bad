// RUN: kiln-opt %s --canonicalize --convert-tile-to-cta | FileCheck %s

// A kernel still converts after --canonicalize has hoisted its epilogue's
// constants into the tile.kernel body: they move into the store's epilogue
// (regression: the kernel was rejected with "'arith.constant' outside a
// contraction epilogue").

// CHECK-LABEL: cta.program @hoisted(
// CHECK:         cta.store
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK:           %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:           arith.mulf %[[E]], %[[H]] : f32
tile.kernel @hoisted(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>}) {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %h = arith.constant 0.5 : f32
    %x = arith.mulf %acc, %h : f32
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// With several outputs, each store's epilogue slice gets its own copy of a
// hoisted constant both slices use (the kernel body, where the constant now
// lives, goes away).
// CHECK-LABEL: cta.program @hoisted_two_outputs(
// CHECK:         cta.store
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: bf16):
// CHECK:           %[[T1:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:           arith.mulf %{{.*}}, %[[T1]] : f32
// CHECK:         cta.store
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK:           %[[T2:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:           arith.mulf %[[E]], %[[T2]] : f32
tile.kernel @hoisted_two_outputs(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>},
                                 %r: tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"r", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>}, tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"d", output>}) {
  %0:2 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%r : tensor<?x?xbf16, #tile.dims<M, N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32, %v: bf16):
    %two = arith.constant 2.0 : f32
    %x = arith.mulf %acc, %two : f32
    %t = arith.truncf %x : f32 to bf16
    %vf = arith.extf %v : bf16 to f32
    %y = arith.mulf %vf, %two : f32
    %u = arith.truncf %y : f32 to bf16
    tile.yield %t, %u : bf16, bf16
  }
  tile.return %0#1, %0#0 : tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>>
}
