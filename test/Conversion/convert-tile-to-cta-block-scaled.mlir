// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-tile-to-cta=chip=sm_100a | FileCheck %s
// RUN: not kiln-opt %s -split-input-file --convert-tile-to-cta=chip=sm_90a 2>&1 | FileCheck %s --check-prefix=SM90

// convert-tile-to-cta of a block-scaled contraction (NVFP4) on sm_100a: the
// scale tensors become [row atoms, K atoms, 32, 16] kernel arguments (the
// layout tcgen05.cp reads), each K step copies its scale-factor atoms (one
// 32x16-byte atom per copy, 4 per 128 rows and 256 K) into a scale buffer,
// and the MMA names them.
// CHECK-LABEL: cta.program @nvfp4(
// CHECK-SAME:    %[[AS:arg1]]: memref<?x?x?x?xf8E4M3FN, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"a.scale", scale, [cdiv(M, 128), cdiv(K, 64), 32, 16], of = "a", block = [1, 16]>}
// CHECK-SAME:    %[[BS:arg3]]: memref<?x?x?x?xf8E4M3FN, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"b.scale", scale, [cdiv(N, 128), cdiv(K, 64), 32, 16], of = "b", block = [1, 16]>}
// CHECK:         %[[SA:.*]] = cta.alloc : <128x256xf4E2M1FN>
// CHECK:         %[[SB:.*]] = cta.alloc : <256x256xf4E2M1FN>
// CHECK:         %[[SFA:.*]] = cta.alloc : <128x16xf8E4M3FN>
// CHECK:         %[[SFB:.*]] = cta.alloc : <256x16xf8E4M3FN>
// CHECK:         cta.mainloop
// CHECK:           cta.load %[[AS]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] -> %[[SFA]] {dst_rows = array<i64: 0, 32>}
// CHECK-COUNT-3:   cta.load %[[AS]]
// b's two row atoms, each with the stage's four K atoms.
// CHECK:           cta.load %[[BS]][%{{.*}}] -> %[[SFB]] {dst_rows = array<i64: 0, 32>}
// CHECK-COUNT-3:   cta.load %[[BS]]
// CHECK:           cta.load %[[BS]][%{{.*}}] -> %[[SFB]] {dst_rows = array<i64: 128, 160>}
// CHECK:           cta.mma %[[SA]], %[[SB]], %{{.*}} scales(%[[SFA]], %[[SFB]]) {scale_block = 16 : i64, transpose_b}
// SM90: error: convert-tile-to-cta: block-scaled products (NVFP4, MXFP8) need sm_100a
tile.kernel @nvfp4(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
                   %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>> {tile.param = #tile.param<"a.scale", scale, of = "a", block = [1, 16]>},
                   %b: tensor<?x?xf4E2M1FN, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>},
                   %bs: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>> {tile.param = #tile.param<"b.scale", scale, of = "b", block = [1, 16]>})
    -> (tensor<?x?xf16, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>}) {
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>] {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 256, stages = 3, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8>} -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

// Block-scaled experts (MXFP8, examples/moe_mxfp8.kiln): w's scale atoms are
// one tensor per expert, loaded from group %e's; x's are per group, each
// group's rows padded to whole atoms, so a tile's atom row is its row-tile
// index over all groups (%row_tile), and their count is a dim of its own.
// CHECK-LABEL: cta.program @moe_mxfp8(
// CHECK-SAME:    {cta.param = #cta.param<"x.scale", scale, [x_row_atoms, cdiv(K, 128), 32, 16], of = "x", block = [1, 32]>}
// CHECK-SAME:    {cta.param = #cta.param<"w.scale", scale, [E, cdiv(N, 128), cdiv(K, 128), 32, 16], of = "w", block = [1, 32]>}
// CHECK-SAME:    %{{.*}}: index {cta.dim = #cta.dim<x_row_atoms>}
// CHECK:         cta.tile_loop grouped
// CHECK-NEXT:    ^bb0(%[[G:.*]]: index, %[[M0:.*]]: index, %[[N0:.*]]: index, %{{.*}}: index, %[[RT:.*]]: index):
// CHECK:           %[[XA:.*]] = arith.addi %[[RT]], %{{.*}} : index
// CHECK:           cta.load %arg1[%[[XA]], %{{.*}}, %{{.*}}, %{{.*}}] -> %{{.*}} {dst_rows = array<i64: 0, 32>}
// CHECK:           cta.load %arg3[%[[G]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] -> %{{.*}} {dst_rows = array<i64: 0, 32>}
// CHECK:           cta.mma %{{.*}} scales(%{{.*}}, %{{.*}}) {scale_block = 32 : i64, transpose_b}
tile.kernel @moe_mxfp8(%arg0: tensor<?x?xf8E4M3FN, #tile.dims<T, K>> {tile.param = #tile.param<"x", input>}, %arg1: tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>> {tile.param = #tile.param<"x.scale", scale, of = "x", block = [1, 32]>}, %arg2: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>> {tile.param = #tile.param<"w", input>}, %arg3: tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>> {tile.param = #tile.param<"w.scale", scale, of = "w", block = [1, 32]>}, %arg4: tensor<?xi32, #tile.dims<E+1>> {tile.param = #tile.param<"offsets", input>}) -> (tensor<?x?xbf16, #tile.dims<T, N>> {tile.param = #tile.param<"y", output>}) {
  %0 = tile.contract(%arg0, %arg2, %arg1, %arg3 : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>) groups(%arg4 : tensor<?xi32, #tile.dims<E+1>>) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 32>] {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 5, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 2>} -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%arg5: f32):
    %1 = arith.truncf %arg5 : f32 to bf16
    tile.yield %1 : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

// Its x scale atoms are per 128-row tile: a schedule of other tile rows
// cannot read them.
tile.kernel @moe_mxfp8_256(%arg0: tensor<?x?xf8E4M3FN, #tile.dims<T, K>> {tile.param = #tile.param<"x", input>}, %arg1: tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>> {tile.param = #tile.param<"x.scale", scale, of = "x", block = [1, 32]>}, %arg2: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>> {tile.param = #tile.param<"w", input>}, %arg3: tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>> {tile.param = #tile.param<"w.scale", scale, of = "w", block = [1, 32]>}, %arg4: tensor<?xi32, #tile.dims<E+1>> {tile.param = #tile.param<"offsets", input>}) -> (tensor<?x?xbf16, #tile.dims<T, N>> {tile.param = #tile.param<"y", output>}) {
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: a block-scaled grouped (mixture-of-experts) product with tile_m = 256 (its scale atoms are per group of 128 rows)}}
  %0 = tile.contract(%arg0, %arg2, %arg1, %arg3 : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>) groups(%arg4 : tensor<?xi32, #tile.dims<E+1>>) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 32>] {schedule = #tile.schedule<tile_m = 256, tile_n = 128, tile_k = 128, stages = 5, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 2>} -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%arg5: f32):
    %1 = arith.truncf %arg5 : f32 to bf16
    tile.yield %1 : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}
