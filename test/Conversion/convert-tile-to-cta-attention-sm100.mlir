// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-tile-to-cta=chip=sm_100a | FileCheck %s

// convert-tile-to-cta on attention kernels for sm_100a (AttentionToCta.cpp,
// buildTensorMemoryRoles): the scores, O and P live in tensor memory. Three
// roles: the softmax warpgroup first (its warps read the four lane
// quarters), a producer warp loading Q, K and V as on sm_90a, and the MMA
// warp. The MMA warp issues S = Q Kᵀ of each block into the next of two
// score sets (acc_acquire / acc_commit) and, from the second block on,
// O += P V of the block before with P read from tensor memory once the
// softmax warpgroup has committed it (a ring of one stage, released by the
// MMA warp's commit); O accumulates from the unit's second P V on. The
// softmax warpgroup reads each block's scores (acc_wait), computes the
// online softmax one row per thread, frees the score set, waits for the P
// stage (the previous P V has completed), writes P and rescales O (from the
// second block on) in place, and commits the stage; after the last block it
// waits for the stage once more (O is final), divides O by the row sums in
// place and stores it.

// CHECK-LABEL: cta.program @attention(
// CHECK-SAME:    block = array<i64: 192, 1, 1>, chip = #cta.chip<sm_100a>
// CHECK-SAME:    schedule = #cta.schedule<stages = 2, math_warpgroups = 1, acc_stages = 2>
// CHECK:         %[[SQ:.*]] = cta.alloc : <128x128xbf16, stages = 2>
// CHECK:         %[[SK:.*]] = cta.alloc : <128x128xbf16, stages = 2>
// CHECK:         %[[SV:.*]] = cta.alloc : <128x128xbf16, stages = 2>
// CHECK:         %[[SO:.*]] = cta.alloc : <128x128xbf16>
// CHECK:         %[[QR:.*]] = cta.ring {consumers = 1 : i64} : <2>
// CHECK:         %[[KR:.*]] = cta.ring {consumers = 1 : i64} : <2>
// CHECK:         %[[VR:.*]] = cta.ring {consumers = 1 : i64} : <2>
// CHECK:         %[[SR:.*]] = cta.acc_ring {consumers = 1 : i64} : <2, [<128x128xf32>]>
// CHECK:         %[[PR:.*]] = cta.ring {consumers = 1 : i64} : <1>
// CHECK:         %[[O:.*]] = cta.tmem_alloc : <128x128xf32>
// CHECK:         %[[P:.*]] = cta.tmem_alloc : <128x128xbf16>
// CHECK:         cta.warp_specialize
// The softmax warpgroup.
// CHECK:           #cta.role<epilogue, warps = 4> {
// CHECK:           cta.tile_loop batched {{.*}} tile [1, 1, 128, 128] band({{.*}}) iter_args
// CHECK:             %[[M0:.*]] = cta.splat %{{.*}} : f32 -> <128xf32, rows>
// The blocks no mask touches, then the rest.
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %[[UNMASKED:.*]] step
// CHECK:               %[[POS:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK:               %[[S:.*]] = cta.acc_wait %[[SR]] at %[[POS]] filled %{{.*}} -> !cta.acc<128x128xf32>
// CHECK:               %[[SF:.*]] = cta.frag_map %[[S]] : !cta.acc<128x128xf32> -> !cta.frag<128x128xf32, acc>
// CHECK:               cta.reduce_rows max %[[SF]]
// CHECK:               %[[PF:.*]] = cta.frag_map %[[SF]], %{{.*}} : !cta.frag<128x128xf32, acc>, !cta.frag<128xf32, rows> -> !cta.frag<128x128xf32, acc>
// CHECK:                 math.exp2
// CHECK:               %[[ALPHA:.*]] = cta.frag_map %{{.*}}, %{{.*}} : !cta.frag<128xf32, rows>, !cta.frag<128xf32, rows> -> !cta.frag<128xf32, rows>
// CHECK:               cta.reduce_rows sum %[[PF]]
// CHECK:               cta.acc_release %[[SR]] at %[[POS]]
// CHECK-NEXT:          cta.stage_acquire %[[PR]] at %[[POS]] : <1>
// CHECK-NEXT:          cta.tmem_store %[[PF]] -> %[[P]] : <128x128xf32, acc>, <128x128xbf16>
// CHECK-NEXT:          %[[LATER:.*]] = arith.cmpi ugt, %[[J]], %{{.*}} : index
// CHECK-NEXT:          scf.if %[[LATER]] {
// CHECK-NEXT:            cta.tmem_update %[[O]] inputs(%[[ALPHA]] : !cta.frag<128xf32, rows>) : <128x128xf32> {
// CHECK:                   arith.mulf
// CHECK:               cta.stage_commit %[[PR]] at %[[POS]] : <1>
// CHECK:             scf.for %{{.*}} = %[[UNMASKED]] to
// The causal bound per row: key < min(T, query + 1), the row being the
// thread's.
// CHECK:               cta.frag_map %{{.*}} : !cta.acc<128x128xf32> -> !cta.frag<128x128xf32, acc> {
// CHECK:                 arith.minui
// CHECK:                 arith.cmpi ult
// CHECK:                 arith.select
// CHECK:               cta.stage_commit %[[PR]]
// After the loops: the last P V has completed, O times 1 / l in place
// (one division per row), stored.
// CHECK:             %[[END:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        cta.stage_acquire %[[PR]] at %[[END]] : <1>
// CHECK:             %[[INV:.*]] = cta.frag_map %{{.*}} : !cta.frag<128xf32, rows> -> !cta.frag<128xf32, rows> {
// CHECK:               arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:             cta.tmem_update %[[O]] inputs(%[[INV]] : !cta.frag<128xf32, rows>) : <128x128xf32> {
// CHECK:               arith.select
// CHECK-NEXT:          arith.mulf
// CHECK:             %[[OACC:.*]] = cta.tmem_acc %[[O]] : <128x128xf32> -> <128x128xf32>
// CHECK-NEXT:        cta.store %[[OACC]] -> %{{.*}} staging %[[SO]] : !cta.acc<128x128xf32>
// CHECK:             cta.yield %{{.*}}, %[[END]] : index, index
// CHECK:           } {longest_first, persistent}
// The producer warp.
// CHECK:           #cta.role<producer, warps = 1> {
// CHECK:             cta.produce %[[QR]]
// CHECK:             cta.produce %[[KR]]
// CHECK:             cta.produce %[[VR]]
// The MMA warp.
// CHECK:           #cta.role<mma, warps = 1> {
// CHECK:             %[[QS:.*]] = cta.stage_wait %[[QR]] at
// CHECK:             scf.if
// CHECK:               %[[KS0:.*]] = cta.stage_wait %[[KR]] at %[[KV:[^ ]*]] : <2>
// CHECK-NEXT:          %[[Z0:.*]] = cta.acc_acquire %[[SR]] at %[[KV]]
// CHECK:               %[[S0:.*]] = cta.mma %[[SQ]][%[[QS]]], %[[SK]][%[[KS0]]], %[[Z0]] accumulate %false {transpose_b}
// CHECK-NEXT:          cta.acc_commit %[[SR]] at %[[KV]], %[[S0]]
// CHECK-NEXT:          cta.stage_release %[[KR]] at %[[KV]] : <2>
// CHECK:               scf.for %[[MJ:.*]] = %c1 to
// CHECK:                 cta.mma %[[SQ]][%[[QS]]], %[[SK]]
// CHECK:                 %[[PREV:.*]] = arith.subi
// CHECK-NEXT:            %[[FLAG:.*]] = arith.cmpi ugt, %[[MJ]], %c1 : index
// CHECK-NEXT:            cta.stage_wait %[[PR]] at %[[PREV]] : <1>
// CHECK-NEXT:            %[[VS:.*]] = cta.stage_wait %[[VR]] at %[[PREV]] : <2>
// CHECK-NEXT:            %[[OA:.*]] = cta.tmem_acc %[[O]]
// CHECK-NEXT:            cta.mma %[[P]], %[[SV]][%[[VS]]], %[[OA]] accumulate %[[FLAG]] : !cta.tmem<128x128xbf16>, <128x128xbf16, stages = 2>, <128x128xf32>
// CHECK-NEXT:            cta.stage_release %[[VR]] at %[[PREV]] : <2>
// CHECK-NEXT:            cta.stage_release %[[PR]] at %[[PREV]] : <1>
// The last block's P V.
// CHECK:               cta.mma %[[P]], %[[SV]]
// CHECK:             cta.stage_release %[[QR]] at
tile.kernel @attention(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> {tile.param = #tile.param<"q", input>},
                       %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> {tile.param = #tile.param<"k", input>},
                       %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 1, acc_stages = 2>} : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> score {
  ^bb0(%s: f32, %i: index, %j: index):
    %c = arith.constant 0.0883883461 : f32
    %x = arith.mulf %s, %c : f32
    tile.yield %x : f32
  }
  tile.return %o : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
}

// -----

// A log-sum-exp output: each thread's row of m * scale + ln(l) after the
// store, as on sm_90a.
// CHECK-LABEL: cta.program @attention_lse(
// CHECK:         #cta.role<epilogue, warps = 4> {
// CHECK:           cta.store
// CHECK:           math.log
// CHECK:           cta.store_rows %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] : !cta.frag<128xf32, rows> -> memref<?x?xf32, strided<[?, 1]>>
tile.kernel @attention_lse(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                           %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                           %v: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>},
        tensor<?x?xf32, #tile.dims<H, S>> {tile.param = #tile.param<"lse", output>}) {
  %o, %lse = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 1, acc_stages = 2>} : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, lse tensor<?x?xf32, #tile.dims<H, S>> score {
  ^bb0(%s: f32, %i: index, %j: index):
    %c = arith.constant 0.0883883461 : f32
    %x = arith.mulf %s, %c : f32
    tile.yield %x : f32
  }
  tile.return %o, %lse : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?xf32, #tile.dims<H, S>>
}
