// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-tile-to-cta | FileCheck %s

// convert-tile-to-cta on contractions whose epilogue reads other tensors
// (bias, scales, residual): each input the output's epilogue reads is passed
// to its cta.store, with the kind the language's broadcasting gives it
// against the [M, N] output: per_col ([N], [1, N]), per_row ([M, 1]), tile
// ([M, N]) or scalar ([1], [1, 1]).

// One input of each kind. They stay kernel parameters (row-major strided
// memrefs keeping their dims, a rank-1 bias as a rank-1 memref) and reach
// the store in the epilogue's argument order, after the accumulator; the
// epilogue is copied op for op.
// CHECK-LABEL: cta.program @each_kind(
// CHECK-SAME:    %[[BIAS:[^:]*]]: memref<?xbf16, strided<[1]>> {cta.param = #cta.param<"bias", input, [N]>}
// CHECK-SAME:    %[[SCALE:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"scale", input, [M, 1]>}
// CHECK-SAME:    %[[RES:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"res", input, [M, N]>}
// CHECK-SAME:    %[[ALPHA:[^:]*]]: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"alpha", input, [1]>}
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, N]>}
// CHECK:         cta.mainloop
// CHECK:         cta.store %{{[^ ]*}} inputs(%[[BIAS]] per_col, %[[SCALE]] per_row, %[[RES]] tile, %[[ALPHA]] scalar : memref<?xbf16, strided<[1]>>, memref<?x?xf32, strided<[?, 1]>>, memref<?x?xbf16, strided<[?, 1]>>, memref<?xf32, strided<[1]>>)
// CHECK-SAME:      -> %[[C]][%{{.*}}, %{{.*}}] staging %{{.*}} : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32, %[[B:.*]]: bf16, %[[S:.*]]: f32, %[[R:.*]]: bf16, %[[AL:.*]]: f32):
// CHECK-NEXT:      %[[BF:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT:      %[[X:.*]] = arith.addf %[[E]], %[[BF]] : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[S]] : f32
// CHECK-NEXT:      %[[RF:.*]] = arith.extf %[[R]] : bf16 to f32
// CHECK-NEXT:      %[[Z:.*]] = arith.addf %[[Y]], %[[RF]] : f32
// CHECK-NEXT:      %[[W:.*]] = arith.mulf %[[Z]], %[[AL]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[W]] : f32 to bf16
// CHECK-NEXT:      cta.yield %[[T]] : bf16
// CHECK-NEXT:    }
tile.kernel @each_kind(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>},
                       %bias: tensor<?xbf16, #tile.dims<N>> {tile.param = #tile.param<"bias", input>}, %scale: tensor<?x1xf32, #tile.dims<M, 1>> {tile.param = #tile.param<"scale", input>},
                       %res: tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"res", input>}, %alpha: tensor<1xf32, #tile.dims<1>> {tile.param = #tile.param<"alpha", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>}) {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%bias, %scale, %res, %alpha : tensor<?xbf16, #tile.dims<N>>, tensor<?x1xf32, #tile.dims<M, 1>>, tensor<?x?xbf16, #tile.dims<M, N>>, tensor<1xf32, #tile.dims<1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32, %bv: bf16, %s: f32, %r: bf16, %al: f32):
    %bf = arith.extf %bv : bf16 to f32
    %x = arith.addf %acc, %bf : f32
    %y = arith.mulf %x, %s : f32
    %rf = arith.extf %r : bf16 to f32
    %z = arith.addf %y, %rf : f32
    %w = arith.mulf %z, %al : f32
    %t = arith.truncf %w : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Rank-2 broadcasts: a [1, N] row is per_col and a [1, 1] value is scalar.
// An input the epilogue does not read stays a kernel parameter but is not
// passed to the store; the store's inputs follow the epilogue's argument
// order, not the order the epilogue uses them in.
// CHECK-LABEL: cta.program @broadcast_2d(
// CHECK-SAME:    %[[ROW:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"row", input, [1, N]>}
// CHECK-SAME:    %[[ONE:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"one", input, [1, 1]>}
// CHECK-SAME:    %[[UNUSED:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"unused", input, [M, N]>}
// CHECK:         cta.store %{{[^ ]*}} inputs(%[[ONE]] scalar, %[[ROW]] per_col : memref<?x?xf32, strided<[?, 1]>>, memref<?x?xf32, strided<[?, 1]>>) ->
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32, %[[S:.*]]: f32, %[[R:.*]]: f32):
// CHECK-NEXT:      %[[X:.*]] = arith.addf %[[E]], %[[R]] : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[S]] : f32
// CHECK-NEXT:      cta.yield %[[Y]] : f32
tile.kernel @broadcast_2d(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>},
                          %row: tensor<1x?xf32, #tile.dims<1, N>> {tile.param = #tile.param<"row", input>}, %one: tensor<1x1xf32, #tile.dims<1, 1>> {tile.param = #tile.param<"one", input>},
                          %unused: tensor<?x?xf32, #tile.dims<M, N>> {tile.param = #tile.param<"unused", input>})
    -> (tensor<?x?xf32, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>}) {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%unused, %one, %row : tensor<?x?xf32, #tile.dims<M, N>>, tensor<1x1xf32, #tile.dims<1, 1>>, tensor<1x?xf32, #tile.dims<1, N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32, %u: f32, %s: f32, %r: f32):
    %x = arith.addf %acc, %r : f32
    %y = arith.mulf %x, %s : f32
    tile.yield %y : f32
  }
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// A dual GEMM with a bias on one product: the store takes both parts of the
// packed accumulator, then the input.
// CHECK-LABEL: cta.program @swiglu_bias(
// CHECK-SAME:    %[[BIAS:[^:]*]]: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"bias",
// CHECK:         %[[PARTS:.*]]:2 = cta.split_cols
// CHECK-NEXT:    cta.store %[[PARTS]]#0, %[[PARTS]]#1 inputs(%[[BIAS]] per_col : memref<?xf32, strided<[1]>>) ->
// CHECK-NEXT:    ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:      %[[GB:.*]] = arith.addf %[[G]], %[[B]] : f32
// CHECK-NEXT:      arith.mulf %[[GB]], %[[U]] : f32
tile.kernel @swiglu_bias(%x: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"x", input>}, %w1: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w1", input>},
                         %w2: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w2", input>}, %bias: tensor<?xf32, #tile.dims<N>> {tile.param = #tile.param<"bias", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"y", output>}) {
  %0 = tile.contract(%x, %w1, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%bias : tensor<?xf32, #tile.dims<N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%g: f32, %u: f32, %b: f32):
    %gb = arith.addf %g, %b : f32
    %p = arith.mulf %gb, %u : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}
