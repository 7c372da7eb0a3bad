// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Every tile op, attribute and dims encoding round-trips through its custom
// assembly (and through the generic form).

//===----------------------------------------------------------------------===//
// #tile.dims: every kind of dim expression
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @dims(
// CHECK-SAME:    tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}
// CHECK-SAME:    tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>
// CHECK-SAME:    tensor<?xi32, #tile.dims<E+1>>
// CHECK-SAME:    tensor<?x4xf32, #tile.dims<H*2, 4>>
// CHECK-SAME:    tensor<?xf32, #tile.dims<N-1>>
// CHECK-SAME:    tensor<?xf32, #tile.dims<_seq_len2>>
// CHECK-SAME:    tensor<128x64xbf16>
// CHECK-SAME:    -> tensor<?x?xbf16, #tile.dims<M, K>>
tile.kernel @dims(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
                  %s: tensor<?x?xf32, #tile.dims<M, cdiv( K , 128 )>>,
                  %o: tensor<?xi32, #tile.dims<E + 1>>,
                  %h: tensor<?x4xf32, #tile.dims<H * 2, 4>>,
                  %n: tensor<?xf32, #tile.dims<N - 1>>,
                  %u: tensor<?xf32, #tile.dims<"_seq_len2">>,
                  %static: tensor<128x64xbf16>)
    -> tensor<?x?xbf16, #tile.dims<M, K>> {
  tile.return %a : tensor<?x?xbf16, #tile.dims<M, K>>
}

// Each #tile.dims entry is a #tile.dim, which also stands alone (quoted, in
// the canonical spelling of runtime/DimExpr.h).
// CHECK-LABEL: tile.kernel @dim_attrs()
// CHECK-SAME:    attributes {c = #tile.dim<"7">, d = #tile.dim<"cdiv(K,128)">, e = #tile.dim<"E+1">, m = #tile.dim<"M">}
tile.kernel @dim_attrs() attributes {d = #tile.dim<"cdiv(K,128)">, m = #tile.dim<"M">,
                                     e = #tile.dim<"E+1">, c = #tile.dim<"7">} {
  tile.return
}

// A tensor without an encoding is fine (its dims are its static sizes).
// CHECK-LABEL: tile.kernel @no_outputs(
// CHECK-SAME:    %{{.*}}: tensor<?x?xf32>)
// CHECK-NEXT:    tile.return{{$}}
tile.kernel @no_outputs(%a: tensor<?x?xf32>) {
  tile.return
}

//===----------------------------------------------------------------------===//
// Kernel attributes: source names, scale tensors, schedule hints
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @scaled_args(
// CHECK-SAME:    {tile.param = #tile.param<"a", input>}
// CHECK-SAME:    {tile.param = #tile.param<"a.scale", scale, of = "a", block = [1, 128]>}
// CHECK-SAME:    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>})
// CHECK-SAME:    attributes {hints = #tile.hints<tile = [128, 256, 64], stages = 3, cluster = [2, 1], consumers = 2, persistent = false, group_m = 4>}
tile.kernel @scaled_args(
    %a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
    %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>> {tile.param = #tile.param<"a.scale", scale, of = "a", block = [1, 128]>},
    %c: tensor<?x?xbf16, #tile.dims<M, N>>)
    -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>})
    attributes {hints = #tile.hints<tile = [128, 256, 64], stages = 3, cluster = [2, 1], consumers = 2, persistent = false, group_m = 4>} {
  tile.return %c : tensor<?x?xbf16, #tile.dims<M, N>>
}

// Two-element tile and one-element cluster hints are accepted too.
// CHECK-LABEL: tile.kernel @short_hints(
// CHECK-SAME:    attributes {hints = #tile.hints<tile = [64, 64], cluster = [1]>}
tile.kernel @short_hints(%a: tensor<?xf32, #tile.dims<M>>) -> tensor<?xf32, #tile.dims<M>>
    attributes {hints = #tile.hints<tile = [64, 64], cluster = [1]>} {
  tile.return %a : tensor<?xf32, #tile.dims<M>>
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @contractions(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<?x?xbf16, #tile.dims<M, K>>
// CHECK-SAME:    %[[B:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK-SAME:    %[[BT:[^:]*]]: tensor<?x?xbf16, #tile.dims<K, N>>
// CHECK-SAME:    %[[AT:[^:]*]]: tensor<?x?xbf16, #tile.dims<K, M>>
// CHECK-SAME:    %[[BA:[^:]*]]: tensor<?x?x?x128xf16, #tile.dims<B, H, S, 128>>
// CHECK-SAME:    %[[BB:[^:]*]]: tensor<?x?x128xf16, #tile.dims<H, T, 128>>
// CHECK-SAME:    %[[X8:[^:]*]]: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>
// CHECK-SAME:    %[[X8S:[^:]*]]: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>
// CHECK-SAME:    %[[W8:[^:]*]]: tensor<?x?xf8E5M2, #tile.dims<N, K>>
// CHECK-SAME:    %[[W8S:[^:]*]]: tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>
// CHECK-SAME:    %[[X4:[^:]*]]: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>
// CHECK-SAME:    %[[X4S:[^:]*]]: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>
// CHECK-SAME:    %[[W4:[^:]*]]: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>
// CHECK-SAME:    %[[W4S:[^:]*]]: tensor<?x?xf8E8M0FNU, #tile.dims<N, cdiv(K, 32)>>
// CHECK-SAME:    %[[E:[^:]*]]: tensor<?x?x?xbf16, #tile.dims<E, N, K>>
// CHECK-SAME:    %[[EK:[^:]*]]: tensor<8x?x?xbf16, #tile.dims<8, K, N>>
// CHECK-SAME:    %[[OFF:[^:]*]]: tensor<?xi32, #tile.dims<E+1>>
// CHECK-SAME:    %[[OFF9:[^:]*]]: tensor<9xi32>
// CHECK:       %[[R0:.*]] = tile.matmul %[[A]], %[[B]] {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
// CHECK:       %[[R1:.*]] = tile.matmul %[[A]], %[[BT]] : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<K, N>> -> tensor<?x?xf32, #tile.dims<M, N>>
// CHECK:       %[[R2:.*]] = tile.matmul %[[AT]], %[[B]] {transpose_a, transpose_b} : {{.*}} -> tensor<?x?xf32, #tile.dims<M, N>>
// CHECK:       %[[R3:.*]] = tile.matmul %[[BA]], %[[BB]] {transpose_b} : tensor<?x?x?x128xf16, #tile.dims<B, H, S, 128>>, tensor<?x?x128xf16, #tile.dims<H, T, 128>> -> tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>
// CHECK:       %[[R4:.*]] = tile.scaled_matmul %[[X8]], %[[X8S]], %[[W8]], %[[W8S]] {lhs_block = array<i64: 1, 128>, rhs_block = array<i64: 128, 128>, transpose_b} : {{.*}} -> tensor<?x?xf32, #tile.dims<M, N>>
// CHECK:       %[[R5:.*]] = tile.scaled_matmul %[[X4]], %[[X4S]], %[[W4]], %[[W4S]] {lhs_block = array<i64: 1, 16>, rhs_block = array<i64: 1, 32>, transpose_b}
// CHECK:       %[[R6:.*]] = tile.grouped_matmul %[[A]], %[[E]], %[[OFF]] {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<M, N>>
// CHECK:       %[[R7:.*]] = tile.grouped_matmul %[[A]], %[[EK]], %[[OFF9]] : {{.*}} -> tensor<?x?xf32, #tile.dims<M, N>>
// CHECK:       tile.return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[R6]], %[[R7]] :
tile.kernel @contractions(%a: tensor<?x?xbf16, #tile.dims<M, K>>,
                          %b: tensor<?x?xbf16, #tile.dims<N, K>>,
                          %bt: tensor<?x?xbf16, #tile.dims<K, N>>,
                          %at: tensor<?x?xbf16, #tile.dims<K, M>>,
                          %ba: tensor<?x?x?x128xf16, #tile.dims<B, H, S, 128>>,
                          %bb: tensor<?x?x128xf16, #tile.dims<H, T, 128>>,
                          %x8: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>,
                          %x8s: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>,
                          %w8: tensor<?x?xf8E5M2, #tile.dims<N, K>>,
                          %w8s: tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>,
                          %x4: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>,
                          %x4s: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
                          %w4: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>,
                          %w4s: tensor<?x?xf8E8M0FNU, #tile.dims<N, cdiv(K, 32)>>,
                          %e: tensor<?x?x?xbf16, #tile.dims<E, N, K>>,
                          %ek: tensor<8x?x?xbf16, #tile.dims<8, K, N>>,
                          %off: tensor<?xi32, #tile.dims<E+1>>,
                          %off9: tensor<9xi32>)
    -> (tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>,
        tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>,
        tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>,
        tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>) {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %1 = tile.matmul %a, %bt : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<K, N>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %2 = tile.matmul %at, %b {transpose_a, transpose_b} : tensor<?x?xbf16, #tile.dims<K, M>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %3 = tile.matmul %ba, %bb {transpose_b} : tensor<?x?x?x128xf16, #tile.dims<B, H, S, 128>>, tensor<?x?x128xf16, #tile.dims<H, T, 128>> -> tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>
  %4 = tile.scaled_matmul %x8, %x8s, %w8, %w8s {lhs_block = array<i64: 1, 128>, rhs_block = array<i64: 128, 128>, transpose_b}
      : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>,
        tensor<?x?xf8E5M2, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  %5 = tile.scaled_matmul %x4, %x4s, %w4, %w4s {lhs_block = array<i64: 1, 16>, rhs_block = array<i64: 1, 32>, transpose_b}
      : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
        tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E8M0FNU, #tile.dims<N, cdiv(K, 32)>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  %6 = tile.grouped_matmul %a, %e, %off {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %7 = tile.grouped_matmul %a, %ek, %off9 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<8x?x?xbf16, #tile.dims<8, K, N>>, tensor<9xi32> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return %0, %1, %2, %3, %4, %5, %6, %7
      : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>,
        tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>,
        tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>,
        tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// Static shapes without an encoding agree with symbolic ones only through
// their sizes: here every extent is a constant.
// CHECK-LABEL: tile.kernel @static_matmul(
// CHECK:         tile.matmul %{{.*}}, %{{.*}} : tensor<128x64xf32>, tensor<64x32xf32> -> tensor<128x32xf32>
tile.kernel @static_matmul(%a: tensor<128x64xf32>, %b: tensor<64x32xf32>) -> tensor<128x32xf32> {
  %0 = tile.matmul %a, %b : tensor<128x64xf32>, tensor<64x32xf32> -> tensor<128x32xf32>
  tile.return %0 : tensor<128x32xf32>
}

//===----------------------------------------------------------------------===//
// tile.contract and #tile.mma / #tile.schedule
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @contract(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<?x?xbf16, #tile.dims<M, K>>
// CHECK-SAME:    %[[W1:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK-SAME:    %[[W2:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK-SAME:    %[[BIAS:[^:]*]]: tensor<?xbf16, #tile.dims<N>>
// CHECK:       %[[Y:.*]] = tile.contract(%[[X]], %[[W1]], %[[W2]] : {{.*}}) epilogue_inputs(%[[BIAS]] : tensor<?xbf16, #tile.dims<N>>)
// CHECK-SAME:    [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>]
// CHECK-SAME:    {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-SAME:    -> tensor<?x?xbf16, #tile.dims<M, N>> {
// CHECK-NEXT:  ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32, %[[BV:.*]]: bf16):
// CHECK-NEXT:    %[[BF:.*]] = arith.extf %[[BV]] : bf16 to f32
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[G]], %[[U]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[P]], %[[BF]] : f32
// CHECK-NEXT:    %[[T:.*]] = arith.truncf %[[S]] : f32 to bf16
// CHECK-NEXT:    tile.yield %[[T]] : bf16
// CHECK-NEXT:  }
// CHECK:       %[[Z:.*]] = tile.contract(%[[X]], %[[W1]] : {{.*}}) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
// CHECK-NEXT:  ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT:    tile.yield %[[ACC]] : f32
// CHECK:       tile.return %[[Y]], %[[Z]]
tile.kernel @contract(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                      %w2: tensor<?x?xbf16, #tile.dims<N, K>>, %bias: tensor<?xbf16, #tile.dims<N>>)
    -> (tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>) {
  %y = tile.contract(%x, %w1, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>,
                     tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%bias : tensor<?xbf16, #tile.dims<N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>,
       #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 2,
                                 cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%g: f32, %u: f32, %bv: bf16):
    %bf = arith.extf %bv : bf16 to f32
    %p = arith.mulf %g, %u : f32
    %s = arith.addf %p, %bf : f32
    %t = arith.truncf %s : f32 to bf16
    tile.yield %t : bf16
  }
  %z = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %y, %z : tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// Block scales: the scale tensors among the inputs, the K block, and rhs
// scales per block of 128 rows (fp8 with f32 128x128 weight blocks).
// CHECK-LABEL: tile.kernel @block_scaled(
// CHECK:         [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128, rhs_scale_rows = 128>]
tile.kernel @block_scaled(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, %bs: tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>) -> tensor<?x?xf32, #tile.dims<M, N>> {
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128, rhs_scale_rows = 128>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}

// The schedule's struct syntax accepts its parameters in any order.
// CHECK-LABEL: tile.kernel @schedule_order(
// CHECK:         [#tile.mma<lhs = 1, rhs = 0, transpose_a = true, transpose_b = false>]
// CHECK-SAME:    {schedule = #tile.schedule<tile_m = 64, tile_n = 64, tile_k = 32, stages = 1, cluster_m = 1, cluster_n = 4, consumers = 1, persistent = false, group_m = 1>}
tile.kernel @schedule_order(%w: tensor<32x64xf16>, %at: tensor<32x64xf16>) -> tensor<64x64xf16> {
  %0 = tile.contract(%w, %at : tensor<32x64xf16>, tensor<32x64xf16>)
      [#tile.mma<transpose_b = false, transpose_a = true, rhs = 0, lhs = 1>]
      {schedule = #tile.schedule<group_m = 1, persistent = false, consumers = 1, cluster_n = 4,
                                 cluster_m = 1, stages = 1, tile_k = 32, tile_n = 64, tile_m = 64>}
      -> tensor<64x64xf16> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<64x64xf16>
}

//===----------------------------------------------------------------------===//
// Elementwise, reductions and attention pieces
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @elementwise(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<?x?xf32, #tile.dims<M, N>>
// CHECK-SAME:    %[[ROW:[^:]*]]: tensor<?xbf16, #tile.dims<N>>
// CHECK-SAME:    %[[COL:[^:]*]]: tensor<?x1xf32, #tile.dims<M, 1>>
// CHECK:       %[[Y:.*]] = tile.map %[[X]], %[[ROW]], %[[COL]] : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?xbf16, #tile.dims<N>>, tensor<?x1xf32, #tile.dims<M, 1>> -> tensor<?x?xf32, #tile.dims<M, N>> {
// CHECK-NEXT:  ^bb0(%[[U:.*]]: f32, %[[V:.*]]: bf16, %[[W:.*]]: f32):
// CHECK-NEXT:    %[[VF:.*]] = arith.extf %[[V]] : bf16 to f32
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[U]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[E]], %[[VF]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.mulf %[[S]], %[[W]] : f32
// CHECK-NEXT:    tile.yield %[[R]] : f32
// CHECK-NEXT:  }
// CHECK:       %[[SUM:.*]] = tile.reduce sum %[[Y]] axis = 1 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<M>>
// CHECK:       %[[MAX:.*]] = tile.reduce max %[[Y]] axis = 0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<N>>
// CHECK:       %[[LSE:.*]] = tile.reduce logsumexp %[[Y]] axis = 1 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<M>>
// CHECK:       %[[SM:.*]] = tile.softmax %[[Y]] : tensor<?x?xf32, #tile.dims<M, N>>
// CHECK:       tile.return %[[SUM]], %[[MAX]], %[[LSE]], %[[SM]]
tile.kernel @elementwise(%x: tensor<?x?xf32, #tile.dims<M, N>>, %row: tensor<?xbf16, #tile.dims<N>>,
                         %col: tensor<?x1xf32, #tile.dims<M, 1>>)
    -> (tensor<?xf32, #tile.dims<M>>, tensor<?xf32, #tile.dims<N>>, tensor<?xf32, #tile.dims<M>>,
        tensor<?x?xf32, #tile.dims<M, N>>) {
  %y = tile.map %x, %row, %col : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?xbf16, #tile.dims<N>>,
                                 tensor<?x1xf32, #tile.dims<M, 1>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%u: f32, %v: bf16, %w: f32):
    %vf = arith.extf %v : bf16 to f32
    %e = math.exp %u : f32
    %s = arith.addf %e, %vf : f32
    %r = arith.mulf %s, %w : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce sum %y axis = 1 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<M>>
  %max = tile.reduce max %y axis = 0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<N>>
  %lse = tile.reduce logsumexp %y axis = 1 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<M>>
  %sm = tile.softmax %y : tensor<?x?xf32, #tile.dims<M, N>>
  tile.return %sum, %max, %lse, %sm : tensor<?xf32, #tile.dims<M>>, tensor<?xf32, #tile.dims<N>>,
      tensor<?xf32, #tile.dims<M>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// CHECK-LABEL: tile.kernel @attention_pieces(
// CHECK-SAME:    %[[S:[^:]*]]: tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>
// A causal mask has an empty predicate region.
// CHECK:       %[[C:.*]] = tile.mask %[[S]] causal : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>> {
// CHECK-NEXT:  }
// CHECK:       %[[W:.*]] = tile.mask %[[C]] : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>> {
// CHECK-NEXT:  ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[I]], %[[J]] : index
// CHECK-NEXT:    %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %[[D]], %[[C256]] : index
// CHECK-NEXT:    tile.yield %[[IN]] : i1
// CHECK-NEXT:  }
// CHECK:       %[[M:.*]] = tile.score_mod %[[W]] : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>> {
// CHECK-NEXT:  ^bb0(%[[X:.*]]: f32, %[[I2:.*]]: index, %[[J2:.*]]: index):
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[X]] : f32
// CHECK-NEXT:    tile.yield %[[T]] : f32
// CHECK-NEXT:  }
// CHECK:       %[[P:.*]] = tile.softmax %[[M]] : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>
// CHECK:       tile.return %[[P]]
tile.kernel @attention_pieces(%s: tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>)
    -> tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>> {
  %c = tile.mask %s causal : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>> {}
  %w = tile.mask %c : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>> {
  ^bb0(%i: index, %j: index):
    %d = arith.subi %i, %j : index
    %c256 = arith.constant 256 : index
    %in = arith.cmpi ult, %d, %c256 : index
    tile.yield %in : i1
  }
  %m = tile.score_mod %w : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>> {
  ^bb0(%x: f32, %i: index, %j: index):
    %t = math.tanh %x : f32
    tile.yield %t : f32
  }
  %p = tile.softmax %m : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>
  tile.return %p : tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>
}

// Softmax on a vector, masks on a plain 2-D f16 score matrix.
// CHECK-LABEL: tile.kernel @small_ranks(
// CHECK:         tile.softmax %{{.*}} : tensor<?xf16, #tile.dims<N>>
// CHECK:         tile.mask %{{.*}} causal : tensor<16x16xf16>
tile.kernel @small_ranks(%v: tensor<?xf16, #tile.dims<N>>, %s: tensor<16x16xf16>)
    -> (tensor<?xf16, #tile.dims<N>>, tensor<16x16xf16>) {
  %0 = tile.softmax %v : tensor<?xf16, #tile.dims<N>>
  %1 = tile.mask %s causal : tensor<16x16xf16> {}
  tile.return %0, %1 : tensor<?xf16, #tile.dims<N>>, tensor<16x16xf16>
}

//===----------------------------------------------------------------------===//
// tile.attention
//===----------------------------------------------------------------------===//

// Causal with a score modifier: the mask kind is a typed attribute, the
// empty mask region is not printed.
// CHECK-LABEL: tile.kernel @attention(
// CHECK-SAME:    %[[Q:[^:]*]]: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
// CHECK-SAME:    %[[K:[^:]*]]: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>
// CHECK-SAME:    %[[V:[^:]*]]: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>
// CHECK:       %[[O:.*]] = tile.attention %[[Q]], %[[K]], %[[V]] mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> score {
// CHECK-NEXT:  ^bb0(%[[X:.*]]: f32, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0.0883883461 : f32
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %[[X]], %[[C]] : f32
// CHECK-NEXT:    tile.yield %[[Y]] : f32
// CHECK-NEXT:  }
// CHECK-NEXT:  tile.return %[[O]]
tile.kernel @attention(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>,
                       %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>,
                       %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>)
    -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> {
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16
      : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>,
        tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
      score {
  ^bb0(%s: f32, %i: index, %j: index):
    %c = arith.constant 0.0883883461 : f32
    %x = arith.mulf %s, %c : f32
    tile.yield %x : f32
  }
  tile.return %o : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
}

// Grouped-query attention (one key/value head), a predicate mask and no
// score modifier; f32 output, Dv other than D.
// CHECK-LABEL: tile.kernel @attention_gqa_window(
// CHECK:       tile.attention %{{.*}}, %{{.*}}, %{{.*}} mask_kind = none, p_type = f16 : tensor<?x?x?x64xf16, #tile.dims<B, H, S, 64>>, tensor<?x1x?x64xf16, #tile.dims<B, 1, T, 64>>, tensor<?x1x?x32xf16, #tile.dims<B, 1, T, 32>> -> tensor<?x?x?x32xf32, #tile.dims<B, H, S, 32>> mask {
// CHECK-NEXT:  ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[I]], %[[J]] : index
// CHECK-NEXT:    %[[W:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %[[D]], %[[W]] : index
// CHECK-NEXT:    tile.yield %[[IN]] : i1
// CHECK-NEXT:  }
tile.kernel @attention_gqa_window(%q: tensor<?x?x?x64xf16, #tile.dims<B, H, S, 64>>,
                                  %k: tensor<?x1x?x64xf16, #tile.dims<B, 1, T, 64>>,
                                  %v: tensor<?x1x?x32xf16, #tile.dims<B, 1, T, 32>>)
    -> tensor<?x?x?x32xf32, #tile.dims<B, H, S, 32>> {
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = f16
      : tensor<?x?x?x64xf16, #tile.dims<B, H, S, 64>>, tensor<?x1x?x64xf16, #tile.dims<B, 1, T, 64>>,
        tensor<?x1x?x32xf16, #tile.dims<B, 1, T, 32>> -> tensor<?x?x?x32xf32, #tile.dims<B, H, S, 32>>
      mask {
  ^bb0(%i: index, %j: index):
    %d = arith.subi %i, %j : index
    %c256 = arith.constant 256 : index
    %in = arith.cmpi ult, %d, %c256 : index
    tile.yield %in : i1
  }
  tile.return %o : tensor<?x?x?x32xf32, #tile.dims<B, H, S, 32>>
}

// Packed sequences: the segmented product of varlen attention's scores, and
// the attention op over segments with its log-sum-exp.
// CHECK-LABEL: tile.kernel @attention_varlen(
// CHECK:       %{{.*}} = tile.segmented_matmul %{{.*}}, %{{.*}} segments(%[[CQ:.*]], %[[CK:.*]]) : tensor<?x?x?xbf16, #tile.dims<H, S, D>>, tensor<?x?x?xbf16, #tile.dims<H, T, D>>, tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>> -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
// CHECK:       %{{.*}}, %{{.*}} = tile.attention %{{.*}}, %{{.*}}, %{{.*}} segments(%[[CQ]], %[[CK]] : tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>>) mask_kind = causal, p_type = bf16 : {{.*}} -> tensor<?x?x?xbf16, #tile.dims<H, S, D>>, lse tensor<?x?xf32, #tile.dims<H, S>>{{$}}
tile.kernel @attention_varlen(%q: tensor<?x?x?xbf16, #tile.dims<H, S, D>>,
                              %k: tensor<?x?x?xbf16, #tile.dims<H, T, D>>,
                              %v: tensor<?x?x?xbf16, #tile.dims<H, T, D>>,
                              %cq: tensor<?xi32, #tile.dims<B+1>>, %ck: tensor<?xi32, #tile.dims<B+1>>)
    -> (tensor<?x?x?xf32, #tile.dims<H, S, T>>, tensor<?x?x?xbf16, #tile.dims<H, S, D>>,
        tensor<?x?xf32, #tile.dims<H, S>>) {
  %s = tile.segmented_matmul %q, %k segments(%cq, %ck)
      : tensor<?x?x?xbf16, #tile.dims<H, S, D>>, tensor<?x?x?xbf16, #tile.dims<H, T, D>>,
        tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>> -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
  %o, %l = tile.attention %q, %k, %v segments(%cq, %ck : tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>>)
      mask_kind = causal, p_type = bf16
      : tensor<?x?x?xbf16, #tile.dims<H, S, D>>, tensor<?x?x?xbf16, #tile.dims<H, T, D>>,
        tensor<?x?x?xbf16, #tile.dims<H, T, D>> -> tensor<?x?x?xbf16, #tile.dims<H, S, D>>, lse tensor<?x?xf32, #tile.dims<H, S>>
  tile.return %s, %o, %l : tensor<?x?x?xf32, #tile.dims<H, S, T>>, tensor<?x?x?xbf16, #tile.dims<H, S, D>>,
      tensor<?x?xf32, #tile.dims<H, S>>
}

// Rank 3, neither region: plain softmax(q @ k^T) @ v.
// CHECK-LABEL: tile.kernel @attention_plain(
// CHECK:       %[[O:.*]] = tile.attention %{{.*}}, %{{.*}}, %{{.*}} mask_kind = none, p_type = bf16 : tensor<?x?x?xbf16, #tile.dims<H, S, D>>, tensor<?x?x?xbf16, #tile.dims<H, T, D>>, tensor<?x?x?xbf16, #tile.dims<H, T, D>> -> tensor<?x?x?xbf16, #tile.dims<H, S, D>>{{$}}
// CHECK-NEXT:  tile.return %[[O]]
tile.kernel @attention_plain(%q: tensor<?x?x?xbf16, #tile.dims<H, S, D>>,
                             %k: tensor<?x?x?xbf16, #tile.dims<H, T, D>>,
                             %v: tensor<?x?x?xbf16, #tile.dims<H, T, D>>)
    -> tensor<?x?x?xbf16, #tile.dims<H, S, D>> {
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16
      : tensor<?x?x?xbf16, #tile.dims<H, S, D>>, tensor<?x?x?xbf16, #tile.dims<H, T, D>>,
        tensor<?x?x?xbf16, #tile.dims<H, T, D>> -> tensor<?x?x?xbf16, #tile.dims<H, S, D>>
  tile.return %o : tensor<?x?x?xbf16, #tile.dims<H, S, D>>
}

// -----

// A grouped contraction (mixture of experts): the groups' offsets come after
// the operands; rhs is [E, N, K].
// CHECK-LABEL: tile.kernel @grouped_contract(
// CHECK:       tile.contract(%{{.*}}, %{{.*}} : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%{{.*}} : tensor<?xi32, #tile.dims<E+1>>) epilogue_inputs(%{{.*}} : tensor<?x1xf32, #tile.dims<T, 1>>) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<T, N>> {
tile.kernel @grouped_contract(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>,
                              %o: tensor<?xi32, #tile.dims<E+1>>, %gate: tensor<?x1xf32, #tile.dims<T, 1>>)
    -> tensor<?x?xbf16, #tile.dims<T, N>> {
  %y = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>)
      groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      epilogue_inputs(%gate : tensor<?x1xf32, #tile.dims<T, 1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc: f32, %g: f32):
    %p = arith.mulf %acc, %g : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %y : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

// Block-scaled experts (MXFP8): the scale tensors after the offsets, one
// scale per block of the last two axes.
// CHECK-LABEL: tile.kernel @grouped_scaled(
// CHECK:       tile.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} scales(%{{.*}}, %{{.*}} : tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>) {lhs_block = array<i64: 1, 32>, rhs_block = array<i64: 1, 32>, transpose_b}
tile.kernel @grouped_scaled(%x: tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, %xs: tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, %w: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, %ws: tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xf32, #tile.dims<T, N>> {
  %y = tile.grouped_matmul %x, %w, %o scales(%xs, %ws : tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>) {lhs_block = array<i64: 1, 32>, rhs_block = array<i64: 1, 32>, transpose_b} : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return %y : tensor<?x?xf32, #tile.dims<T, N>>
}

// A per-expert tensor expanded to the rows of its groups.
// CHECK-LABEL: tile.kernel @per_group(
// CHECK:       tile.per_group %{{.*}}, %{{.*}} : tensor<?x?xbf16, #tile.dims<E, N>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xbf16, #tile.dims<T, N>>
// CHECK:       tile.per_group %{{.*}}, %{{.*}} : tensor<8x1xf32, #tile.dims<8, 1>>, tensor<9xi32> -> tensor<?x1xf32, #tile.dims<T, 1>>
tile.kernel @per_group(%b: tensor<?x?xbf16, #tile.dims<E, N>>, %o: tensor<?xi32, #tile.dims<E+1>>,
                       %s: tensor<8x1xf32, #tile.dims<8, 1>>, %o9: tensor<9xi32>)
    -> (tensor<?x?xbf16, #tile.dims<T, N>>, tensor<?x1xf32, #tile.dims<T, 1>>) {
  %0 = tile.per_group %b, %o : tensor<?x?xbf16, #tile.dims<E, N>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xbf16, #tile.dims<T, N>>
  %1 = tile.per_group %s, %o9 : tensor<8x1xf32, #tile.dims<8, 1>>, tensor<9xi32> -> tensor<?x1xf32, #tile.dims<T, 1>>
  tile.return %0, %1 : tensor<?x?xbf16, #tile.dims<T, N>>, tensor<?x1xf32, #tile.dims<T, 1>>
}
