// RUN: kiln-opt %s -verify-diagnostics --tile-fuse-attention | FileCheck %s

// tile-fuse-attention: the chain q @ k^T -> score modifiers -> masks ->
// softmax -> (rounding) -> @ v -> (conversion) becomes one tile.attention;
// a chain that does not fit stays as it is, with a remark at its softmax
// saying why.

!q = tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
!kv = tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>
!s = tensor<?x?x?x?xf32, #tile.dims<B, H, S, T>>
!p = tensor<?x?x?x?xbf16, #tile.dims<B, H, S, T>>
!of = tensor<?x?x?x128xf32, #tile.dims<B, H, S, 128>>
!o = tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
!lse = tensor<?x?x?xf32, #tile.dims<B, H, S>>

//===----------------------------------------------------------------------===//
// Chains that fuse
//===----------------------------------------------------------------------===//

// examples/attention.kiln as the frontend emits it: the scale map becomes the
// score region, `causal` the mask kind, the rounding of P the p_type and the
// output's conversion the result type.
// CHECK-LABEL: tile.kernel @example(
// CHECK-SAME:    %[[Q:[^:]*]]: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
// CHECK-SAME:    %[[K:[^:]*]]: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>
// CHECK-SAME:    %[[V:[^:]*]]: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>
// CHECK-NEXT:    %[[O:.*]] = tile.attention %[[Q]], %[[K]], %[[V]] mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> score {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:      %[[C:.*]] = arith.constant 0.0883883461 : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[C]] : f32
// CHECK-NEXT:      tile.yield %[[Y]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.return %[[O]]
tile.kernel @example(%arg0: !q, %arg1: !kv, %arg2: !kv) -> !o {
  %0 = tile.matmul %arg0, %arg1 {transpose_b} : !q, !kv -> !s
  %1 = tile.map %0 : !s -> !s {
  ^bb0(%arg3: f32):
    %cst = arith.constant 0.0883883461 : f32
    %7 = arith.mulf %arg3, %cst : f32
    tile.yield %7 : f32
  }
  %2 = tile.mask %1 causal : !s {
  }
  %3 = tile.softmax %2 : !s
  %4 = tile.map %3 : !s -> !p {
  ^bb0(%arg3: f32):
    %7 = arith.truncf %arg3 : f32 to bf16
    tile.yield %7 : bf16
  }
  %5 = tile.matmul %4, %arg2 : !p, !kv -> !of
  %6 = tile.map %5 : !of -> !o {
  ^bb0(%arg3: f32):
    %7 = arith.truncf %arg3 : f32 to bf16
    tile.yield %7 : bf16
  }
  tile.return %6 : !o
}

// softmax(q @ k^T) @ v with an f32 output: no mask, no score modifier, so
// neither region; the f32 product is the result.
// CHECK-LABEL: tile.kernel @plain(
// CHECK-NEXT:    %[[O:.*]] = tile.attention %{{.*}}, %{{.*}}, %{{.*}} mask_kind = none, p_type = bf16 : {{.*}} -> tensor<?x?x?x128xf32, #tile.dims<B, H, S, 128>>{{$}}
// CHECK-NEXT:    tile.return %[[O]]
tile.kernel @plain(%q: !q, %k: !kv, %v: !kv) -> !of {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  tile.return %3 : !of
}

// The log-sum-exp of the masked scores, returned next to the output (in
// either order), becomes the op's second result.
// CHECK-LABEL: tile.kernel @log_sum_exp(
// CHECK-NEXT:    %[[O:.*]], %[[L:.*]] = tile.attention %{{.*}}, %{{.*}}, %{{.*}} mask_kind = causal, p_type = bf16 : {{.*}} -> tensor<?x?x?x128xf32, #tile.dims<B, H, S, 128>>, lse tensor<?x?x?xf32, #tile.dims<B, H, S>>{{$}}
// CHECK-NEXT:    tile.return %[[L]], %[[O]]
tile.kernel @log_sum_exp(%q: !q, %k: !kv, %v: !kv) -> (!lse, !of) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.mask %0 causal : !s {
  }
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  %l = tile.reduce logsumexp %1 axis = 3 : !s -> !lse
  tile.return %l, %4 : !lse, !of
}

// Without masks the log-sum-exp reads the (scaled) scores; returned as bf16,
// its conversion is the result type.
// CHECK-LABEL: tile.kernel @log_sum_exp_rounded(
// CHECK-NEXT:    %[[O:.*]], %[[L:.*]] = tile.attention {{.*}} mask_kind = none, p_type = bf16 : {{.*}} -> tensor<?x?x?x128xf32, #tile.dims<B, H, S, 128>>, lse tensor<?x?x?xbf16, #tile.dims<B, H, S>> score {
// CHECK:         tile.return %[[O]], %[[L]]
tile.kernel @log_sum_exp_rounded(%q: !q, %k: !kv, %v: !kv) -> (!of, tensor<?x?x?xbf16, #tile.dims<B, H, S>>) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.map %0 : !s -> !s {
  ^bb0(%x: f32):
    %c = arith.constant 0.0883883461 : f32
    %y = arith.mulf %x, %c : f32
    tile.yield %y : f32
  }
  %l = tile.reduce logsumexp %1 axis = 3 : !s -> !lse
  %lr = tile.map %l : !lse -> tensor<?x?x?xbf16, #tile.dims<B, H, S>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4, %lr : !of, tensor<?x?x?xbf16, #tile.dims<B, H, S>>
}

// Packed sequences: a segmented product as the scores gives the op its
// segment offsets (the masks then see indices within each sequence).
// CHECK-LABEL: tile.kernel @varlen(
// CHECK-NEXT:    %[[O:.*]] = tile.attention %{{.*}}, %{{.*}}, %{{.*}} segments(%arg3, %arg4 : tensor<?xi32, #tile.dims<N+1>>, tensor<?xi32, #tile.dims<N+1>>) mask_kind = causal, p_type = bf16 : {{.*}} -> tensor<?x?x?x128xf32, #tile.dims<B, H, S, 128>>{{$}}
// CHECK-NEXT:    tile.return %[[O]]
tile.kernel @varlen(%q: !q, %k: !kv, %v: !kv, %cq: tensor<?xi32, #tile.dims<N+1>>, %ck: tensor<?xi32, #tile.dims<N+1>>) -> !of {
  %0 = tile.segmented_matmul %q, %k segments(%cq, %ck) : !q, !kv, tensor<?xi32, #tile.dims<N+1>>, tensor<?xi32, #tile.dims<N+1>> -> !s
  %1 = tile.mask %0 causal : !s {
  }
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4 : !of
}

// A predicate mask (a sliding window) becomes the mask region.
// CHECK-LABEL: tile.kernel @window(
// CHECK-NEXT:    %[[O:.*]] = tile.attention {{.*}} mask_kind = none, p_type = bf16 : {{.*}} -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> mask {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[D:.*]] = arith.subi %[[I]], %[[J]] : index
// CHECK-NEXT:      %[[W:.*]] = arith.constant 256 : index
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi slt, %[[D]], %[[W]] : index
// CHECK-NEXT:      tile.yield %[[IN]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.return %[[O]]
tile.kernel @window(%q: !q, %k: !kv, %v: !kv) -> !o {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.mask %0 : !s {
  ^bb0(%i: index, %j: index):
    %d = arith.subi %i, %j : index
    %c256 = arith.constant 256 : index
    %in = arith.cmpi slt, %d, %c256 : index
    tile.yield %in : i1
  }
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  %5 = tile.map %4 : !of -> !o {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %5 : !o
}

// Several masks: `causal` sets the kind, the predicates are and-ed, in
// order, into one region.
// CHECK-LABEL: tile.kernel @causal_window(
// CHECK-NEXT:    tile.attention {{.*}} mask_kind = causal, p_type = bf16 : {{.*}} mask {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[D:.*]] = arith.subi %[[I]], %[[J]] : index
// CHECK-NEXT:      %[[W:.*]] = arith.constant 256 : index
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi slt, %[[D]], %[[W]] : index
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[NZ:.*]] = arith.cmpi ne, %[[J]], %[[Z]] : index
// CHECK-NEXT:      %[[KEEP:.*]] = arith.andi %[[IN]], %[[NZ]] : i1
// CHECK-NEXT:      tile.yield %[[KEEP]] : i1
// CHECK-NEXT:    }
tile.kernel @causal_window(%q: !q, %k: !kv, %v: !kv) -> !o {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.mask %0 : !s {
  ^bb0(%i: index, %j: index):
    %d = arith.subi %i, %j : index
    %c256 = arith.constant 256 : index
    %in = arith.cmpi slt, %d, %c256 : index
    tile.yield %in : i1
  }
  %2 = tile.mask %1 causal : !s {
  }
  %3 = tile.mask %2 : !s {
  ^bb0(%i: index, %j: index):
    %c0 = arith.constant 0 : index
    %nz = arith.cmpi ne, %j, %c0 : index
    tile.yield %nz : i1
  }
  %4 = tile.softmax %3 : !s
  %5 = tile.map %4 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %6 = tile.matmul %5, %v : !p, !kv -> !of
  %7 = tile.map %6 : !of -> !o {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %7 : !o
}

// A score modifier that reads the indices (ALiBi): its i and j are the op's.
// CHECK-LABEL: tile.kernel @alibi(
// CHECK-NEXT:    tile.attention {{.*}} mask_kind = causal, p_type = bf16 : {{.*}} score {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[D:.*]] = arith.subi %[[I]], %[[J]] : index
// CHECK-NEXT:      %[[DI:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK-NEXT:      %[[DF:.*]] = arith.sitofp %[[DI]] : i64 to f32
// CHECK-NEXT:      %[[B:.*]] = arith.mulf %[[H]], %[[DF]] : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.subf %[[X]], %[[B]] : f32
// CHECK-NEXT:      tile.yield %[[Y]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.return
tile.kernel @alibi(%q: !q, %k: !kv, %v: !kv) -> !o {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.score_mod %0 : !s {
  ^bb0(%x: f32, %i: index, %j: index):
    %h = arith.constant 5.000000e-01 : f32
    %d = arith.subi %i, %j : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %b = arith.mulf %h, %df : f32
    %y = arith.subf %x, %b : f32
    tile.yield %y : f32
  }
  %2 = tile.mask %1 causal : !s {
  }
  %3 = tile.softmax %2 : !s
  %4 = tile.map %3 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %5 = tile.matmul %4, %v : !p, !kv -> !of
  %6 = tile.map %5 : !of -> !o {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %6 : !o
}

// Several modifiers compose in program order: a scale, a score_mod, a
// soft-cap (tanh(s * 0.02) * 50); a constant hoisted out of a map's region
// (as canonicalization does) is copied into the op's isolated region.
// CHECK-LABEL: tile.kernel @composed(
// CHECK-NEXT:    tile.attention {{.*}} mask_kind = none, p_type = bf16 : {{.*}} score {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[C:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-NEXT:      %[[A:.*]] = arith.mulf %[[X]], %[[C]] : f32
// CHECK-NEXT:      %[[IJ:.*]] = arith.cmpi eq, %[[I]], %[[J]] : index
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[A1:.*]] = arith.addf %[[A]], %[[ONE]] : f32
// CHECK-NEXT:      %[[B:.*]] = arith.select %[[IJ]], %[[A1]], %[[A]] : f32
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2.000000e-02 : f32
// CHECK-NEXT:      %[[D:.*]] = arith.mulf %[[B]], %[[C2]] : f32
// CHECK-NEXT:      %[[T:.*]] = math.tanh %[[D]] : f32
// CHECK-NEXT:      %[[C50:.*]] = arith.constant 5.000000e+01 : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[T]], %[[C50]] : f32
// CHECK-NEXT:      tile.yield %[[Y]] : f32
// CHECK-NEXT:    }
tile.kernel @composed(%q: !q, %k: !kv, %v: !kv) -> !o {
  %cst = arith.constant 1.250000e-01 : f32
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.map %0 : !s -> !s {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %cst : f32
    tile.yield %y : f32
  }
  %2 = tile.score_mod %1 : !s {
  ^bb0(%x: f32, %i: index, %j: index):
    %diag = arith.cmpi eq, %i, %j : index
    %one = arith.constant 1.000000e+00 : f32
    %x1 = arith.addf %x, %one : f32
    %y = arith.select %diag, %x1, %x : f32
    tile.yield %y : f32
  }
  %3 = tile.map %2 : !s -> !s {
  ^bb0(%x: f32):
    %c = arith.constant 2.000000e-02 : f32
    %d = arith.mulf %x, %c : f32
    %t = math.tanh %d : f32
    %c50 = arith.constant 5.000000e+01 : f32
    %y = arith.mulf %t, %c50 : f32
    tile.yield %y : f32
  }
  %4 = tile.softmax %3 : !s
  %5 = tile.map %4 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %6 = tile.matmul %5, %v : !p, !kv -> !of
  %7 = tile.map %6 : !of -> !o {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %7 : !o
}

// Grouped-query attention: one key/value head for the H query heads.
// CHECK-LABEL: tile.kernel @gqa(
// CHECK-NEXT:    tile.attention %{{.*}}, %{{.*}}, %{{.*}} mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x1x?x128xbf16, #tile.dims<B, 1, T, 128>>, tensor<?x1x?x128xbf16, #tile.dims<B, 1, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>{{$}}
// CHECK-NEXT:    tile.return
tile.kernel @gqa(%q: !q, %k: tensor<?x1x?x128xbf16, #tile.dims<B, 1, T, 128>>,
                 %v: tensor<?x1x?x128xbf16, #tile.dims<B, 1, T, 128>>) -> !o {
  %0 = tile.matmul %q, %k {transpose_b} : !q, tensor<?x1x?x128xbf16, #tile.dims<B, 1, T, 128>> -> !s
  %1 = tile.mask %0 causal : !s {
  }
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, tensor<?x1x?x128xbf16, #tile.dims<B, 1, T, 128>> -> !of
  %5 = tile.map %4 : !of -> !o {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %5 : !o
}

// Rank 3 (heads only), Dv other than D.
// CHECK-LABEL: tile.kernel @rank3(
// CHECK-NEXT:    tile.attention %{{.*}}, %{{.*}}, %{{.*}} mask_kind = causal, p_type = bf16 : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?x?x32xbf16, #tile.dims<H, T, 32>> -> tensor<?x?x32xbf16, #tile.dims<H, S, 32>>{{$}}
tile.kernel @rank3(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, %k: tensor<?x?x64xbf16, #tile.dims<H, T, 64>>,
                   %v: tensor<?x?x32xbf16, #tile.dims<H, T, 32>>) -> tensor<?x?x32xbf16, #tile.dims<H, S, 32>> {
  %0 = tile.matmul %q, %k {transpose_b} : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>> -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
  %1 = tile.mask %0 causal : tensor<?x?x?xf32, #tile.dims<H, S, T>> {
  }
  %2 = tile.softmax %1 : tensor<?x?x?xf32, #tile.dims<H, S, T>>
  %3 = tile.map %2 : tensor<?x?x?xf32, #tile.dims<H, S, T>> -> tensor<?x?x?xbf16, #tile.dims<H, S, T>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : tensor<?x?x?xbf16, #tile.dims<H, S, T>>, tensor<?x?x32xbf16, #tile.dims<H, T, 32>> -> tensor<?x?x32xf32, #tile.dims<H, S, 32>>
  %5 = tile.map %4 : tensor<?x?x32xf32, #tile.dims<H, S, 32>> -> tensor<?x?x32xbf16, #tile.dims<H, S, 32>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %5 : tensor<?x?x32xbf16, #tile.dims<H, S, 32>>
}

// fp16 operands and output, rank 5 ([B, G, H, S, D] with one key/value head
// per group).
// CHECK-LABEL: tile.kernel @fp16_rank5(
// CHECK-NEXT:    tile.attention %{{.*}}, %{{.*}}, %{{.*}} mask_kind = none, p_type = f16 : tensor<?x?x?x?x64xf16, #tile.dims<B, G, H, S, 64>>, tensor<?x?x1x?x64xf16, #tile.dims<B, G, 1, T, 64>>, tensor<?x?x1x?x64xf16, #tile.dims<B, G, 1, T, 64>> -> tensor<?x?x?x?x64xf16, #tile.dims<B, G, H, S, 64>>{{$}}
tile.kernel @fp16_rank5(%q: tensor<?x?x?x?x64xf16, #tile.dims<B, G, H, S, 64>>, %k: tensor<?x?x1x?x64xf16, #tile.dims<B, G, 1, T, 64>>,
                        %v: tensor<?x?x1x?x64xf16, #tile.dims<B, G, 1, T, 64>>) -> tensor<?x?x?x?x64xf16, #tile.dims<B, G, H, S, 64>> {
  %0 = tile.matmul %q, %k {transpose_b} : tensor<?x?x?x?x64xf16, #tile.dims<B, G, H, S, 64>>, tensor<?x?x1x?x64xf16, #tile.dims<B, G, 1, T, 64>> -> tensor<?x?x?x?x?xf32, #tile.dims<B, G, H, S, T>>
  %1 = tile.softmax %0 : tensor<?x?x?x?x?xf32, #tile.dims<B, G, H, S, T>>
  %2 = tile.map %1 : tensor<?x?x?x?x?xf32, #tile.dims<B, G, H, S, T>> -> tensor<?x?x?x?x?xf16, #tile.dims<B, G, H, S, T>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  %3 = tile.matmul %2, %v : tensor<?x?x?x?x?xf16, #tile.dims<B, G, H, S, T>>, tensor<?x?x1x?x64xf16, #tile.dims<B, G, 1, T, 64>> -> tensor<?x?x?x?x64xf32, #tile.dims<B, G, H, S, 64>>
  %4 = tile.map %3 : tensor<?x?x?x?x64xf32, #tile.dims<B, G, H, S, 64>> -> tensor<?x?x?x?x64xf16, #tile.dims<B, G, H, S, 64>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.return %4 : tensor<?x?x?x?x64xf16, #tile.dims<B, G, H, S, 64>>
}

// The output read twice: the op yields the f32 product, and its readers
// (both conversions) stay.
// CHECK-LABEL: tile.kernel @output_twice(
// CHECK-NEXT:    %[[O:.*]] = tile.attention {{.*}} -> tensor<?x?x?x128xf32, #tile.dims<B, H, S, 128>>{{$}}
// CHECK-NEXT:    tile.map %[[O]]
// CHECK:         tile.map %[[O]]
tile.kernel @output_twice(%q: !q, %k: !kv, %v: !kv) -> (!o, !o) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  %4 = tile.map %3 : !of -> !o {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %5 = tile.map %3 : !of -> !o {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %4, %5 : !o, !o
}

//===----------------------------------------------------------------------===//
// Chains that do not fuse: left alone, with a remark at the softmax
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.kernel @scores_returned(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @scores_returned(%q: !q, %k: !kv, %v: !kv) -> (!of, !s) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: the scores are also returned}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  tile.return %3, %0 : !of, !s
}

// CHECK-LABEL: tile.kernel @probabilities_returned(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @probabilities_returned(%q: !q, %k: !kv, %v: !kv) -> (!of, !s) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: the probabilities are also returned}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  tile.return %3, %1 : !of, !s
}

// The log-sum-exp of the scores before the mask is not the softmax's.
// CHECK-LABEL: tile.kernel @log_sum_exp_unmasked(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @log_sum_exp_unmasked(%q: !q, %k: !kv, %v: !kv) -> (!of, !lse) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %l = tile.reduce logsumexp %0 axis = 3 : !s -> !lse
  %1 = tile.mask %0 causal : !s {
  }
  // expected-remark @+1 {{not fused into tile.attention: the scores are also read by 'tile.reduce'}}
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4, %l : !of, !lse
}

// The log-sum-exp read before the product with v, where the op would be.
// CHECK-LABEL: tile.kernel @log_sum_exp_read_early(
// CHECK-NOT:     tile.attention
tile.kernel @log_sum_exp_read_early(%q: !q, %k: !kv, %v: !kv) -> (!of, !lse) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %l = tile.reduce logsumexp %0 axis = 3 : !s -> !lse
  %l2 = tile.map %l : !lse -> !lse {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    tile.yield %y : f32
  }
  // expected-remark @+1 {{not fused into tile.attention: the log-sum-exp is read before the product with v, where tile.attention computes both}}
  %2 = tile.softmax %0 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4, %l2 : !of, !lse
}

// The masked scores also reduced (a row maximum returned).
// CHECK-LABEL: tile.kernel @masked_scores_reduced(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @masked_scores_reduced(%q: !q, %k: !kv, %v: !kv) -> (!of, tensor<?x?x?xf32, #tile.dims<B, H, S>>) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.mask %0 causal : !s {
  }
  %m = tile.reduce max %1 axis = 3 : !s -> tensor<?x?x?xf32, #tile.dims<B, H, S>>
  // expected-remark @+1 {{not fused into tile.attention: the masked scores are also read by 'tile.reduce'}}
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4, %m : !of, tensor<?x?x?xf32, #tile.dims<B, H, S>>
}

// The scaled scores also returned.
// CHECK-LABEL: tile.kernel @modified_scores_returned(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @modified_scores_returned(%q: !q, %k: !kv, %v: !kv) -> (!of, !s) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.map %0 : !s -> !s {
  ^bb0(%x: f32):
    %c = arith.constant 5.000000e-01 : f32
    %y = arith.mulf %x, %c : f32
    tile.yield %y : f32
  }
  // expected-remark @+1 {{not fused into tile.attention: the modified scores are also returned}}
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4, %1 : !of, !s
}

// CHECK-LABEL: tile.kernel @rounded_probabilities_returned(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @rounded_probabilities_returned(%q: !q, %k: !kv, %v: !kv) -> (!of, !p) {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: the rounded probabilities are also returned}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  tile.return %3, %2 : !of, !p
}

// softmax(causal(s) * 0.5): a modifier after the mask.
// CHECK-LABEL: tile.kernel @modifier_after_mask(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @modifier_after_mask(%q: !q, %k: !kv, %v: !kv) -> !of {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.mask %0 causal : !s {
  }
  %2 = tile.map %1 : !s -> !s {
  ^bb0(%x: f32):
    %c = arith.constant 5.000000e-01 : f32
    %y = arith.mulf %x, %c : f32
    tile.yield %y : f32
  }
  // expected-remark @+1 {{not fused into tile.attention: a score modifier follows a mask; tile.attention modifies the scores before it masks them}}
  %3 = tile.softmax %2 : !s
  %4 = tile.map %3 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %5 = tile.matmul %4, %v : !p, !kv -> !of
  tile.return %5 : !of
}

// softmax(q @ k^T + bias): a tensor added to the scores.
// CHECK-LABEL: tile.kernel @bias(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @bias(%q: !q, %k: !kv, %v: !kv, %b: tensor<?x?xf32, #tile.dims<S, T>>) -> !of {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.map %0, %b : !s, tensor<?x?xf32, #tile.dims<S, T>> -> !s {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tile.yield %z : f32
  }
  // expected-remark @+1 {{not fused into tile.attention: the scores are combined with another tensor in a 'tile.map' (only the score, i, j and constants can modify a score)}}
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4 : !of
}

// A modifier that rounds the scores to bf16 (and softmax then works on
// bf16 scores): tile.attention keeps them f32.
// CHECK-LABEL: tile.kernel @scores_rounded(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @scores_rounded(%q: !q, %k: !kv, %v: !kv) -> !of {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.map %0 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  // expected-remark @+1 {{not fused into tile.attention: a 'tile.map' changes the scores' type or shape; tile.attention keeps them f32}}
  %2 = tile.softmax %1 : !p
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  tile.return %3 : !of
}

// Regions that read a value computed outside them (not a constant, which
// the op copies in) do not fuse: a map's, a score modifier's, a mask's.
// CHECK-LABEL: tile.kernel @map_captures(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @map_captures(%q: !q, %k: !kv, %v: !kv) -> !of {
  %c = arith.constant 5.000000e-01 : f32
  %half = arith.mulf %c, %c : f32
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.map %0 : !s -> !s {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %half : f32
    tile.yield %y : f32
  }
  // expected-remark @+1 {{not fused into tile.attention: a 'tile.map' of the scores reads a value from outside its region}}
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4 : !of
}

// CHECK-LABEL: tile.kernel @score_mod_captures(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @score_mod_captures(%q: !q, %k: !kv, %v: !kv) -> !of {
  %c = arith.constant 5.000000e-01 : f32
  %half = arith.mulf %c, %c : f32
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.score_mod %0 : !s {
  ^bb0(%x: f32, %i: index, %j: index):
    %y = arith.mulf %x, %half : f32
    tile.yield %y : f32
  }
  // expected-remark @+1 {{not fused into tile.attention: a score modifier reads a value from outside its region}}
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4 : !of
}

// CHECK-LABEL: tile.kernel @mask_captures(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @mask_captures(%q: !q, %k: !kv, %v: !kv) -> !of {
  %c = arith.constant 128 : index
  %window = arith.addi %c, %c : index
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.mask %0 : !s {
  ^bb0(%i: index, %j: index):
    %d = arith.subi %i, %j : index
    %in = arith.cmpi slt, %d, %window : index
    tile.yield %in : i1
  }
  // expected-remark @+1 {{not fused into tile.attention: a mask's predicate reads a value from outside its region}}
  %2 = tile.softmax %1 : !s
  %3 = tile.map %2 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4 : !of
}

// softmax(s) * 2.0 before the product: P is changed, not only rounded.
// CHECK-LABEL: tile.kernel @probabilities_scaled(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @probabilities_scaled(%q: !q, %k: !kv, %v: !kv) -> !of {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: the probabilities are changed by a 'tile.map' before the product with v (only a rounding to v's type fuses)}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %c = arith.constant 2.000000e+00 : f32
    %y = arith.mulf %x, %c : f32
    %t = arith.truncf %y : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  tile.return %3 : !of
}

// The rounded P read by another map before the product.
// CHECK-LABEL: tile.kernel @rounded_probabilities_mapped(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @rounded_probabilities_mapped(%q: !q, %k: !kv, %v: !kv) -> !of {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: the probabilities are read by 'tile.map', not by a product with v}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.map %2 : !p -> !p {
  ^bb0(%x: bf16):
    %y = arith.addf %x, %x : bf16
    tile.yield %y : bf16
  }
  %4 = tile.matmul %3, %v : !p, !kv -> !of
  tile.return %4 : !of
}

// softmax(s)^T @ v: the second product contracts P over S, the axis the
// softmax did not normalize (as would a softmax over the query axis).
// CHECK-LABEL: tile.kernel @probabilities_transposed(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @probabilities_transposed(%q: !q, %k: !kv, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>)
    -> tensor<?x?x?x128xf32, #tile.dims<B, H, T, 128>> {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: the second product reads the probabilities transposed (p^T), contracting over the query axis S, not over the key axis T}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v {transpose_a} : !p, tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> -> tensor<?x?x?x128xf32, #tile.dims<B, H, T, 128>>
  tile.return %3 : tensor<?x?x?x128xf32, #tile.dims<B, H, T, 128>>
}

// x @ softmax(s): P is the rhs, contracted over S.
// CHECK-LABEL: tile.kernel @probabilities_rhs(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @probabilities_rhs(%q: !q, %k: !kv, %x: tensor<?x?x?x?xbf16, #tile.dims<B, H, D, S>>)
    -> tensor<?x?x?x?xf32, #tile.dims<B, H, D, T>> {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: the second product contracts the probabilities over the query axis S (they are its rhs), not over the key axis T}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%y: f32):
    %t = arith.truncf %y : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %x, %2 : tensor<?x?x?x?xbf16, #tile.dims<B, H, D, S>>, !p -> tensor<?x?x?x?xf32, #tile.dims<B, H, D, T>>
  tile.return %3 : tensor<?x?x?x?xf32, #tile.dims<B, H, D, T>>
}

// P @ v^T (v stored [.., Dv, T]).
// CHECK-LABEL: tile.kernel @v_transposed(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @v_transposed(%q: !q, %k: !kv, %v: tensor<?x?x128x?xbf16, #tile.dims<B, H, 128, T>>) -> !of {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: v is read transposed (v^T); tile.attention reads v as [.., T, Dv]}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v {transpose_b} : !p, tensor<?x?x128x?xbf16, #tile.dims<B, H, 128, T>> -> !of
  tile.return %3 : !of
}

// q @ k with k stored [.., D, T].
// CHECK-LABEL: tile.kernel @k_not_transposed(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @k_not_transposed(%q: !q, %k: tensor<?x?x128x?xbf16, #tile.dims<B, H, 128, T>>, %v: !kv) -> !of {
  %0 = tile.matmul %q, %k : !q, tensor<?x?x128x?xbf16, #tile.dims<B, H, 128, T>> -> !s
  // expected-remark @+1 {{not fused into tile.attention: k is not read transposed: the scores are not q @ k^T with k [.., T, D]}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  tile.return %3 : !of
}

// q^T @ k^T (q stored [.., D, S]).
// CHECK-LABEL: tile.kernel @q_transposed(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @q_transposed(%q: tensor<?x?x128x?xbf16, #tile.dims<B, H, 128, S>>, %k: !kv, %v: !kv) -> !of {
  %0 = tile.matmul %q, %k {transpose_a, transpose_b} : tensor<?x?x128x?xbf16, #tile.dims<B, H, 128, S>>, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: q is read transposed (q^T); tile.attention reads q as [.., S, D]}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  tile.return %3 : !of
}

// Rank 2 (one head): tile.attention walks batch or head axes.
// CHECK-LABEL: tile.kernel @rank2(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @rank2(%q: tensor<?x128xbf16, #tile.dims<S, 128>>, %k: tensor<?x128xbf16, #tile.dims<T, 128>>,
                   %v: tensor<?x128xbf16, #tile.dims<T, 128>>) -> tensor<?x128xf32, #tile.dims<S, 128>> {
  %0 = tile.matmul %q, %k {transpose_b} : tensor<?x128xbf16, #tile.dims<S, 128>>, tensor<?x128xbf16, #tile.dims<T, 128>> -> tensor<?x?xf32, #tile.dims<S, T>>
  // expected-remark @+1 {{not fused into tile.attention: q has rank 2; tile.attention takes rank 3 to 5 (batch or head axes, then [S, D])}}
  %1 = tile.softmax %0 : tensor<?x?xf32, #tile.dims<S, T>>
  %2 = tile.map %1 : tensor<?x?xf32, #tile.dims<S, T>> -> tensor<?x?xbf16, #tile.dims<S, T>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : tensor<?x?xbf16, #tile.dims<S, T>>, tensor<?x128xbf16, #tile.dims<T, 128>> -> tensor<?x128xf32, #tile.dims<S, 128>>
  tile.return %3 : tensor<?x128xf32, #tile.dims<S, 128>>
}

// One k for every batch and head (rank 2 against q's rank 4).
// CHECK-LABEL: tile.kernel @k_broadcast_rank(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @k_broadcast_rank(%q: !q, %k: tensor<?x128xbf16, #tile.dims<T, 128>>, %v: !kv) -> !of {
  %0 = tile.matmul %q, %k {transpose_b} : !q, tensor<?x128xbf16, #tile.dims<T, 128>> -> !s
  // expected-remark @+1 {{not fused into tile.attention: k has rank 2 and q rank 4; tile.attention needs one rank}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, !kv -> !of
  tile.return %3 : !of
}

// One v for every batch and head (rank 2 against q's rank 4).
// CHECK-LABEL: tile.kernel @v_broadcast_rank(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @v_broadcast_rank(%q: !q, %k: !kv, %v: tensor<?x128xbf16, #tile.dims<T, 128>>) -> !of {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  // expected-remark @+1 {{not fused into tile.attention: v has rank 2 and q rank 4; tile.attention needs one rank}}
  %1 = tile.softmax %0 : !s
  %2 = tile.map %1 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : !p, tensor<?x128xbf16, #tile.dims<T, 128>> -> !of
  tile.return %3 : !of
}

// A softmax of a kernel argument that feeds a product.
// CHECK-LABEL: tile.kernel @scores_argument(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @scores_argument(%s: !s, %v: !kv) -> !of {
  // expected-remark @+1 {{not fused into tile.attention: the scores are a kernel argument, not a product q @ k^T}}
  %0 = tile.softmax %s : !s
  %1 = tile.map %0 : !s -> !p {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %2 = tile.matmul %1, %v : !p, !kv -> !of
  tile.return %2 : !of
}

// Scores that a tile.contract computed (tile-fuse-epilogues ran first).
// CHECK-LABEL: tile.kernel @scores_from_contract(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @scores_from_contract(%q: tensor<?x128xbf16, #tile.dims<S, 128>>, %k: tensor<?x128xbf16, #tile.dims<T, 128>>,
                                  %v: tensor<?x128xbf16, #tile.dims<T, 128>>) -> tensor<?x128xf32, #tile.dims<S, 128>> {
  %0 = tile.contract(%q, %k : tensor<?x128xbf16, #tile.dims<S, 128>>, tensor<?x128xbf16, #tile.dims<T, 128>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  // expected-remark @+1 {{not fused into tile.attention: the scores come from 'tile.contract', not from a product q @ k^T}}
  %1 = tile.softmax %0 : tensor<?x?xf32, #tile.dims<S, T>>
  %2 = tile.map %1 : tensor<?x?xf32, #tile.dims<S, T>> -> tensor<?x?xbf16, #tile.dims<S, T>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : tensor<?x?xbf16, #tile.dims<S, T>>, tensor<?x128xbf16, #tile.dims<T, 128>> -> tensor<?x128xf32, #tile.dims<S, 128>>
  tile.return %3 : tensor<?x128xf32, #tile.dims<S, 128>>
}

// A softmax that reaches no product is not attention: no remark.
// CHECK-LABEL: tile.kernel @softmax_only(
// CHECK-NEXT:    tile.matmul
// CHECK-NEXT:    tile.softmax
tile.kernel @softmax_only(%q: !q, %k: !kv) -> !s {
  %0 = tile.matmul %q, %k {transpose_b} : !q, !kv -> !s
  %1 = tile.softmax %0 : !s
  tile.return %1 : !s
}

// q broadcast along a batch axis (extent 1 where k and v have 2): the
// product broadcasts either side, but tile.attention's output has q's axes
// and only k and v may be 1 there. (A fuzzed program fused this into an op
// its verifier refused.)
// CHECK-LABEL: tile.kernel @query_broadcast(
// CHECK-NOT:     tile.attention
// CHECK:         tile.softmax
tile.kernel @query_broadcast(%q: tensor<1x?x?x128xbf16, #tile.dims<1, H, S, 128>>, %k: tensor<2x?x?x128xbf16, #tile.dims<2, H, T, 128>>, %v: tensor<2x?x?x128xbf16, #tile.dims<2, H, T, 128>>) -> tensor<2x?x?x128xf32, #tile.dims<2, H, S, 128>> {
  %0 = tile.matmul %q, %k {transpose_b} : tensor<1x?x?x128xbf16, #tile.dims<1, H, S, 128>>, tensor<2x?x?x128xbf16, #tile.dims<2, H, T, 128>> -> tensor<2x?x?x?xf32, #tile.dims<2, H, S, T>>
  // expected-remark @+1 {{not fused into tile.attention: k has extent '2' where q has '1' (axis 0); tile.attention broadcasts only k and v (a size-1 axis of theirs), not q}}
  %1 = tile.softmax %0 : tensor<2x?x?x?xf32, #tile.dims<2, H, S, T>>
  %2 = tile.map %1 : tensor<2x?x?x?xf32, #tile.dims<2, H, S, T>> -> tensor<2x?x?x?xbf16, #tile.dims<2, H, S, T>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  %3 = tile.matmul %2, %v : tensor<2x?x?x?xbf16, #tile.dims<2, H, S, T>>, tensor<2x?x?x128xbf16, #tile.dims<2, H, T, 128>> -> tensor<2x?x?x128xf32, #tile.dims<2, H, S, 128>>
  tile.return %3 : tensor<2x?x?x128xf32, #tile.dims<2, H, S, 128>>
}
