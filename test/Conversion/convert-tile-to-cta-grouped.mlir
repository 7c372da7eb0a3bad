// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-tile-to-cta=chip=sm_90a | FileCheck %s
// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-tile-to-cta=chip=sm_100a | FileCheck %s

// convert-tile-to-cta of a grouped contraction (mixture of experts): the
// tile walk is grouped by the offsets (the group count is the rhs's leading
// extent), each K step loads group %e's [N, K] rhs tile from the rank-3
// weight, and the store stops at the group's end row.
// CHECK-LABEL: cta.program @moe(
// CHECK-SAME:    %[[X:arg0]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x", input, [T, K]>}
// CHECK-SAME:    %[[W:arg1]]: memref<?x?x?xbf16, strided<[?, ?, 1]>> {cta.param = #cta.param<"w", input, [E, N, K]>}
// CHECK-SAME:    %[[OFF:arg2]]: memref<?xi32, strided<[1]>> {cta.param = #cta.param<"offsets", input, [E+1]>}
// CHECK-SAME:    %[[GATE:arg3]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"gate", input, [T, 1]>}
// CHECK-SAME:    %[[Y:arg4]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y", output, [T, N]>}
// CHECK-SAME:    %[[T:arg5]]: index {cta.dim = #cta.dim<T>}, %[[K:arg6]]: index {cta.dim = #cta.dim<K>}, %[[E:arg7]]: index {cta.dim = #cta.dim<E>}, %[[N:arg8]]: index {cta.dim = #cta.dim<N>}
// CHECK-SAME:    cluster = array<i64: 1, 1>
// CHECK:         %[[SX:.*]] = cta.alloc : <128x64xbf16>
// CHECK:         %[[SW:.*]] = cta.alloc : <256x64xbf16>
// CHECK:         cta.tile_loop grouped offsets(%[[OFF]] : memref<?xi32, strided<[1]>>, %[[E]]) (%[[T]], %[[N]]) tile [128, 256] {
// CHECK-NEXT:    ^bb0(%[[G:.*]]: index, %[[M0:.*]]: index, %[[N0:.*]]: index, %[[END:.*]]: index, %{{.*}}: index):
// CHECK:           cta.mainloop %[[K]] step 64
// CHECK:             cta.load %[[X]][%[[M0]], %[[K0:.*]]] -> %[[SX]]
// CHECK-NEXT:        cta.load %[[W]][%[[G]], %[[N0]], %[[K0]]] -> %[[SW]]
// CHECK:           cta.store %{{.*}} inputs(%[[GATE]] per_row : memref<?x?xf32, strided<[?, 1]>>) -> %[[Y]][%[[M0]], %[[N0]]] row_limit %[[END]] staging
// CHECK:         } {cluster = array<i64: 1, 1>, group_m = 8 : i64, persistent}
tile.kernel @moe(%x: tensor<?x?xbf16, #tile.dims<T, K>> {tile.param = #tile.param<"x", input>},
                 %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>> {tile.param = #tile.param<"w", input>},
                 %o: tensor<?xi32, #tile.dims<E+1>> {tile.param = #tile.param<"offsets", input>},
                 %gate: tensor<?x1xf32, #tile.dims<T, 1>> {tile.param = #tile.param<"gate", input>})
    -> (tensor<?x?xbf16, #tile.dims<T, N>> {tile.param = #tile.param<"y", output>}) {
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      epilogue_inputs(%gate : tensor<?x1xf32, #tile.dims<T, 1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>} -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc: f32, %g: f32):
    %p = arith.mulf %acc, %g : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

// Per-expert inputs (per_group(b, offsets)): the store reads a [E, N] bias
// per_group_col and a [E, 1] scale per_group, at the tile's group.
// CHECK-LABEL: cta.program @moe_bias(
// CHECK-SAME:    %[[OFF:arg2]]: memref<?xi32, strided<[1]>> {cta.param = #cta.param<"offsets", input, [E+1]>}
// CHECK-SAME:    %[[B:arg3]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"b", input, [E, N]>}
// CHECK-SAME:    %[[S:arg4]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"s", input, [E, 1]>}
// CHECK-SAME:    %[[Y:arg5]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y", output, [T, N]>}
// CHECK:         cta.tile_loop grouped
// CHECK-NEXT:    ^bb0(%[[G:.*]]: index, %[[M0:.*]]: index, %[[N0:.*]]: index, %[[END:.*]]: index, %{{.*}}: index):
// CHECK:           cta.store %{{.*}} inputs(%[[B]] per_group_col, %[[S]] per_group : memref<?x?xbf16, strided<[?, 1]>>, memref<?x?xf32, strided<[?, 1]>>) -> %[[Y]][%[[M0]], %[[N0]]] row_limit %[[END]] group %[[G]] staging
// CHECK-NOT:     tile.per_group
tile.kernel @moe_bias(%x: tensor<?x?xbf16, #tile.dims<T, K>> {tile.param = #tile.param<"x", input>},
                      %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>> {tile.param = #tile.param<"w", input>},
                      %o: tensor<?xi32, #tile.dims<E+1>> {tile.param = #tile.param<"offsets", input>},
                      %b: tensor<?x?xbf16, #tile.dims<E, N>> {tile.param = #tile.param<"b", input>},
                      %s: tensor<?x1xf32, #tile.dims<E, 1>> {tile.param = #tile.param<"s", input>})
    -> (tensor<?x?xbf16, #tile.dims<T, N>> {tile.param = #tile.param<"y", output>}) {
  %bt = tile.per_group %b, %o : tensor<?x?xbf16, #tile.dims<E, N>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xbf16, #tile.dims<T, N>>
  %st = tile.per_group %s, %o : tensor<?x1xf32, #tile.dims<E, 1>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x1xf32, #tile.dims<T, 1>>
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      epilogue_inputs(%bt, %st : tensor<?x?xbf16, #tile.dims<T, N>>, tensor<?x1xf32, #tile.dims<T, 1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>} -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc: f32, %bias: bf16, %scale: f32):
    %e = arith.extf %bias : bf16 to f32
    %p = arith.mulf %acc, %scale : f32
    %q = arith.addf %p, %e : f32
    %t = arith.truncf %q : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

// per_group reads the group of the walk: a product that is not grouped has
// none, and a product grouped by other offsets has other groups.
tile.kernel @dense_bias(%x: tensor<?x?xbf16, #tile.dims<T, K>> {tile.param = #tile.param<"x", input>},
                        %w: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w", input>},
                        %o: tensor<?xi32, #tile.dims<E+1>> {tile.param = #tile.param<"offsets", input>},
                        %b: tensor<?x?xbf16, #tile.dims<E, N>> {tile.param = #tile.param<"b", input>})
    -> (tensor<?x?xbf16, #tile.dims<T, N>> {tile.param = #tile.param<"y", output>}) {
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: per_group(b, offsets) in the epilogue of a product that is not grouped}}
  %bt = tile.per_group %b, %o : tensor<?x?xbf16, #tile.dims<E, N>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xbf16, #tile.dims<T, N>>
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%bt : tensor<?x?xbf16, #tile.dims<T, N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>} -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc: f32, %bias: bf16):
    %e = arith.extf %bias : bf16 to f32
    %q = arith.addf %acc, %e : f32
    %t = arith.truncf %q : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

tile.kernel @other_offsets(%x: tensor<?x?xbf16, #tile.dims<T, K>> {tile.param = #tile.param<"x", input>},
                           %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>> {tile.param = #tile.param<"w", input>},
                           %o: tensor<?xi32, #tile.dims<E+1>> {tile.param = #tile.param<"offsets", input>},
                           %o2: tensor<?xi32, #tile.dims<E+1>> {tile.param = #tile.param<"offsets2", input>},
                           %b: tensor<?x?xbf16, #tile.dims<E, N>> {tile.param = #tile.param<"b", input>})
    -> (tensor<?x?xbf16, #tile.dims<T, N>> {tile.param = #tile.param<"y", output>}) {
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: per_group(b, offsets) with other offsets than its grouped product's}}
  %bt = tile.per_group %b, %o2 : tensor<?x?xbf16, #tile.dims<E, N>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xbf16, #tile.dims<T, N>>
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      epilogue_inputs(%bt : tensor<?x?xbf16, #tile.dims<T, N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>} -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc: f32, %bias: bf16):
    %e = arith.extf %bias : bf16 to f32
    %q = arith.addf %acc, %e : f32
    %t = arith.truncf %q : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}
