// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-tile-to-cta | FileCheck %s

// convert-tile-to-cta on contractions with several accumulators (dual GEMMs
// fused by tile-fuse-siblings): one K loop that loads a shared operand once.
// Products of one lhs whose rhs tiles fit one MMA side by side (N <= 256 on
// sm_90a) are packed: one rhs buffer filled by one copy per weight
// (dst_rows), one wide MMA, and cta.split_cols after the K loop. Otherwise
// each product keeps its own rhs buffer, accumulator and MMA.

// SwiGLU with 128-column tiles on 2x1 clusters: 2 x 128 <= 256, so w1 and w2
// fill rows [0, 128) and [128, 256) of one 256-row buffer (each copy
// multicast across the cluster), one 128x256 accumulator runs one MMA per K
// step, and its two 128-column halves reach the epilogue as the two products.
// CHECK-LABEL: cta.program @swiglu(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x",
// CHECK-SAME:    %[[W1:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w1",
// CHECK-SAME:    %[[W2:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w2",
// CHECK-SAME:    %[[Y:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y",
// CHECK-SAME:    %[[K:[^:]*]]: index {cta.dim = #cta.dim<K>}
// CHECK-SAME:    schedule = #cta.schedule<stages = 4, math_warpgroups = 2>
// CHECK-NEXT:    %[[SX:.*]] = cta.alloc : <128x64xbf16>
// CHECK-NEXT:    %[[SW:.*]] = cta.alloc : <256x64xbf16>
// CHECK-NEXT:    %[[SY:.*]] = cta.alloc : <128x128xbf16>
// CHECK-NEXT:    cta.tile_loop static (%{{.*}}, %{{.*}}) tile [128, 128] {
// CHECK-NEXT:    ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index):
// CHECK-NEXT:      %[[Z:.*]] = cta.acc_zero : <128x256xf32>
// CHECK-NEXT:      %[[ACC:.*]] = cta.mainloop %[[K]] step 64 iter_args(%[[Z]] : !cta.acc<128x256xf32>) -> !cta.acc<128x256xf32> {
// CHECK-NEXT:      ^bb0(%[[K0:.*]]: index, %[[IT:.*]]: !cta.acc<128x256xf32>):
// CHECK-NEXT:        cta.load %[[X]][%[[M0]], %[[K0]]] -> %[[SX]] rows_within %{{.*}} : memref<?x?xbf16, strided<[?, 1]>> -> <128x64xbf16>
// CHECK-NEXT:        cta.load %[[W1]][%[[N0]], %[[K0]]] -> %[[SW]] {dst_rows = array<i64: 0, 128>, multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> <256x64xbf16>
// CHECK-NEXT:        cta.load %[[W2]][%[[N0]], %[[K0]]] -> %[[SW]] {dst_rows = array<i64: 128, 256>, multicast = 2 : i64} : memref<?x?xbf16, strided<[?, 1]>> -> <256x64xbf16>
// CHECK-NEXT:        %[[P:.*]] = cta.mma %[[SX]], %[[SW]], %[[IT]] {transpose_b} : !cta.buffer<128x64xbf16>, <256x64xbf16>, <128x256xf32>
// CHECK-NEXT:        cta.yield %[[P]] : !cta.acc<128x256xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[PARTS:.*]]:2 = cta.split_cols %[[ACC]] : <128x256xf32> -> !cta.acc<128x128xf32>, !cta.acc<128x128xf32>
// CHECK-NEXT:      cta.store %[[PARTS]]#0, %[[PARTS]]#1 -> %[[Y]][%[[M0]], %[[N0]]] staging %[[SY]] : !cta.acc<128x128xf32>, !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
// CHECK-NEXT:      ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32):
// CHECK-NEXT:        %[[GU:.*]] = arith.mulf %[[G]], %[[U]] : f32
// CHECK-NEXT:        %[[T:.*]] = arith.truncf %[[GU]] : f32 to bf16
// CHECK-NEXT:        cta.yield %[[T]] : bf16
// CHECK-NEXT:      }
// CHECK-NEXT:    } {cluster = array<i64: 2, 1>, group_m = 8 : i64, persistent}
tile.kernel @swiglu(%x: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"x", input>}, %w1: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w1", input>},
                    %w2: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w2", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"y", output>}) {
  %0 = tile.contract(%x, %w1, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%g: f32, %u: f32):
    %p = arith.mulf %g, %u : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Three products of 64-column tiles still fit one MMA (3 x 64 = 192): one
// 192-row rhs buffer filled in three row bands, split into three parts in
// contraction order.
// CHECK-LABEL: cta.program @three_narrow(
// CHECK:         %[[SW:.*]] = cta.alloc : <192x64xbf16>
// CHECK:         cta.mainloop
// CHECK:           cta.load %{{.*}} -> %[[SW]] {dst_rows = array<i64: 0, 64>}
// CHECK-NEXT:      cta.load %{{.*}} -> %[[SW]] {dst_rows = array<i64: 64, 128>}
// CHECK-NEXT:      cta.load %{{.*}} -> %[[SW]] {dst_rows = array<i64: 128, 192>}
// CHECK-NEXT:      cta.mma %{{.*}}, %[[SW]], %{{.*}} {transpose_b} : !cta.buffer<128x64xbf16>, <192x64xbf16>, <128x192xf32>
// CHECK:         %[[PARTS:.*]]:3 = cta.split_cols %{{.*}} : <128x192xf32> -> !cta.acc<128x64xf32>, !cta.acc<128x64xf32>, !cta.acc<128x64xf32>
// CHECK-NEXT:    cta.store %[[PARTS]]#0, %[[PARTS]]#1, %[[PARTS]]#2 ->
tile.kernel @three_narrow(%x: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"x", input>}, %w1: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w1", input>},
                          %w2: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w2", input>}, %w3: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w3", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"y", output>}) {
  %0 = tile.contract(%x, %w1, %w2, %w3 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>,
       #tile.mma<lhs = 0, rhs = 3, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 64, stages = 3, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    %t = arith.truncf %q : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// 2 x 192 columns exceed one MMA: each weight keeps its own buffer and
// accumulator, the K loop carries both and runs two MMAs on the one lhs
// buffer; the store takes both accumulators as they are (no split), through
// two 96-column staging blocks (192 columns are not a whole number of
// 128-column ones).
// CHECK-LABEL: cta.program @wide(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x",
// CHECK-SAME:    %[[W1:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w1",
// CHECK-SAME:    %[[W2:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w2",
// CHECK-SAME:    %[[Y:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y",
// CHECK-NEXT:    %[[SX:.*]] = cta.alloc : <128x64xbf16>
// CHECK-NEXT:    %[[S1:.*]] = cta.alloc : <192x64xbf16>
// CHECK-NEXT:    %[[S2:.*]] = cta.alloc : <192x64xbf16>
// CHECK-NEXT:    %[[SY:.*]] = cta.alloc : <128x96xbf16>
// CHECK-NEXT:    cta.tile_loop static (%{{.*}}, %{{.*}}) tile [128, 192] {
// CHECK-NEXT:    ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index):
// CHECK-NEXT:      %[[Z1:.*]] = cta.acc_zero : <128x192xf32>
// CHECK-NEXT:      %[[Z2:.*]] = cta.acc_zero : <128x192xf32>
// CHECK-NEXT:      %[[ACC:.*]]:2 = cta.mainloop %{{.*}} step 64 iter_args(%[[Z1]], %[[Z2]] : !cta.acc<128x192xf32>, !cta.acc<128x192xf32>) -> !cta.acc<128x192xf32>, !cta.acc<128x192xf32> {
// CHECK-NEXT:      ^bb0(%[[K0:.*]]: index, %[[G:.*]]: !cta.acc<128x192xf32>, %[[U:.*]]: !cta.acc<128x192xf32>):
// CHECK-NEXT:        cta.load %[[X]][%[[M0]], %[[K0]]] -> %[[SX]] rows_within %{{.*}} :
// CHECK-NEXT:        cta.load %[[W1]][%[[N0]], %[[K0]]] -> %[[S1]] : memref<?x?xbf16, strided<[?, 1]>> -> <192x64xbf16>
// CHECK-NEXT:        cta.load %[[W2]][%[[N0]], %[[K0]]] -> %[[S2]] : memref<?x?xbf16, strided<[?, 1]>> -> <192x64xbf16>
// CHECK-NEXT:        %[[PG:.*]] = cta.mma %[[SX]], %[[S1]], %[[G]] {transpose_b} : !cta.buffer<128x64xbf16>, <192x64xbf16>, <128x192xf32>
// CHECK-NEXT:        %[[PU:.*]] = cta.mma %[[SX]], %[[S2]], %[[U]] {transpose_b} : !cta.buffer<128x64xbf16>, <192x64xbf16>, <128x192xf32>
// CHECK-NEXT:        cta.yield %[[PG]], %[[PU]] : !cta.acc<128x192xf32>, !cta.acc<128x192xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      cta.store %[[ACC]]#0, %[[ACC]]#1 -> %[[Y]][%[[M0]], %[[N0]]] staging %[[SY]] : !cta.acc<128x192xf32>, !cta.acc<128x192xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x96xbf16> {
// CHECK-NOT:     cta.split_cols
tile.kernel @wide(%x: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"x", input>}, %w1: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w1", input>},
                  %w2: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w2", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"y", output>}) {
  %0 = tile.contract(%x, %w1, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 192, tile_k = 64, stages = 3, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%g: f32, %u: f32):
    %p = arith.mulf %g, %u : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Three 128-column products (3 x 128 > 256): three rhs buffers, three
// accumulators, three MMAs on the shared lhs buffer.
// CHECK-LABEL: cta.program @three(
// CHECK:         %[[SX:.*]] = cta.alloc : <128x64xbf16>
// CHECK-NEXT:    %[[S1:.*]] = cta.alloc : <128x64xbf16>
// CHECK-NEXT:    %[[S2:.*]] = cta.alloc : <128x64xbf16>
// CHECK-NEXT:    %[[S3:.*]] = cta.alloc : <128x64xbf16>
// CHECK:         %[[ACC:.*]]:3 = cta.mainloop
// CHECK-NEXT:    ^bb0(%{{.*}}: index, %[[A1:.*]]: !cta.acc<128x128xf32>, %[[A2:.*]]: !cta.acc<128x128xf32>, %[[A3:.*]]: !cta.acc<128x128xf32>):
// CHECK-COUNT-4:   cta.load
// CHECK-NEXT:      cta.mma %[[SX]], %[[S1]], %[[A1]]
// CHECK-NEXT:      cta.mma %[[SX]], %[[S2]], %[[A2]]
// CHECK-NEXT:      cta.mma %[[SX]], %[[S3]], %[[A3]]
// CHECK:         cta.store %[[ACC]]#0, %[[ACC]]#1, %[[ACC]]#2 ->
// CHECK-NOT:     cta.split_cols
tile.kernel @three(%x: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"x", input>}, %w1: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w1", input>},
                   %w2: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w2", input>}, %w3: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w3", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"y", output>}) {
  %0 = tile.contract(%x, %w1, %w2, %w3 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>,
       #tile.mma<lhs = 0, rhs = 3, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 3, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    %t = arith.truncf %q : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Two lhs sharing one rhs are not packed (packing needs one lhs): two lhs
// buffers loaded at the tile's rows, the rhs buffer loaded once, two MMAs.
// CHECK-LABEL: cta.program @shared_rhs(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"x",
// CHECK-SAME:    %[[Z:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"z",
// CHECK-SAME:    %[[W:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"w",
// CHECK-NEXT:    %[[SX:.*]] = cta.alloc : <128x64xbf16>
// CHECK-NEXT:    %[[SW:.*]] = cta.alloc : <64x64xbf16>
// CHECK-NEXT:    %[[SZ:.*]] = cta.alloc : <128x64xbf16>
// CHECK:         ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index):
// CHECK:           ^bb0(%[[K0:.*]]: index, %[[A1:.*]]: !cta.acc<128x64xf32>, %[[A2:.*]]: !cta.acc<128x64xf32>):
// CHECK-NEXT:        cta.load %[[X]][%[[M0]], %[[K0]]] -> %[[SX]]
// CHECK-NEXT:        cta.load %[[Z]][%[[M0]], %[[K0]]] -> %[[SZ]]
// CHECK-NEXT:        cta.load %[[W]][%[[N0]], %[[K0]]] -> %[[SW]]
// CHECK-NEXT:        cta.mma %[[SX]], %[[SW]], %[[A1]]
// CHECK-NEXT:        cta.mma %[[SZ]], %[[SW]], %[[A2]]
// CHECK-NOT:     cta.split_cols
tile.kernel @shared_rhs(%x: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"x", input>}, %z: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"z", input>},
                        %w: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"y", output>}) {
  %0 = tile.contract(%x, %z, %w : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 1, rhs = 2, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 64, stages = 3, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}
