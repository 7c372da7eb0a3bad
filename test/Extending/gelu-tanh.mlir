// The example plugin (examples/extending): torch's exact GELU in tile.map and
// tile.contract regions becomes its tanh approximation, at stage=after only.

// RUN: kiln-opt %s --split-input-file --load-pass-plugin=%kiln_example_plugin --tile-apply-fusion-plugins=stage=after | FileCheck %s
// RUN: kiln-opt %s --split-input-file --load-pass-plugin=%kiln_example_plugin --tile-apply-fusion-plugins=stage=before | FileCheck %s --check-prefix=BEFORE --implicit-check-not=math.tanh
// BEFORE-LABEL: tile.kernel @epilogue(
// BEFORE:         math.erf

// A fused epilogue, as the frontend and tile-fuse-epilogues write it.
// CHECK-LABEL: tile.kernel @epilogue(
// CHECK:         tile.contract
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 4.471500e-02 : f32
// CHECK-NEXT:      %[[CUBE:.*]] = arith.mulf %[[C0]], %[[SQ]] : f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[FACTOR:.*]] = arith.addf %[[ONE]], %[[CUBE]] : f32
// CHECK-NEXT:      %[[INNER:.*]] = arith.mulf %[[X]], %[[FACTOR]] : f32
// CHECK-NEXT:      %[[SCALE:.*]] = arith.constant 0.797884583 : f32
// CHECK-NEXT:      %[[ARG:.*]] = arith.mulf %[[SCALE]], %[[INNER]] : f32
// CHECK-NEXT:      %[[TANH:.*]] = math.tanh %[[ARG]] : f32
// CHECK-NEXT:      %[[ONE2:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[ONE2]], %[[TANH]] : f32
// CHECK-NEXT:      %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[HALFX:.*]] = arith.mulf %[[X]], %[[HALF]] : f32
// CHECK-NEXT:      %[[GELU:.*]] = arith.mulf %[[HALFX]], %[[SUM]] : f32
// CHECK-NEXT:      %[[OUT:.*]] = arith.truncf %[[GELU]] : f32 to bf16
// CHECK-NEXT:      tile.yield %[[OUT]] : bf16
// CHECK-NEXT:    }
tile.kernel @epilogue(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> tensor<?x?xbf16, #tile.dims<M, N>> {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %cst = arith.constant 0.707106769 : f32
    %1 = arith.mulf %x, %cst : f32
    %2 = math.erf %1 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %3 = arith.addf %cst_0, %2 : f32
    %cst_1 = arith.constant 5.000000e-01 : f32
    %4 = arith.mulf %x, %cst_1 : f32
    %5 = arith.mulf %4, %3 : f32
    %6 = arith.truncf %5 : f32 to bf16
    tile.yield %6 : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A map the built-in fusions left alone; constants defined outside the region
// and operands in canonical order (constants on the right) match too.
// CHECK-LABEL: tile.kernel @map(
// CHECK:         tile.map
// CHECK-NOT:     math.erf
// CHECK:         math.tanh
// CHECK-NOT:     math.erf
// CHECK:         tile.return
tile.kernel @map(%a: tensor<?x?xf32, #tile.dims<M, N>>) -> tensor<?x?xf32, #tile.dims<M, N>> {
  %rsqrt2 = arith.constant 0.707106769 : f32
  %one = arith.constant 1.000000e+00 : f32
  %half = arith.constant 5.000000e-01 : f32
  %0 = tile.map %a : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %1 = arith.mulf %x, %rsqrt2 : f32
    %2 = math.erf %1 : f32
    %3 = arith.addf %2, %one : f32
    %4 = arith.mulf %x, %half : f32
    %5 = arith.mulf %3, %4 : f32
    tile.yield %5 : f32
  }
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// Not GELU, left alone: a different scale inside erf, and erf of another value
// than the one halved.
// CHECK-LABEL: tile.kernel @not_gelu(
// CHECK-NOT:     math.tanh
// CHECK:         math.erf
// CHECK:         math.erf
// CHECK-NOT:     math.tanh
tile.kernel @not_gelu(%a: tensor<?x?xf32, #tile.dims<M, N>>, %b: tensor<?x?xf32, #tile.dims<M, N>>)
    -> tensor<?x?xf32, #tile.dims<M, N>> {
  %0 = tile.map %a : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %c = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %1 = arith.mulf %x, %c : f32
    %2 = math.erf %1 : f32
    %3 = arith.addf %one, %2 : f32
    %4 = arith.mulf %x, %c : f32
    %5 = arith.mulf %4, %3 : f32
    tile.yield %5 : f32
  }
  %6 = tile.map %0, %b : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%x: f32, %y: f32):
    %rsqrt2 = arith.constant 0.707106769 : f32
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %1 = arith.mulf %y, %rsqrt2 : f32
    %2 = math.erf %1 : f32
    %3 = arith.addf %one, %2 : f32
    %4 = arith.mulf %x, %half : f32
    %5 = arith.mulf %4, %3 : f32
    tile.yield %5 : f32
  }
  tile.return %6 : tensor<?x?xf32, #tile.dims<M, N>>
}
