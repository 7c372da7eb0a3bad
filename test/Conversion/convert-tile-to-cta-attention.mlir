// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-tile-to-cta | FileCheck %s

// convert-tile-to-cta on attention kernels (AttentionToCta.cpp): a
// tile.attention becomes a warp-specialized program in FlashAttention-3's
// structure. The producer walks (batch, head, query block) units, loading
// the query tile through a two-stage ring and, per key block, K then V
// through rings of their own at the same position. Each math warpgroup owns
// 64 query rows and waits for and releases stages itself (cta.stage_wait,
// cta.stage_release): block 0's S = Q K^T (a fresh accumulator) and masked
// softmax first; then each step issues S of its block and O += P V of the
// previous block as asynchronous MMAs (the warpgroups take turns issuing,
// cta.mma_turn), waits for S with O's MMA in flight (later 1) and releases
// K, computes the softmax (the 1/sqrt(d) scale folded into log2(e): one FMA
// and one exp2 marked afn per score), waits for O (later 0), releases V,
// rescales O and rounds P into the MMA's register operand; the last block's
// P V after the loops. Blocks wholly left of the unit's first query row
// (and inside T) run without mask arithmetic, the rest (the diagonal) with
// the causal mask and keys past T as -inf. The store divides by the row
// sums.
// CHECK-LABEL: cta.program @attention(
// CHECK-SAME:    %[[Q:[^:]*]]: memref<?x?x?x?xbf16, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"q", input, [B, H, S, 128]>}
// CHECK-SAME:    %[[K:[^:]*]]: memref<?x?x?x?xbf16, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"k", input, [B, H, T, 128]>}
// CHECK-SAME:    %[[V:[^:]*]]: memref<?x?x?x?xbf16, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"v", input, [B, H, T, 128]>}
// CHECK-SAME:    %[[O:[^:]*]]: memref<?x?x?x?xbf16, strided<[?, ?, ?, 1]>> {cta.param = #cta.param<"o", output, [B, H, S, 128]>}
// CHECK-SAME:    %[[B:[^:]*]]: index {cta.dim = #cta.dim<B>}, %[[H:[^:]*]]: index {cta.dim = #cta.dim<H>}, %[[S:[^:]*]]: index {cta.dim = #cta.dim<S>}, %[[T:[^:]*]]: index {cta.dim = #cta.dim<T>})
// CHECK-SAME:    attributes {block = array<i64: 384, 1, 1>, chip = #cta.chip<sm_90a>, cluster = array<i64: 1, 1>, schedule = #cta.schedule<stages = 2, math_warpgroups = 2>}
// CHECK:         %[[SQ:.*]] = cta.alloc : <128x128xbf16, stages = 2>
// CHECK-NEXT:    %[[SK:.*]] = cta.alloc : <128x128xbf16, stages = 2>
// CHECK-NEXT:    %[[SV:.*]] = cta.alloc : <128x128xbf16, stages = 2>
// CHECK-NEXT:    %[[SO:.*]] = cta.alloc : <64x128xbf16, stages = 2>
// CHECK-NEXT:    %[[QR:.*]] = cta.ring {consumers = 2 : i64} : <2>
// CHECK-NEXT:    %[[KR:.*]] = cta.ring {consumers = 2 : i64} : <2>
// CHECK-NEXT:    %[[VR:.*]] = cta.ring {consumers = 2 : i64} : <2>
// CHECK-NEXT:    cta.warp_specialize
// CHECK-NEXT:      #cta.role<producer, warps = 4, regs = 24> {
// The causal walk goes in bands of (batch, head) entries whose keys and
// values fill at most half of L2 (T * 512 bytes each at head dim 128).
// CHECK-NEXT:      %[[BYTES:.*]] = arith.constant 512 : index
// CHECK-NEXT:      %[[PER:.*]] = arith.muli %[[T]], %[[BYTES]] : index
// CHECK-NEXT:      %[[PER1:.*]] = arith.maxui %[[PER]], %{{.*}} : index
// CHECK-NEXT:      %[[HALF:.*]] = arith.constant 26214400 : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[HALF]], %[[PER1]] : index
// CHECK-NEXT:      %[[BAND:.*]] = arith.maxui %[[N]], %{{.*}} : index
// CHECK-NEXT:      cta.tile_loop batched (%[[B]], %[[H]], %[[S]], %{{.*}}) tile [1, 1, 128, 128] band(%[[BAND]]) iter_args
// CHECK-NEXT:      ^bb0(%[[BI:[^:]*]]: index, %[[HI:[^:]*]]: index, %[[S0:[^:]*]]: index, %{{[^:]*}}: index, %[[QPOS:[^:]*]]: index, %[[POS:[^:]*]]: index):
// CHECK-NEXT:        cta.produce %[[QR]] at %[[QPOS]] count
// CHECK-NEXT:        ^bb0
// CHECK-NEXT:          cta.load %[[Q]][%[[BI]], %[[HI]], %[[S0]], %{{.*}}] -> %[[SQ]][%{{.*}}] signal %[[QR]]
// CHECK:             %[[END:.*]] = arith.minui %{{.*}}, %[[T]] : index
// CHECK-NEXT:        %[[BLOCKS:.*]] = arith.ceildivui %[[END]], %{{.*}} : index
// CHECK-NEXT:        scf.for %[[J:.*]] = %{{.*}} to %[[BLOCKS]]
// CHECK-NEXT:          %[[KPOS:.*]] = arith.addi %[[POS]], %[[J]] : index
// CHECK:               cta.produce %[[KR]] at %[[KPOS]] count
// CHECK:                 cta.load %[[K]][%[[BI]], %[[HI]], %{{.*}}, %{{.*}}] -> %[[SK]][%{{.*}}] signal %[[KR]]
// CHECK:               cta.produce %[[VR]] at %[[KPOS]] count
// CHECK:                 cta.load %[[V]][%[[BI]], %[[HI]], %{{.*}}, %{{.*}}] -> %[[SV]][%{{.*}}] signal %[[VR]]
// CHECK:             %[[KVNEXT:.*]] = arith.addi %[[POS]], %[[BLOCKS]] : index
// CHECK-NEXT:        cta.yield %{{.*}}, %[[KVNEXT]] : index, index
// CHECK:           } {longest_first, persistent}
// CHECK:           #cta.role<math, warps = 8, regs = 240> {
// CHECK:             %[[WG0:.*]] = cta.warpgroup_index : index
// CHECK-NEXT:        cta.mma_turn start %[[WG0]] of 2
// CHECK:             ^bb0(%{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[MQPOS:[^:]*]]: index, %[[MPOS:[^:]*]]: index):
// CHECK:               %[[WG:.*]] = cta.warpgroup_index : index
// CHECK:               %[[MBLOCKS:.*]] = arith.ceildivui
// CHECK-NEXT:          %[[QS:.*]] = cta.stage_wait %[[QR]] at %[[MQPOS]] : <2>
// CHECK-NEXT:          %[[ANY:.*]] = arith.cmpi ugt, %[[MBLOCKS]], %{{.*}} : index
// CHECK-NEXT:          %[[OL:.*]]:2 = scf.if %[[ANY]] -> (!cta.acc<64x128xf32>, !cta.frag<64xf32, rows>) {
// The blocks without mask arithmetic.
// CHECK:                 %[[WHOLE:.*]] = arith.minui
// CHECK-NEXT:            %[[UNMASKED:.*]] = arith.minui %[[WHOLE]], %{{.*}} : index
// Block 0: its softmax without the masks when it is one of those blocks.
// CHECK:                 %[[KS0:.*]] = cta.stage_wait %[[KR]] at %[[MPOS]] : <2>
// CHECK-NEXT:            cta.mma_turn wait %[[WG]] of 2
// CHECK-NEXT:            %[[SZ0:.*]] = cta.acc_zero : <64x128xf32>
// CHECK:                 %[[S0V:.*]] = cta.mma %[[SQ]][%[[QS]]] rows %{{.*}}, %[[SK]][%[[KS0]]], %[[SZ0]] accumulate %{{.*}} {transpose_b}
// CHECK-NEXT:            cta.mma_turn pass %[[WG]] of 2
// CHECK-NEXT:            cta.stage_release %[[KR]] at %[[MPOS]] : <2>
// CHECK-NEXT:            %[[FIRST_WHOLE:.*]] = arith.cmpi ugt, %[[UNMASKED]], %{{.*}} : index
// CHECK-NEXT:            %[[FIRST:.*]]:3 = scf.if %[[FIRST_WHOLE]] -> (!cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>, !cta.frag<64x128xf32, acc>) {
// CHECK-NEXT:              cta.reduce_rows max %[[S0V]] : !cta.acc<64x128xf32>
// CHECK:                 } else {
// The built-in masks as one bound per row, in 32 bits: key t0 + jj is kept
// below min(T, query + 1).
// CHECK:                   %[[T32:.*]] = arith.index_castui %[[T]] : index to i32
// CHECK:                   cta.frag_map %[[S0V]] : !cta.acc<64x128xf32> -> !cta.frag<64x128xf32, acc> {
// CHECK:                     %[[KEY:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:                     %[[NEXT:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:                %[[BOUND:.*]] = arith.minui %[[T32]], %[[NEXT]] : i32
// CHECK-NEXT:                %[[KEEP:.*]] = arith.cmpi ult, %[[KEY]], %[[BOUND]] : i32
// CHECK-NEXT:                arith.select %[[KEEP]]
// CHECK:                 %[[O0:.*]] = cta.acc_zero : <64x128xf32>
// CHECK-NEXT:            %[[P0:.*]] = cta.convert %[[FIRST]]#2 : !cta.frag<64x128xf32, acc> -> <64x128xbf16, lhs>
// The unmasked steps.
// CHECK-NEXT:            %[[FULL:.*]]:4 = scf.for %[[SJ:.*]] = %{{.*}} to %[[UNMASKED]] step %{{.*}} iter_args(%[[OA:.*]] = %[[O0]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[PA:.*]] = %[[P0]])
// CHECK-NEXT:              %[[SPOS:.*]] = arith.addi %[[MPOS]], %[[SJ]] : index
// CHECK-NEXT:              %[[PREV:.*]] = arith.subi %[[SPOS]], %{{.*}} : index
// CHECK-NEXT:              %[[KS:.*]] = cta.stage_wait %[[KR]] at %[[SPOS]] : <2>
// CHECK-NEXT:              %[[VS:.*]] = cta.stage_wait %[[VR]] at %[[PREV]] : <2>
// CHECK-NEXT:              cta.mma_turn wait %[[WG]] of 2
// CHECK-NEXT:              %[[SZ:.*]] = cta.acc_zero : <64x128xf32>
// CHECK:                   %[[SP:.*]] = cta.mma %[[SQ]][%[[QS]]] rows %{{.*}}, %[[SK]][%[[KS]]], %[[SZ]] accumulate %{{.*}} {async, transpose_b}
// CHECK-NEXT:              %[[OP:.*]] = cta.mma %[[PA]], %[[SV]][%[[VS]]], %[[OA]] {async} : !cta.frag<64x128xbf16, lhs>
// CHECK-NEXT:              cta.mma_turn pass %[[WG]] of 2
// CHECK-NEXT:              %[[SS:.*]] = cta.mma_wait %[[SP]] later 1 : <64x128xf32>
// CHECK-NEXT:              cta.stage_release %[[KR]] at %[[SPOS]] : <2>
// CHECK-NEXT:              cta.reduce_rows max %[[SS]] : !cta.acc<64x128xf32>
// CHECK:                     arith.constant -0.127517432 : f32
// CHECK:                   %[[PF:.*]] = cta.frag_map %[[SS]], %{{.*}} : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> -> !cta.frag<64x128xf32, acc> {
// CHECK:                     arith.constant 0.127517432 : f32
// CHECK-NEXT:                math.fma
// CHECK-NEXT:                math.exp2 %{{.*}} fastmath<afn> : f32
// CHECK:                   cta.reduce_rows sum
// CHECK:                   %[[OW:.*]] = cta.mma_wait %[[OP]] later 0 : <64x128xf32>
// CHECK-NEXT:              cta.stage_release %[[VR]] at %[[PREV]] : <2>
// CHECK-NEXT:              %[[OR:.*]] = cta.frag_map %[[OW]], %{{.*}} : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> -> !cta.acc<64x128xf32>
// CHECK:                   %[[PN:.*]] = cta.convert %[[PF]] : !cta.frag<64x128xf32, acc> -> <64x128xbf16, lhs>
// CHECK-NEXT:              scf.yield %[[OR]], %{{.*}}, %{{.*}}, %[[PN]]
// The masked steps.
// CHECK:                 %[[FROM:.*]] = arith.maxui %[[UNMASKED]], %{{.*}} : index
// CHECK-NEXT:            %[[EDGE:.*]]:4 = scf.for %{{.*}} = %[[FROM]] to %[[MBLOCKS]] step %{{.*}} iter_args(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1, %{{.*}} = %[[FULL]]#2, %{{.*}} = %[[FULL]]#3)
// CHECK:                   cta.mma_wait %{{.*}} later 1
// CHECK:                   cta.frag_map %{{.*}} : !cta.acc<64x128xf32> -> !cta.frag<64x128xf32, acc> {
// CHECK:                     arith.minui
// CHECK-NEXT:                arith.cmpi ult
// CHECK-NEXT:                arith.select
// CHECK:                   cta.mma_wait %{{.*}} later 0
// The last block's P V.
// CHECK:                 %[[LAST:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:            %[[VL:.*]] = cta.stage_wait %[[VR]] at %[[LAST]] : <2>
// CHECK-NEXT:            cta.mma_turn wait %[[WG]] of 2
// CHECK-NEXT:            %[[OF:.*]] = cta.mma %[[EDGE]]#3, %[[SV]][%[[VL]]], %[[EDGE]]#0 : !cta.frag<64x128xbf16, lhs>
// CHECK-NEXT:            cta.mma_turn pass %[[WG]] of 2
// CHECK-NEXT:            cta.stage_release %[[VR]] at %[[LAST]] : <2>
// CHECK-NEXT:            scf.yield %[[OF]], %[[EDGE]]#2
// A unit without keys (T = 0) waits for nothing.
// CHECK:               } else {
// CHECK-NEXT:            cta.acc_zero
// CHECK-NEXT:            cta.splat
// CHECK-NEXT:            scf.yield
// The output times 1 / l: one division per row, a multiply per element.
// CHECK:               cta.stage_release %[[QR]] at %[[MQPOS]] : <2>
// CHECK:               %[[INV:.*]] = cta.frag_map %{{.*}} : !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
// CHECK:                 arith.divf
// CHECK:               cta.frag_map %{{.*}}, %[[INV]] : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows> -> !cta.acc<64x128xf32> {
// CHECK-NEXT:          ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:            arith.mulf
// CHECK:             cta.store %{{.*}} -> %[[O]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] staging %[[SO]][%{{.*}}]
// CHECK:               arith.truncf %{{.*}} : f32 to bf16
// CHECK:           } {longest_first, persistent}

tile.kernel @attention(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> {tile.param = #tile.param<"q", input>},
                       %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> {tile.param = #tile.param<"k", input>},
                       %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> score {
  ^bb0(%s: f32, %i: index, %j: index):
    %c = arith.constant 0.0883883461 : f32
    %x = arith.mulf %s, %c : f32
    tile.yield %x : f32
  }
  tile.return %o : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
}

// -----

// Above head dim 128 the softmax keeps lazy maxima: a row's maximum moves
// only when the block's exceeds it by more than 2^8 in the exponentials'
// units (x 1/sqrt(256) x log2(e)); the output's factor is exactly 1 where it
// stayed, and cta.scale_rows rescales O (skipped where every factor is 1).
// At head dim 128 (@attention above) the maxima are max(m, block max) and
// O is rescaled by a frag_map.
// CHECK-LABEL: cta.program @head_dim_256(
// The key steps (block 0's factor is never used).
// CHECK:         cta.mma_wait %{{.*}} later 1 : <64x64xf32>
// CHECK:         %[[BMAX:.*]] = cta.reduce_rows max %{{.*}} : !cta.acc<64x64xf32> -> <64xf32, rows>
// CHECK-NEXT:    cta.frag_map %{{.*}}, %[[BMAX]] : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
// CHECK-NEXT:    ^bb0(%{{.*}}: index, %{{.*}}: index, %[[MOLD:.*]]: f32, %[[MBLK:.*]]: f32):
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 0.0901684388 : f32
// CHECK-NEXT:      %[[GAP:.*]] = arith.subf %[[MBLK]], %[[MOLD]] : f32
// CHECK-NEXT:      %[[GAP2:.*]] = arith.mulf %[[GAP]], %[[C2]] : f32
// CHECK-NEXT:      %[[EIGHT:.*]] = arith.constant 8.000000e+00 : f32
// CHECK-NEXT:      %[[FAR:.*]] = arith.cmpf ogt, %[[GAP2]], %[[EIGHT]] : f32
// CHECK-NEXT:      arith.select %[[FAR]], %[[MBLK]], %[[MOLD]] : f32
// The output's factor: 1 exactly where the maximum stayed.
// CHECK:         %[[ALPHA:.*]] = cta.frag_map %{{.*}}, %[[BMAX]], %{{.*}} : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           arith.cmpf ogt
// CHECK-NEXT:      arith.select %{{.*}}, %{{.*}}, %[[ONE]] : f32
// CHECK:         %[[OW:.*]] = cta.mma_wait %{{.*}} later 0 : <64x256xf32>
// CHECK-NEXT:    cta.stage_release
// CHECK-NEXT:    cta.scale_rows %[[OW]] by %[[ALPHA]] : !cta.acc<64x256xf32>, <64xf32, rows>
tile.kernel @head_dim_256(%q: tensor<?x?x256xbf16, #tile.dims<H, S, 256>> {tile.param = #tile.param<"q", input>},
                          %k: tensor<?x?x256xbf16, #tile.dims<H, T, 256>> {tile.param = #tile.param<"k", input>},
                          %v: tensor<?x?x256xbf16, #tile.dims<H, T, 256>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x256xbf16, #tile.dims<H, S, 256>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 256, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x256xbf16, #tile.dims<H, S, 256>>, tensor<?x?x256xbf16, #tile.dims<H, T, 256>>, tensor<?x?x256xbf16, #tile.dims<H, T, 256>> -> tensor<?x?x256xbf16, #tile.dims<H, S, 256>> score {
  ^bb0(%s: f32, %i: index, %j: index):
    %c = arith.constant 0.0625 : f32
    %x = arith.mulf %s, %c : f32
    tile.yield %x : f32
  }
  tile.return %o : tensor<?x?x256xbf16, #tile.dims<H, S, 256>>
}

// -----

// Grouped-query attention: k and v have a size-1 axis where q has G query
// heads; their tiles are read at index 0 along it, so the G query heads of
// one key/value head share its loads. A score modifier that is more than a
// scale (tanh soft-capping; its division may use the reciprocal: arcp) is
// cloned into the score map, log2(e) going into the exponentials' FMA; a
// mask region adds its predicate and the guard that keeps fully masked
// rows' exponentials at 0.
// Without the causal mask the walk keeps the row tiles of one head
// fastest (no longest_first): the CTAs running at once share its keys.
// CHECK-LABEL: cta.program @gqa(
// CHECK:         cta.tile_loop batched (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) tile [1, 1, 1, 128, 128]
// CHECK-NEXT:    ^bb0(%[[BI:[^:]*]]: index, %[[HI:[^:]*]]: index, %[[GI:[^:]*]]: index,
// CHECK:           cta.load %{{.*}}[%[[BI]], %[[HI]], %[[GI]], %{{.*}}, %{{.*}}] -> %{{.*}}[%{{.*}}] signal
// CHECK:           cta.load %{{.*}}[%[[BI]], %[[HI]], %[[C0:[^,]*]], %{{.*}}, %[[C0]]] -> %{{.*}}[%{{.*}}] signal
// CHECK:         cta.frag_map
// CHECK:           arith.divf %{{.*}}, %{{.*}} fastmath<arcp> : f32
// CHECK-NEXT:      math.tanh
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      arith.index_castui
// CHECK-NEXT:      arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:      arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:      arith.cmpi ugt
// CHECK-NEXT:      arith.andi
// CHECK:         arith.cmpf oeq
// The modified scores stay in their units: log2(e) goes into the
// exponentials' FMA, exp2(x * log2(e) - m * log2(e)).
// CHECK:         cta.frag_map
// CHECK:           %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:      math.fma %{{.*}}, %[[LOG2E]], %{{.*}} : f32
// CHECK-NEXT:      math.exp2
// CHECK:         } {persistent}
tile.kernel @gqa(%q: tensor<?x?x?x?x128xbf16, #tile.dims<B, HKV, G, S, 128>> {tile.param = #tile.param<"q", input>},
                 %k: tensor<?x?x1x?x128xbf16, #tile.dims<B, HKV, 1, T, 128>> {tile.param = #tile.param<"k", input>},
                 %v: tensor<?x?x1x?x128xbf16, #tile.dims<B, HKV, 1, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x?x?x128xbf16, #tile.dims<B, HKV, G, S, 128>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x?x?x128xbf16, #tile.dims<B, HKV, G, S, 128>>, tensor<?x?x1x?x128xbf16, #tile.dims<B, HKV, 1, T, 128>>, tensor<?x?x1x?x128xbf16, #tile.dims<B, HKV, 1, T, 128>> -> tensor<?x?x?x?x128xbf16, #tile.dims<B, HKV, G, S, 128>> score {
  ^bb0(%s: f32, %i: index, %j: index):
    %c = arith.constant 30.0 : f32
    %x = arith.divf %s, %c : f32
    %t = math.tanh %x : f32
    %y = arith.mulf %t, %c : f32
    tile.yield %y : f32
  } mask {
  ^bb0(%i: index, %j: index):
    %keep = arith.cmpi ugt, %j, %i : index
    tile.yield %keep : i1
  }
  tile.return %o : tensor<?x?x?x?x128xbf16, #tile.dims<B, HKV, G, S, 128>>
}

// -----

// The log-sum-exp as the first output: the key loop also yields the row
// maxima (-inf for a unit without keys), and after the output's store each
// row's m * scale + ln(l) (the scale folded into the exponentials: m is in
// the MMA's units) goes to the lse argument, one value per row.
// CHECK-LABEL: cta.program @log_sum_exp(
// CHECK-SAME:    %[[LSE:[^:]*]]: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"lse", output, [H, S]>}
// CHECK-SAME:    %[[O:[^:]*]]: memref<?x?x?xbf16, strided<[?, ?, 1]>> {cta.param = #cta.param<"o", output, [H, S, 128]>}
// CHECK:         %[[ANY:.*]] = arith.cmpi ugt
// CHECK:         %[[OLM:.*]]:3 = scf.if %[[ANY]] -> (!cta.acc<64x128xf32>, !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>) {
// CHECK:         } else {
// CHECK:           cta.splat %{{.*}} : f32 -> <64xf32, rows>
// CHECK-NEXT:      %[[NINF:.*]] = cta.splat %[[NINFC:.*]] : f32 -> <64xf32, rows>
// CHECK-NEXT:      scf.yield %{{.*}}, %{{.*}}, %[[NINF]]
// CHECK:         cta.store %{{.*}} -> %[[O]][
// CHECK:         %[[L:.*]] = cta.frag_map %[[OLM]]#2, %[[OLM]]#1 : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows> {
// CHECK:           %[[LN:.*]] = math.log %{{.*}} : f32
// CHECK-NEXT:      %[[SCALE:.*]] = arith.constant 0.0883883461 : f32
// CHECK-NEXT:      math.fma %{{.*}}, %[[SCALE]], %[[LN]] : f32
// CHECK:         cta.store_rows %[[L]] -> %[[LSE]][%{{.*}}, %{{.*}}] : !cta.frag<64xf32, rows> -> memref<?x?xf32, strided<[?, 1]>>
tile.kernel @log_sum_exp(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                         %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                         %v: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?xf32, #tile.dims<H, S>> {tile.param = #tile.param<"lse", output>},
        tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  %o, %lse = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, lse tensor<?x?xf32, #tile.dims<H, S>> score {
  ^bb0(%s: f32, %i: index, %j: index):
    %c = arith.constant 0.0883883461 : f32
    %x = arith.mulf %s, %c : f32
    tile.yield %x : f32
  }
  tile.return %lse, %o : tensor<?x?xf32, #tile.dims<H, S>>, tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}

// -----

// Packed sequences (varlen): a grouped walk over the query offsets, its body
// reading the unit's first query row and its keys' range (cta.read_index) in
// each role; K and V load from the sequence's first key, the masks see the
// row within the sequence, and the store stops at the sequence's end
// (m_end: row_limit).
// CHECK-LABEL: cta.program @varlen(
// CHECK:         cta.tile_loop grouped offsets(%[[CQ:[^ ]*]] : memref<?xi32, strided<[1]>>, %[[B:[^)]*]]) (%{{.*}}, %{{.*}}, %{{.*}}) tile [1, 128, 128]
// CHECK-NEXT:    ^bb0(%[[SEQ:[^:]*]]: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[END:[^:]*]]: index,
// CHECK:           cta.read_index %[[CQ]][%[[SEQ]]] : memref<?xi32, strided<[1]>>
// CHECK:           %[[K0:.*]] = cta.read_index %[[CK:[^\[]*]][%[[SEQ]]]
// CHECK:           cta.read_index %[[CK]][
// CHECK:           arith.addi %[[K0]], %{{.*}} : index
// CHECK:           cta.load
// CHECK:         } {persistent}
// CHECK:         cta.tile_loop grouped offsets(%[[CQ]]
// CHECK:           cta.store %{{.*}} -> %{{.*}}[%{{.*}}] row_limit %{{.*}} staging
// CHECK:         } {persistent}
tile.kernel @varlen(%q: tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>> {tile.param = #tile.param<"q", input>},
                    %k: tensor<?x?x128xbf16, #tile.dims<H, TK, 128>> {tile.param = #tile.param<"k", input>},
                    %v: tensor<?x?x128xbf16, #tile.dims<H, TK, 128>> {tile.param = #tile.param<"v", input>},
                    %cq: tensor<?xi32, #tile.dims<B+1>> {tile.param = #tile.param<"cu_q", input>},
                    %ck: tensor<?xi32, #tile.dims<B+1>> {tile.param = #tile.param<"cu_k", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v segments(%cq, %ck : tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>>) mask_kind = causal, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>>, tensor<?x?x128xbf16, #tile.dims<H, TK, 128>>, tensor<?x?x128xbf16, #tile.dims<H, TK, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>>
  tile.return %o : tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>>
}

// -----

tile.kernel @varlen_offsets_extent(%q: tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>> {tile.param = #tile.param<"q", input>},
                    %k: tensor<?x?x128xbf16, #tile.dims<H, TK, 128>> {tile.param = #tile.param<"k", input>},
                    %cq: tensor<?xi32, #tile.dims<N>> {tile.param = #tile.param<"cu_q", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>> {tile.param = #tile.param<"o", output>}) {
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: sequence offsets of extent 'N'; varlen attention takes i32[B + 1] (a name plus one) or a constant extent}}
  %o = tile.attention %q, %k, %k segments(%cq, %cq : tensor<?xi32, #tile.dims<N>>, tensor<?xi32, #tile.dims<N>>) mask_kind = none, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>>, tensor<?x?x128xbf16, #tile.dims<H, TK, 128>>, tensor<?x?x128xbf16, #tile.dims<H, TK, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>>
  tile.return %o : tensor<?x?x128xbf16, #tile.dims<H, TQ, 128>>
}

// -----

tile.kernel @unscheduled(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                         %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                         %v: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  // expected-error@+1 {{convert-tile-to-cta: the attention has no schedule; run tile-select-schedule first}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  tile.return %o : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}

// -----

tile.kernel @f32_output(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                        %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                        %v: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xf32, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: an attention output of type f32 (bf16 and f16 are supported)}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xf32, #tile.dims<H, S, 128>>
  tile.return %o : tensor<?x?x128xf32, #tile.dims<H, S, 128>>
}

// -----

tile.kernel @expression_extent(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                               %k: tensor<?x?x128xbf16, #tile.dims<H, T*2, 128>> {tile.param = #tile.param<"k", input>},
                               %v: tensor<?x?x128xbf16, #tile.dims<H, T*2, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: an attention extent given by the expression 'T*2'}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T*2, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T*2, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  tile.return %o : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}

// -----

tile.kernel @two_outputs(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                         %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                         %v: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>},
        tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o2", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: an attention kernel whose outputs are not the attention's result (and log-sum-exp) alone}}
  tile.return %o, %q : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}

// -----

tile.kernel @fp8(%q: tensor<?x?x128xf8E4M3FN, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                 %k: tensor<?x?x128xf8E4M3FN, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                 %v: tensor<?x?x128xf8E4M3FN, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: attention on f8E4M3FN operands (bf16 and f16 are supported)}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = f8E4M3FN {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x128xf8E4M3FN, #tile.dims<H, S, 128>>, tensor<?x?x128xf8E4M3FN, #tile.dims<H, T, 128>>, tensor<?x?x128xf8E4M3FN, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  tile.return %o : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}

// -----

tile.kernel @mixed(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                   %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                   %v: tensor<?x?x128xf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: q and v of different element types}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = f16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  tile.return %o : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}

// -----

tile.kernel @constant_key(%q: tensor<2x?x128xbf16, #tile.dims<2, S, 128>> {tile.param = #tile.param<"q", input>},
                          %v: tensor<2x4x128xbf16, #tile.dims<2, 4, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<2x?x128xbf16, #tile.dims<2, S, 128>> {tile.param = #tile.param<"o", output>}) {
  %k = arith.constant dense<1.0> : tensor<2x4x128xbf16, #tile.dims<2, 4, 128>>
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: attention operands computed inside the kernel}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<2x?x128xbf16, #tile.dims<2, S, 128>>, tensor<2x4x128xbf16, #tile.dims<2, 4, 128>>, tensor<2x4x128xbf16, #tile.dims<2, 4, 128>> -> tensor<2x?x128xbf16, #tile.dims<2, S, 128>>
  tile.return %o : tensor<2x?x128xbf16, #tile.dims<2, S, 128>>
}

// -----

tile.kernel @next_to_map(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                         %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                         %v: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>} : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  // expected-error@+1 {{convert-tile-to-cta: not implemented yet: 'tile.map' next to attention in one kernel}}
  %r = tile.map %o : tensor<?x?x128xbf16, #tile.dims<H, S, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {
  ^bb0(%x: bf16):
    tile.yield %x : bf16
  }
  tile.return %r : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}
