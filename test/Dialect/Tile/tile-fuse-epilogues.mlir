// RUN: kiln-opt %s --tile-fuse-epilogues --split-input-file | FileCheck %s

// A lone matmul becomes a contraction with an identity epilogue.
// CHECK-LABEL: tile.kernel @wrap(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<?x?xbf16, #tile.dims<M, K>>
// CHECK-SAME:    %[[B:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK-NOT:     tile.matmul
// CHECK:         %[[C:.*]] = tile.contract(%[[A]], %[[B]] : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
// CHECK-SAME:      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT:      tile.yield %[[ACC]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.return %[[C]]
tile.kernel @wrap(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> tensor<?x?xf32, #tile.dims<M, N>> {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// Both transposes carry over into the #tile.mma.
// CHECK-LABEL: tile.kernel @transposes(
// CHECK:         tile.contract({{.*}}) [#tile.mma<lhs = 0, rhs = 1, transpose_a = true, transpose_b = false>] -> tensor<?x?xf32, #tile.dims<M, N>>
tile.kernel @transposes(%a: tensor<?x?xf16, #tile.dims<K, M>>, %b: tensor<?x?xf16, #tile.dims<K, N>>)
    -> tensor<?x?xf32, #tile.dims<M, N>> {
  %0 = tile.matmul %a, %b {transpose_a} : tensor<?x?xf16, #tile.dims<K, M>>, tensor<?x?xf16, #tile.dims<K, N>> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// The cast to the output dtype moves into the epilogue: the kernel writes
// bf16 once and no f32 tensor remains.
// CHECK-LABEL: tile.kernel @cast(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<?x?xbf16, #tile.dims<M, K>>
// CHECK-SAME:    %[[B:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK-NOT:     tile.map
// CHECK:         %[[C:.*]] = tile.contract(%[[A]], %[[B]] : {{.*}}) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[ACC]] : f32 to bf16
// CHECK-NEXT:      tile.yield %[[T]] : bf16
// CHECK-NEXT:    }
// CHECK-NOT:     tile.map
// CHECK:         tile.return %[[C]] : tensor<?x?xbf16, #tile.dims<M, N>>
tile.kernel @cast(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> tensor<?x?xbf16, #tile.dims<M, N>> {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %1 = tile.map %0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %1 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A chain of maps (activation, bias row, cast) fuses to a fixed point; the
// bias row becomes an epilogue input whose element follows the accumulator.
// CHECK-LABEL: tile.kernel @chain(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<?x?xbf16, #tile.dims<M, K>>
// CHECK-SAME:    %[[B:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK-SAME:    %[[BIAS:[^:]*]]: tensor<?xbf16, #tile.dims<N>>
// CHECK-NOT:     tile.map
// CHECK:         %[[C:.*]] = tile.contract(%[[A]], %[[B]] : {{.*}}) epilogue_inputs(%[[BIAS]] : tensor<?xbf16, #tile.dims<N>>) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32, %[[BV:.*]]: bf16):
// CHECK-NEXT:      %[[R:.*]] = math.tanh %[[ACC]] : f32
// CHECK-NEXT:      %[[BF:.*]] = arith.extf %[[BV]] : bf16 to f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[R]], %[[BF]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[S]] : f32 to bf16
// CHECK-NEXT:      tile.yield %[[T]] : bf16
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.return %[[C]]
tile.kernel @chain(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>,
                   %bias: tensor<?xbf16, #tile.dims<N>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %1 = tile.map %0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %r = math.tanh %x : f32
    tile.yield %r : f32
  }
  %2 = tile.map %1, %bias : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?xbf16, #tile.dims<N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%x: f32, %v: bf16):
    %vf = arith.extf %v : bf16 to f32
    %s = arith.addf %x, %vf : f32
    tile.yield %s : f32
  }
  %3 = tile.map %2 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %3 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// The contraction may be any input of the map; the other inputs keep their
// order as epilogue inputs.
// CHECK-LABEL: tile.kernel @operand_order(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<?x?xbf16, #tile.dims<M, K>>
// CHECK-SAME:    %[[B:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK-SAME:    %[[R:[^:]*]]: tensor<?x?xf32, #tile.dims<M, N>>
// CHECK-SAME:    %[[COL:[^:]*]]: tensor<?x1xf32, #tile.dims<M, 1>>
// CHECK:         tile.contract(%[[A]], %[[B]] : {{.*}}) epilogue_inputs(%[[R]], %[[COL]] : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x1xf32, #tile.dims<M, 1>>)
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32, %[[RV:.*]]: f32, %[[CV:.*]]: f32):
// CHECK-NEXT:      %[[X:.*]] = arith.subf %[[RV]], %[[ACC]] : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[CV]] : f32
// CHECK-NEXT:      tile.yield %[[Y]] : f32
tile.kernel @operand_order(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>,
                           %r: tensor<?x?xf32, #tile.dims<M, N>>, %col: tensor<?x1xf32, #tile.dims<M, 1>>)
    -> tensor<?x?xf32, #tile.dims<M, N>> {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %1 = tile.map %r, %0, %col : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x1xf32, #tile.dims<M, 1>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%u: f32, %acc: f32, %c: f32):
    %x = arith.subf %u, %acc : f32
    %y = arith.mulf %x, %c : f32
    tile.yield %y : f32
  }
  tile.return %1 : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// A contraction whose f32 result has other users keeps it as an output: the
// map becomes a second output of the same contraction, computed in its
// epilogue from the same accumulator.
// CHECK-LABEL: tile.kernel @two_uses(
// CHECK:         %[[C:.*]]:2 = tile.contract({{.*}}) [#tile.mma<{{.*}}>] -> tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[ACC]] : f32 to bf16
// CHECK-NEXT:      tile.yield %[[ACC]], %[[T]] : f32, bf16
// CHECK-NEXT:    }
// CHECK-NOT:     tile.map
// CHECK:         tile.return %[[C]]#0, %[[C]]#1
tile.kernel @two_uses(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> (tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>>) {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %1 = tile.map %0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0, %1 : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A map that broadcasts the product to a larger shape is not elementwise at
// the product's shape and stays separate.
// CHECK-LABEL: tile.kernel @broadcast_consumer(
// CHECK:         %[[C:.*]] = tile.contract
// CHECK:         tile.map %[[C]], %{{.*}} : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?x?xf32, #tile.dims<B, M, N>> -> tensor<?x?x?xf32, #tile.dims<B, M, N>>
tile.kernel @broadcast_consumer(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>,
                                %r: tensor<?x?x?xf32, #tile.dims<B, M, N>>) -> tensor<?x?x?xf32, #tile.dims<B, M, N>> {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %1 = tile.map %0, %r : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?x?xf32, #tile.dims<B, M, N>> -> tensor<?x?x?xf32, #tile.dims<B, M, N>> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tile.yield %s : f32
  }
  tile.return %1 : tensor<?x?x?xf32, #tile.dims<B, M, N>>
}

// -----

// Batched (rank > 2) products become contractions too, their epilogues
// fused the same way.
// CHECK-LABEL: tile.kernel @batched(
// CHECK-NOT:     tile.matmul
// CHECK:         %[[C:.*]] = tile.contract(%arg0, %arg1 : {{.*}}) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?x?xbf16, #tile.dims<H, S, T>> {
// CHECK:           arith.truncf
// CHECK:         tile.return %[[C]]
tile.kernel @batched(%q: tensor<?x?x?xbf16, #tile.dims<H, S, D>>, %k: tensor<?x?x?xbf16, #tile.dims<H, T, D>>)
    -> tensor<?x?x?xbf16, #tile.dims<H, S, T>> {
  %0 = tile.matmul %q, %k {transpose_b} : tensor<?x?x?xbf16, #tile.dims<H, S, D>>, tensor<?x?x?xbf16, #tile.dims<H, T, D>> -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
  %1 = tile.map %0 : tensor<?x?x?xf32, #tile.dims<H, S, T>> -> tensor<?x?x?xbf16, #tile.dims<H, S, T>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %1 : tensor<?x?x?xbf16, #tile.dims<H, S, T>>
}

// -----

// Two products combined by one map (SwiGLU): a map that reads two different
// contractions is not an epilogue of either; tile-fuse-siblings first merges
// them into one contraction (tile-fuse-siblings.mlir), whose epilogue then
// takes the map.
// CHECK-LABEL: tile.kernel @two_products(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<?x?xbf16, #tile.dims<M, K>>
// CHECK-SAME:    %[[W1:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK-SAME:    %[[W2:[^:]*]]: tensor<?x?xbf16, #tile.dims<N, K>>
// CHECK:         %[[G:.*]] = tile.contract(%[[X]], %[[W1]] : {{.*}}) [#tile.mma<{{.*}}>] -> tensor<?x?xf32, #tile.dims<M, N>> {
// CHECK:         %[[U:.*]] = tile.contract(%[[X]], %[[W2]] : {{.*}}) [#tile.mma<{{.*}}>] -> tensor<?x?xf32, #tile.dims<M, N>> {
// CHECK:         %[[Y:.*]] = tile.map %[[G]], %[[U]]
// CHECK:         tile.return %[[Y]]
tile.kernel @two_products(%x: tensor<?x?xbf16, #tile.dims<M, K>>, %w1: tensor<?x?xbf16, #tile.dims<N, K>>,
                          %w2: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  %g = tile.matmul %x, %w1 {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %u = tile.matmul %x, %w2 {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %y = tile.map %g, %u : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    %t = arith.truncf %p : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %y : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// An existing contraction (with its schedule) also absorbs its consumer.
// CHECK-LABEL: tile.kernel @existing_contract(
// CHECK:         tile.contract({{.*}}) [#tile.mma<{{.*}}>] {schedule = #tile.schedule<tile_m = 128, {{.*}}>} -> tensor<?x?xf16, #tile.dims<M, N>> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[ACC]], %[[ACC]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT:      tile.yield %[[T]] : f16
tile.kernel @existing_contract(%a: tensor<?x?xf16, #tile.dims<M, K>>, %b: tensor<?x?xf16, #tile.dims<N, K>>)
    -> tensor<?x?xf16, #tile.dims<M, N>> {
  %0 = tile.contract(%a, %b : tensor<?x?xf16, #tile.dims<M, K>>, tensor<?x?xf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %s = arith.mulf %acc, %acc : f32
    tile.yield %s : f32
  }
  %1 = tile.map %0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.return %1 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

// A block-scaled product with one scale per row and K block on both
// operands (NVFP4 here) becomes a contraction that names its scales; the
// scale tensors are operands 2 and 3.
// CHECK-LABEL: tile.kernel @nvfp4
// CHECK:         tile.contract(%arg0, %arg2, %arg1, %arg3 :
// CHECK-SAME:      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>]
// CHECK-NOT:     tile.scaled_matmul
tile.kernel @nvfp4(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
                   %b: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %bs: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 16>, rhs_block = array<i64: 1, 16>, transpose_b} : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %1 = tile.map %0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.return %1 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

// 128x128 weight-scale blocks (fp8 GEMMs) become a contraction whose rhs
// scales cover blocks of 128 rows (rhs_scale_rows), scaled in software.
// CHECK-LABEL: tile.kernel @fp8_blockwise
// CHECK:         tile.contract(%arg0, %arg2, %arg1, %arg3 : {{.*}}) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128, rhs_scale_rows = 128>]
// CHECK-NOT:     tile.scaled_matmul
tile.kernel @fp8_blockwise(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>,
                           %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>) -> tensor<?x?xf32, #tile.dims<M, N>> {
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 128>, rhs_block = array<i64: 128, 128>, transpose_b} : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// A grouped matmul (mixture of experts) becomes a grouped contraction, and
// its elementwise consumers fuse into it as into any other.
// CHECK-LABEL: tile.kernel @grouped(
// CHECK-NOT:     tile.grouped_matmul
// CHECK:         %[[Y:.*]] = tile.contract(%arg0, %arg1 : {{.*}}) groups(%arg2 : tensor<?xi32, #tile.dims<E+1>>) epilogue_inputs(%arg3 : tensor<?x1xf32, #tile.dims<T, 1>>) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<T, N>> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32, %[[G:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[ACC]], %[[G]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[P]] : f32 to bf16
// CHECK-NEXT:      tile.yield %[[T]] : bf16
// CHECK:         tile.return %[[Y]]
tile.kernel @grouped(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>,
                     %o: tensor<?xi32, #tile.dims<E+1>>, %gate: tensor<?x1xf32, #tile.dims<T, 1>>)
    -> tensor<?x?xbf16, #tile.dims<T, N>> {
  %0 = tile.grouped_matmul %x, %w, %o {transpose_b} : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  %1 = tile.map %0, %gate : tensor<?x?xf32, #tile.dims<T, N>>, tensor<?x1xf32, #tile.dims<T, 1>> -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%a: f32, %g: f32):
    %p = arith.mulf %a, %g : f32
    tile.yield %p : f32
  }
  %2 = tile.map %1 : tensor<?x?xf32, #tile.dims<T, N>> -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%a: f32):
    %t = arith.truncf %a : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %2 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

// A per-expert bias (tile.per_group) is an epilogue input like any other:
// convert-tile-to-cta reads it at the tile's group.
// CHECK-LABEL: tile.kernel @grouped_bias(
// CHECK:         %[[B:.*]] = tile.per_group %arg3, %arg2
// CHECK:         tile.contract(%arg0, %arg1 : {{.*}}) groups(%arg2 : tensor<?xi32, #tile.dims<E+1>>) epilogue_inputs(%[[B]] : tensor<?x?xf32, #tile.dims<T, N>>)
tile.kernel @grouped_bias(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>,
                          %o: tensor<?xi32, #tile.dims<E+1>>, %b: tensor<?x?xf32, #tile.dims<E, N>>)
    -> tensor<?x?xf32, #tile.dims<T, N>> {
  %0 = tile.grouped_matmul %x, %w, %o {transpose_b} : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  %1 = tile.per_group %b, %o : tensor<?x?xf32, #tile.dims<E, N>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  %2 = tile.map %0, %1 : tensor<?x?xf32, #tile.dims<T, N>>, tensor<?x?xf32, #tile.dims<T, N>> -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%a: f32, %c: f32):
    %p = arith.addf %a, %c : f32
    tile.yield %p : f32
  }
  tile.return %2 : tensor<?x?xf32, #tile.dims<T, N>>
}

// -----

// Block-scaled experts with scales along K (MXFP8) become a grouped
// contraction that names its scale tensors.
// CHECK-LABEL: tile.kernel @grouped_mxfp8(
// CHECK:         tile.contract(%arg0, %arg2, %arg1, %arg3 : {{.*}}) groups(%arg4 : tensor<?xi32, #tile.dims<E+1>>) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 32>]
tile.kernel @grouped_mxfp8(%x: tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, %xs: tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, %w: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, %ws: tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xf32, #tile.dims<T, N>> {
  %y = tile.grouped_matmul %x, %w, %o scales(%xs, %ws : tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>) {lhs_block = array<i64: 1, 32>, rhs_block = array<i64: 1, 32>, transpose_b} : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return %y : tensor<?x?xf32, #tile.dims<T, N>>
}

// -----

// DeepSeek's 128x128 weight blocks: a grouped contraction whose rhs scales
// cover blocks of 128 rows (scaled in software).
// CHECK-LABEL: tile.kernel @grouped_blockwise(
// CHECK:         tile.contract(%arg0, %arg2, %arg1, %arg3 : {{.*}}) groups(%arg4 : tensor<?xi32, #tile.dims<E+1>>) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128, rhs_scale_rows = 128>]
// CHECK-NOT:     tile.grouped_matmul
tile.kernel @grouped_blockwise(%x: tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, %xs: tensor<?x?xf32, #tile.dims<T, cdiv(K, 128)>>, %w: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, %ws: tensor<?x?x?xf32, #tile.dims<E, cdiv(N, 128), cdiv(K, 128)>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xf32, #tile.dims<T, N>> {
  %y = tile.grouped_matmul %x, %w, %o scales(%xs, %ws : tensor<?x?xf32, #tile.dims<T, cdiv(K, 128)>>, tensor<?x?x?xf32, #tile.dims<E, cdiv(N, 128), cdiv(K, 128)>>) {lhs_block = array<i64: 1, 128>, rhs_block = array<i64: 128, 128>, transpose_b} : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return %y : tensor<?x?xf32, #tile.dims<T, N>>
}

// -----

// Scale blocks a contraction cannot record (the activation's in blocks of
// rows) stay a grouped_matmul, which convert-tile-to-cta reports.
// CHECK-LABEL: tile.kernel @grouped_row_blocks(
// CHECK:         tile.grouped_matmul
tile.kernel @grouped_row_blocks(%x: tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, %xs: tensor<?x?xf32, #tile.dims<cdiv(T, 128), cdiv(K, 128)>>, %w: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, %ws: tensor<?x?x?xf32, #tile.dims<E, cdiv(N, 128), cdiv(K, 128)>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xf32, #tile.dims<T, N>> {
  %y = tile.grouped_matmul %x, %w, %o scales(%xs, %ws : tensor<?x?xf32, #tile.dims<cdiv(T, 128), cdiv(K, 128)>>, tensor<?x?x?xf32, #tile.dims<E, cdiv(N, 128), cdiv(K, 128)>>) {lhs_block = array<i64: 128, 128>, rhs_block = array<i64: 128, 128>, transpose_b} : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return %y : tensor<?x?xf32, #tile.dims<T, N>>
}
