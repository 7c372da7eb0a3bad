// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tile-fuse-siblings | FileCheck %s
// RUN: kiln-opt %s -split-input-file --cse --tile-fuse-epilogues --tile-fuse-siblings --tile-fuse-epilogues 2>/dev/null | FileCheck %s --check-prefix=FLOW

// tile-fuse-siblings: contractions that share an operand and K become one
// contraction with one accumulator per product; what cannot share a loop
// stays, with a remark saying why. The FLOW prefix runs the fusions in the
// order of the kiln-compile pipeline on matmuls and maps as the frontend
// emits them.

// SwiGLU after tile-fuse-epilogues: the up projection is an epilogue input
// of the gate's contraction. It becomes a second accumulator of one
// contraction and is computed in registers (its identity epilogue inlined).
// CHECK-LABEL: tile.kernel @feeds(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<?x?xbf16, #tile.dims<M, K>>
// CHECK-SAME:    %[[W1:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK-SAME:    %[[W2:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK:         %[[Y:.*]] = tile.contract(%[[X]], %[[W2]], %[[W1]] : {{.*}}) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
// CHECK-NEXT:    ^bb0(%[[UP:.*]]: f32, %[[GATE:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[GATE]], %[[UP]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[P]] : f32 to bf16
// CHECK-NEXT:      tile.yield %[[T]] : bf16
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.return %[[Y]]
tile.kernel @feeds(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                   %w2: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  %up = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  %y = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%up : tensor<?x?xf32, #tile.dims<M, N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32, %u: f32):
    %p = arith.mulf %acc, %u : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %y : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Two independent products of one x, both outputs: one contraction whose
// epilogue yields both.
// CHECK-LABEL: tile.kernel @independent(
// CHECK:         %[[C:.*]]:2 = tile.contract({{.*}}) [#tile.mma<lhs = 0, rhs = 1, {{.*}}>, #tile.mma<lhs = 0, rhs = 2, {{.*}}>] -> tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[A]] : f32 to bf16
// CHECK-NEXT:      tile.yield %[[T]], %[[B]] : bf16, f32
// CHECK:         tile.return %[[C]]#0, %[[C]]#1
tile.kernel @independent(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                         %w2: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> (tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  %b = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %a, %b : tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// Products with different K cannot share a K loop: both stay, with a remark.
// CHECK-LABEL: tile.kernel @different_k(
// CHECK-COUNT-2: tile.contract
tile.kernel @different_k(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                         %x2: tensor<?x?xbf16, #tile.dims<M, L>>, %w2: tensor<?x?xbf16, #tile.dims<N, L>>)
    -> (tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  // expected-remark @+1 {{not fused with the contraction at}}
  %b = tile.contract(%x2, %w2, %x : tensor<?x?xbf16, #tile.dims<M, L>>, tensor<?x?xbf16, #tile.dims<N, L>>, tensor<?x?xbf16, #tile.dims<M, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %a, %b : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// The remark says why: here the K extents.
tile.kernel @different_k_reason(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                                %w2: tensor<?x?xbf16, #tile.dims<N, L>>, %x2: tensor<?x?xbf16, #tile.dims<M, L>>)
    -> (tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  // expected-remark @+1 {{their K differs (K and L)}}
  %b = tile.contract(%x2, %w2, %w1 : tensor<?x?xbf16, #tile.dims<M, L>>, tensor<?x?xbf16, #tile.dims<N, L>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %a, %b : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// Different output tiles (N and P): no common accumulator shape.
tile.kernel @different_outputs(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                               %w2: tensor<?x?xbf16, #tile.dims<P, K>>)
    -> (tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, P>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  // expected-remark @+1 {{their outputs differ ([M, N] and [M, P])}}
  %b = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<P, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, P>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %a, %b : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, P>>
}

// -----

// An epilogue input that is also returned would have to be stored anyway:
// the producer is left alone.
tile.kernel @fed_and_returned(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                              %w2: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> (tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>>) {
  %up = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  // expected-remark @+1 {{the first one's result is also used elsewhere}}
  %y = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%up : tensor<?x?xf32, #tile.dims<M, N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32, %u: f32):
    %p = arith.mulf %acc, %u : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %up, %y : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A scheduled contraction keeps its schedule and is not merged.
tile.kernel @scheduled(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                       %w2: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> (tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  // expected-remark @+1 {{one of them is already scheduled}}
  %b = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %a, %b : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// A transposed lhs ([K, M]) is not tiled by the fused loop.
tile.kernel @transposed_lhs(%x: tensor<?x?xbf16, #tile.dims<K, M>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                            %w2: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> (tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<K, M>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = true, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  // expected-remark @+1 {{a transposed lhs is not supported in a fused loop}}
  %b = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<K, M>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = true, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %a, %b : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// The first product's result read before the second product exists: the
// merged op (at the second) could not dominate that read.
tile.kernel @used_before(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                         %w2: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> (tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  %t = tile.map %a : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%v: f32):
    %r = arith.truncf %v : f32 to bf16
    tile.yield %r : bf16
  }
  // expected-remark @+1 {{the first one's result is used before the second one}}
  %b = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %t, %b : tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// The whole flow on SwiGLU as the frontend emits it: two matmuls and one map
// (silu on one, times the other, rounded) become one contraction with both
// accumulators and the whole expression in its epilogue.
// FLOW-LABEL: tile.kernel @swiglu(
// FLOW:         %[[Y:.*]] = tile.contract({{.*}}) [#tile.mma<lhs = 0, rhs = 1, {{.*}}>, #tile.mma<lhs = 0, rhs = 2, {{.*}}>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
// FLOW-NEXT:    ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32):
// FLOW:           math.exp
// FLOW:           arith.mulf
// FLOW:           arith.truncf
// FLOW:           tile.yield
// FLOW-NOT:     tile.map
// FLOW:         tile.return %[[Y]]
tile.kernel @swiglu(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                    %w2: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  %g = tile.matmul %x, %w1 {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %u = tile.matmul %x, %w2 {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %y = tile.map %g, %u : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %a, %d : f32
    %p = arith.mulf %s, %b : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %y : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// The same product written twice is one accumulator (CSE), and two maps of
// the sibling-fused products become outputs of one contraction; an output
// also read before a later map keeps that read valid.
// FLOW-LABEL: tile.kernel @shared_products(
// FLOW:         %[[C:.*]]:2 = tile.contract({{.*}}) [#tile.mma<lhs = 0, rhs = 1, {{.*}}>, #tile.mma<lhs = 0, rhs = 2, {{.*}}>] -> tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>> {
// FLOW-NOT:     tile.map
// FLOW:         tile.return %[[C]]#{{[01]}}, %[[C]]#{{[01]}}
tile.kernel @shared_products(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                             %w2: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> (tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>>) {
  %a = tile.matmul %x, %w1 {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %b = tile.matmul %x, %w2 {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %sum = tile.map %a, %b : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    %t = arith.truncf %s : f32 to bf16
    tile.yield %t : bf16
  }
  %b2 = tile.matmul %x, %w2 {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %only = tile.map %b2 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%p: f32):
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %sum, %only : tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// NVFP4 siblings sharing x (and x's scales) fuse like bf16 ones; the fused
// contraction lists each scale tensor once.
// CHECK-LABEL: tile.kernel @nvfp4_dual
// CHECK:         tile.contract(%arg0, %arg2, %arg1, %arg3, %arg4, %arg5 :
// CHECK-SAME:      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>, #tile.mma<lhs = 0, rhs = 4, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 5, scale_block = 16>]
// CHECK-NOT:     tile.contract
tile.kernel @nvfp4_dual(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
                        %b1: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b1s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>,
                        %b2: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b2s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  %0 = tile.contract(%a, %b1, %as, %b1s : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  %1 = tile.contract(%a, %b2, %as, %b2s : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  %2 = tile.map %0, %1 : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%g: f32, %u: f32):
    %p = arith.mulf %g, %u : f32
    %t = arith.truncf %p : f32 to f16
    tile.yield %t : f16
  }
  tile.return %2 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

// Grouped products (mixture of experts) of one x over the same offsets fuse
// as dense ones do (the grouped SwiGLU's up and gate projections), keeping
// the groups.
// CHECK-LABEL: tile.kernel @grouped_pair(
// CHECK:         %[[C:.*]]:2 = tile.contract(%arg0, %arg1, %arg2 : {{.*}}) groups(%arg3 : tensor<?xi32, #tile.dims<E+1>>) [#tile.mma<lhs = 0, rhs = 1, {{.*}}>, #tile.mma<lhs = 0, rhs = 2, {{.*}}>]
// CHECK-NOT:     tile.contract
// CHECK:         tile.return %[[C]]#0, %[[C]]#1
tile.kernel @grouped_pair(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w1: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %w2: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>)
    -> (tensor<?x?xf32, #tile.dims<T, N>>, tensor<?x?xf32, #tile.dims<T, N>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>)
      groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  %b = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>)
      groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %a, %b : tensor<?x?xf32, #tile.dims<T, N>>, tensor<?x?xf32, #tile.dims<T, N>>
}

// -----

// A grouped product and a dense one of the same x share no tile walk.
tile.kernel @grouped_and_dense(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w1: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %w2: tensor<?x?xbf16, #tile.dims<N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>)
    -> (tensor<?x?xf32, #tile.dims<T, N>>, tensor<?x?xf32, #tile.dims<T, N>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>)
      groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  // expected-remark @+1 {{one is grouped (mixture of experts) and the other is not}}
  %b = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %a, %b : tensor<?x?xf32, #tile.dims<T, N>>, tensor<?x?xf32, #tile.dims<T, N>>
}

// -----

// Nor do products grouped by different offsets.
tile.kernel @other_offsets(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w1: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %w2: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>, %p: tensor<?xi32, #tile.dims<E+1>>)
    -> (tensor<?x?xf32, #tile.dims<T, N>>, tensor<?x?xf32, #tile.dims<T, N>>) {
  %a = tile.contract(%x, %w1 : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>)
      groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  // expected-remark @+1 {{they are grouped by different offsets}}
  %b = tile.contract(%x, %w2 : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>)
      groups(%p : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %a, %b : tensor<?x?xf32, #tile.dims<T, N>>, tensor<?x?xf32, #tile.dims<T, N>>
}
