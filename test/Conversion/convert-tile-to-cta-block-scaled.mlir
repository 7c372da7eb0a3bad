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
