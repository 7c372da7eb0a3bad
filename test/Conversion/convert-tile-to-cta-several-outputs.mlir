// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-tile-to-cta | FileCheck %s

// convert-tile-to-cta on contractions with several outputs (multi-output
// epilogue fusion): one cta.store per kernel output, in the order the kernel
// returns them, each with only the part of the epilogue that computes its
// value and only the accumulators and inputs that part reads. Outputs of one
// element type share one staging buffer.

// A dual GEMM writing y = (g + bias) * u, u and g: y reads both products and
// the bias; u only the second product (an f32 output, with its own 64-column
// staging buffer); g only the first (bf16, sharing y's staging buffer).
// CHECK-LABEL: cta.program @three_outputs(
// CHECK-SAME:    %[[BIAS:[^:]*]]: memref<?xf32, strided<[1]>> {cta.param = #cta.param<"bias", input, [N]>}
// CHECK-SAME:    %[[Y:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"y", output, [M, N]>}
// CHECK-SAME:    %[[U:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"u", output, [M, N]>}
// CHECK-SAME:    %[[G:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"g", output, [M, N]>}
// CHECK-NEXT:    cta.alloc : <128x64xbf16>
// CHECK-NEXT:    cta.alloc : <256x64xbf16>
// CHECK-NEXT:    %[[S16:.*]] = cta.alloc : <128x128xbf16>
// CHECK-NEXT:    %[[S32:.*]] = cta.alloc : <128x64xf32>
// CHECK-NEXT:    cta.tile_loop
// CHECK-NEXT:    ^bb0(%[[M0:.*]]: index, %[[N0:.*]]: index):
// CHECK:           %[[P:.*]]:2 = cta.split_cols
// CHECK-NEXT:      cta.store %[[P]]#0, %[[P]]#1 inputs(%[[BIAS]] per_col : memref<?xf32, strided<[1]>>) -> %[[Y]][%[[M0]], %[[N0]]] staging %[[S16]] : !cta.acc<128x128xf32>, !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
// CHECK-NEXT:      ^bb0(%[[YG:.*]]: f32, %[[YU:.*]]: f32, %[[YB:.*]]: f32):
// CHECK-NEXT:        %[[GB:.*]] = arith.addf %[[YG]], %[[YB]] : f32
// CHECK-NEXT:        %[[GBU:.*]] = arith.mulf %[[GB]], %[[YU]] : f32
// CHECK-NEXT:        %[[YT:.*]] = arith.truncf %[[GBU]] : f32 to bf16
// CHECK-NEXT:        cta.yield %[[YT]] : bf16
// CHECK-NEXT:      }
// CHECK-NEXT:      cta.store %[[P]]#1 -> %[[U]][%[[M0]], %[[N0]]] staging %[[S32]] : !cta.acc<128x128xf32> -> memref<?x?xf32, strided<[?, 1]>>, !cta.buffer<128x64xf32> {
// CHECK-NEXT:      ^bb0(%[[UU:.*]]: f32):
// CHECK-NEXT:        cta.yield %[[UU]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      cta.store %[[P]]#0 -> %[[G]][%[[M0]], %[[N0]]] staging %[[S16]] : !cta.acc<128x128xf32> -> memref<?x?xbf16, strided<[?, 1]>>, !cta.buffer<128x128xbf16> {
// CHECK-NEXT:      ^bb0(%[[GG:.*]]: f32):
// CHECK-NEXT:        %[[GT:.*]] = arith.truncf %[[GG]] : f32 to bf16
// CHECK-NEXT:        cta.yield %[[GT]] : bf16
// CHECK-NEXT:      }
// CHECK-NEXT:    } {cluster
tile.kernel @three_outputs(%x: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"x", input>}, %w1: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w1", input>},
                           %w2: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"w2", input>}, %bias: tensor<?xf32, #tile.dims<N>> {tile.param = #tile.param<"bias", input>})
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"y", output>}, tensor<?x?xf32, #tile.dims<M, N>> {tile.param = #tile.param<"u", output>},
        tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"g", output>}) {
  %0:3 = tile.contract(%x, %w1, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%bias : tensor<?xf32, #tile.dims<N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%g: f32, %u: f32, %b: f32):
    %gb = arith.addf %g, %b : f32
    %p = arith.mulf %gb, %u : f32
    %t = arith.truncf %p : f32 to bf16
    %gt = arith.truncf %g : f32 to bf16
    tile.yield %t, %u, %gt : bf16, f32, bf16
  }
  tile.return %0#0, %0#1, %0#2 : tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Outputs returned in another order than the contraction yields them are
// stored in the return order, each to its own output. An output that reads
// no accumulator (here: twice a residual input) still stores the
// accumulator, which gives the store its tile; a constant both slices use is
// copied into each.
// CHECK-LABEL: cta.program @input_only(
// CHECK-SAME:    %[[R:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"r",
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"c", output,
// CHECK-SAME:    %[[D:[^:]*]]: memref<?x?xbf16, strided<[?, 1]>> {cta.param = #cta.param<"d", output,
// CHECK:         %[[ACC:.*]] = cta.mainloop
// CHECK:         cta.store %[[ACC]] inputs(%[[R]] tile : memref<?x?xbf16, strided<[?, 1]>>) -> %[[C]]
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %[[V:.*]]: bf16):
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[VF:.*]] = arith.extf %[[V]] : bf16 to f32
// CHECK-NEXT:      %[[V2:.*]] = arith.mulf %[[VF]], %[[TWO]] : f32
// CHECK-NEXT:      %[[VT:.*]] = arith.truncf %[[V2]] : f32 to bf16
// CHECK-NEXT:      cta.yield %[[VT]] : bf16
// CHECK-NEXT:    }
// CHECK-NEXT:    cta.store %[[ACC]] -> %[[D]]
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:      %[[TWO2:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[E2:.*]] = arith.mulf %[[E]], %[[TWO2]] : f32
// CHECK-NEXT:      %[[ET:.*]] = arith.truncf %[[E2]] : f32 to bf16
// CHECK-NEXT:      cta.yield %[[ET]] : bf16
// CHECK-NEXT:    }
tile.kernel @input_only(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>},
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

// -----

// One result returned as two outputs is stored twice, to each output, through
// the one staging buffer of their element type.
// CHECK-LABEL: cta.program @twice(
// CHECK-SAME:    %[[C:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"c", output,
// CHECK-SAME:    %[[D:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"d", output,
// CHECK:         %[[SC:.*]] = cta.alloc : <128x64xf32>
// CHECK-NOT:     cta.alloc
// CHECK:         %[[ACC:.*]] = cta.mainloop
// CHECK:         cta.store %[[ACC]] -> %[[C]][%{{.*}}] staging %[[SC]]
// CHECK:         cta.store %[[ACC]] -> %[[D]][%{{.*}}] staging %[[SC]]
tile.kernel @twice(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>})
    -> (tensor<?x?xf32, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>}, tensor<?x?xf32, #tile.dims<M, N>> {tile.param = #tile.param<"d", output>}) {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %0, %0 : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}
