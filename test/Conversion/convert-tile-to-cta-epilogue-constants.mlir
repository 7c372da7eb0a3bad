// RUN: kiln-opt %s --convert-tile-to-cta | FileCheck %s

// Regression test (compiler/Conversion/TileToCta/TileToCta.cpp): the rewrite runs
// in the greedy pattern driver, which first hoists every constant to the
// entry of its isolated-from-above region, i.e. out of the contraction's
// epilogue into the tile.kernel body. KernelToProgram then clones only the
// epilogue's own ops, the cloned arith.mulf keeps using the hoisted constant,
// and the kernel (with the constant) is erased: "null operand found". Every
// epilogue with a constant fails, e.g. `c = silu(a @ b^T)` or
// `c = (a @ b^T) * 0.5` in a .kiln file.

// CHECK-LABEL: cta.program @scaled(
// CHECK:         cta.store
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK:           %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:           %[[X:.*]] = arith.mulf %[[E]], %[[H]] : f32
// CHECK:           %[[T:.*]] = arith.truncf %[[X]] : f32 to bf16
// CHECK-NEXT:      cta.yield %[[T]] : bf16
tile.kernel @scaled(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.name = "a"}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.name = "b"})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.name = "c"}) {
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
