// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tile-select-schedule=chip=sm_100a | FileCheck %s

// tile-select-schedule on sm_100a (tcgen05 + tensor memory).

// sm_100a: an MMA warp and one epilogue warpgroup with 128-row MMAs per
// CTA; accumulators live in tensor memory, so no register budget applies,
// and no small-tile variant is made. A single dense product runs as CTA
// pairs: a 256x256 tile per 2x1 cluster, each CTA owning 128 rows and
// holding half of the rhs tile (32 KiB stages, so 6 fit), and two 256-column
// accumulator sets fill the 512 columns, so a tile's epilogue overlaps the
// next tile's MMAs.
// CHECK-LABEL: tile.kernel @defaults(
// CHECK:         {schedule = #tile.schedule<tile_m = 256, tile_n = 256, tile_k = 64, stages = 6, cluster_m = 2, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 2>}
// CHECK-NOT:     tile.kernel
tile.kernel @defaults(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+1 {{schedule for sm_100a: tile 256x256x64, 6 stages of 32 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; MMA warp + 1 epilogue warpgroup(s) x 128 rows (512 tensor-memory columns); cluster 2x1 (CTA pair: one 256-row MMA, each CTA holds half of the rhs tile); persistent, group_m 8, 2 accumulator sets (epilogue overlaps the next tile's MMAs)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A dual GEMM: two sets of two 128-column accumulators fill the 512
// tensor-memory columns (rather than one set of two 256-column ones, which
// would also leave room for only 2 stages).
// CHECK-LABEL: tile.kernel @dual(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 2>}
tile.kernel @dual(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+1 {{schedule for sm_100a: tile 128x128x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; MMA warp + 1 epilogue warpgroup(s) x 128 rows (512 tensor-memory columns); cluster 1x1; persistent, group_m 8, 2 accumulator sets}}
  %0 = tile.contract(%a, %b, %b1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// acc_stages = 1 pins one set: the widest tile that fits once, two
// 256-column accumulators (no acc_stages in the schedule: 1 is the default).
// CHECK-LABEL: tile.kernel @dual_one_set(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8>}
tile.kernel @dual_one_set(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<acc_stages = 1>} {
  // expected-remark@+1 {{schedule for sm_100a: tile 128x256x64, 2 stages of 80 KiB + 32 KiB epilogue staging = 192 KiB of 227 KiB shared memory; MMA warp + 1 epilogue warpgroup(s) x 128 rows (512 tensor-memory columns); cluster 1x1; persistent, group_m 8}}
  %0 = tile.contract(%a, %b, %b1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A pinned tile whose accumulators fit once gets one set.
// CHECK-LABEL: tile.kernel @dual_wide(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8>}
tile.kernel @dual_wide(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 256]>} {
  // expected-remark@+1 {{schedule for sm_100a: tile 128x256x64}}
  %0 = tile.contract(%a, %b, %b1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Two sets of a pinned tile that fits once are an error.
tile.kernel @dual_wide_two_sets(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 256], acc_stages = 2>} {
  // expected-error@+1 {{schedule for sm_100a: 2 accumulator sets of 512 columns need 1024 tensor-memory columns; 512 exist}}
  %0 = tile.contract(%a, %b, %b1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Three of 256 columns (a pinned tile) do not; by default three get 128
// columns each.
tile.kernel @tmem_default(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>, %b2: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+1 {{schedule for sm_100a: tile 128x128x64, 3 stages of 64 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; MMA warp + 1 epilogue warpgroup(s) x 128 rows (384 tensor-memory columns)}}
  %0 = tile.contract(%a, %b, %b1, %b2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 3, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32, %acc2: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @tmem(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>, %b2: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 256]>} {
  // expected-error@+1 {{schedule for sm_100a: accumulators need 768 tensor-memory columns; 512 exist}}
  %0 = tile.contract(%a, %b, %b1, %b2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 3, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32, %acc2: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @tile_m(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [64, 128]>} {
  // expected-error@+1 {{schedule for sm_100a: tile_m = 64 must be a multiple of 128 (1 consumer warpgroups x 128-row MMAs)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @consumers(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<consumers = 2>} {
  // expected-error@+1 {{schedule for sm_100a: each CTA's 128 rows of the CTA pair's tile_m = 256 must be a multiple of 256 (2 consumer warpgroups x 128-row MMAs)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A pinned 256-row tile is a CTA pair in a 2x1 cluster.
// CHECK-LABEL: tile.kernel @rows256(
// CHECK:         {schedule = #tile.schedule<tile_m = 256, tile_n = 128, tile_k = 64, stages = 8, cluster_m = 2, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 2>}
tile.kernel @rows256(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [256, 128, 64]>} {
  // expected-remark@+1 {{schedule for sm_100a: tile 256x128x64, 8 stages of 24 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; MMA warp + 1 epilogue warpgroup(s) x 128 rows (256 tensor-memory columns); cluster 2x1 (CTA pair: one 256-row MMA, each CTA holds half of the rhs tile)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A pinned 128-row tile is one CTA's: no pair, no cluster.
// CHECK-LABEL: tile.kernel @rows128(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 2>}
tile.kernel @rows128(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 256, 64]>} {
  // expected-remark@+1 {{cluster 1x1; persistent}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @pair_cluster(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [256, 256, 64], cluster = [1, 1]>} {
  // expected-error@+1 {{schedule for sm_100a: a CTA pair (tile_m = 256) runs in clusters of [2, 1], not [1, 1]}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @pair_tile_n(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [256, 48, 64]>} {
  // expected-error@+1 {{schedule for sm_100a: tile_n = 48 must be a multiple of 32 for a CTA pair (each CTA holds half of the rhs rows, a multiple of 16)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Block scales (NVFP4): tile_k is one 128-byte row of fp4 (256 elements);
// each stage also holds the scale-factor atoms (lhs 4, two rhs 4 each: 6 KiB)
// and copies them to 4 tensor-memory columns each, so a dual GEMM takes
// 128-column tiles: 256 accumulator columns + 3 stages x 48 = 400.
// CHECK-LABEL: tile.kernel @nvfp4_dual(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 256, stages = 3,
tile.kernel @nvfp4_dual(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
                        %b1: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b1s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>,
                        %b2: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b2s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  // expected-remark@+1 {{schedule for sm_100a: tile 128x128x256, 3 stages of 54 KiB + 32 KiB epilogue staging = 194 KiB of 227 KiB shared memory; MMA warp + 1 epilogue warpgroup(s) x 128 rows (400 tensor-memory columns)}}
  %0 = tile.contract(%a, %b1, %as, %b1s, %b2, %b2s : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>, #tile.mma<lhs = 0, rhs = 4, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 5, scale_block = 16>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%g: f32, %u: f32):
    %p = arith.mulf %g, %u : f32
    %t = arith.truncf %p : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

// A pinned 256-column dual GEMM leaves no columns for the scales.
tile.kernel @nvfp4_dual_wide(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
                             %b1: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b1s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>,
                             %b2: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b2s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 256]>} {
  // expected-error@+1 {{schedule for sm_100a: accumulators and 2 stages of block scales need 672 tensor-memory columns; 512 exist}}
  %0 = tile.contract(%a, %b1, %as, %b1s, %b2, %b2s : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>, #tile.mma<lhs = 0, rhs = 4, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 5, scale_block = 16>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%g: f32, %u: f32):
    %p = arith.mulf %g, %u : f32
    %t = arith.truncf %p : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

// NVFP4 dual GEMM: a second set of accumulators would not fit next to the
// scales.
tile.kernel @nvfp4_two_sets(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
                            %b1: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b1s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>,
                            %b2: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b2s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], acc_stages = 2>} {
  // expected-error@+1 {{schedule for sm_100a: 2 accumulator sets of 256 columns plus 144 columns of block scales need 656 tensor-memory columns; 512 exist}}
  %0 = tile.contract(%a, %b1, %as, %b1s, %b2, %b2s : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>, #tile.mma<lhs = 0, rhs = 4, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 5, scale_block = 16>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%g: f32, %u: f32):
    %p = arith.mulf %g, %u : f32
    %t = arith.truncf %p : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

tile.kernel @nvfp4_pair(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
                        %b1: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b1s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [256, 128]>} {
  // expected-error@+1 {{schedule for sm_100a: CTA pairs (tile_m = 256) with block-scaled operands are not implemented yet}}
  %0 = tile.contract(%a, %b1, %as, %b1s : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%g: f32):
    %t = arith.truncf %g : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

tile.kernel @three_sets(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 64], acc_stages = 3>} {
  // expected-error@+1 {{schedule for sm_100a: acc_stages = 3 must be 1 or 2}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Stream-K tails are not implemented for tensor-memory accumulators: the
// default leaves them off, a hint is an error.
tile.kernel @stream_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<stream_k = true>} {
  // expected-error@+1 {{schedule for sm_100a: stream_k is not implemented yet on sm_100a (partial tiles of tensor-memory accumulators)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// fp8 with f32 block scales (DeepSeek's 1x128) is scaled in software, which
// lowers on sm_90a: on sm_100a a located error, not a budget error, and not an
// MMA verifier's later.
tile.kernel @fp8_f32_scales(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>,
                            %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<N, cdiv(K, 128)>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-error@+1 {{schedule for sm_100a: not implemented yet: fp8 with f32 block scales on sm_100a (they lower on sm_90a, each K block's product scaled in registers; sm_100a's block-scaled MMA takes MXFP8: e4m3 with ue8m0 scales per 1x32)}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf32, #tile.dims<N, cdiv(K, 128)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Attention on sm_100a (AttentionSchedule.h): one softmax warpgroup of 128
// query rows (a tcgen05.mma's M), 128 keys per step, two score sets in
// tensor memory (2 x 128 + O 128 + P 64 = 448 columns).
// CHECK-LABEL: tile.kernel @attention(
// CHECK: tile.attention {{.*}} {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 1, acc_stages = 2>}
tile.kernel @attention(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                       %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                       %v: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  tile.return %o : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}

// -----

// Head dim 256: 64 keys per step (Q, two stages of K and V and the output
// staging fit shared memory; 128 keys would need 320 KiB), still two score
// sets (2 x 64 + O 256 + P 32 = 416 columns).
// CHECK-LABEL: tile.kernel @attention_d256(
// CHECK: tile.attention {{.*}} {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 256, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 1, acc_stages = 2>}
tile.kernel @attention_d256(%q: tensor<?x?x256xbf16, #tile.dims<H, S, 256>> {tile.param = #tile.param<"q", input>},
                            %k: tensor<?x?x256xbf16, #tile.dims<H, T, 256>> {tile.param = #tile.param<"k", input>},
                            %v: tensor<?x?x256xbf16, #tile.dims<H, T, 256>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x256xbf16, #tile.dims<H, S, 256>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x256xbf16, #tile.dims<H, S, 256>>, tensor<?x?x256xbf16, #tile.dims<H, T, 256>>, tensor<?x?x256xbf16, #tile.dims<H, T, 256>> -> tensor<?x?x256xbf16, #tile.dims<H, S, 256>>
  tile.return %o : tensor<?x?x256xbf16, #tile.dims<H, S, 256>>
}

// -----

// A grouped contraction is not paired (a pair's two CTAs would walk one
// group's tile together): 128x256 tiles, two accumulator sets.
// CHECK-LABEL: tile.kernel @grouped(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 2>}
tile.kernel @grouped(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xbf16, #tile.dims<T, N>> {
  // expected-remark@+1 {{schedule for sm_100a: tile 128x256x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; MMA warp + 1 epilogue warpgroup(s) x 128 rows (512 tensor-memory columns); cluster 1x1; persistent, group_m 8, 2 accumulator sets (epilogue overlaps the next tile's MMAs)}}
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

tile.kernel @grouped_pair(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xbf16, #tile.dims<T, N>> attributes {hints = #tile.hints<tile = [256, 256]>} {
  // expected-error@+1 {{schedule for sm_100a: tile_m = 256: a CTA pair is not implemented yet for a grouped (mixture-of-experts) contraction (use 128)}}
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

// An rhs stored [K, N] is read MN-major, which a CTA pair's MMA does not
// take: the plain product runs on 128-row CTA tiles.
// CHECK-LABEL: tile.kernel @kn(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 2>}
tile.kernel @kn(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<K, N>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+1 {{schedule for sm_100a: tile 128x256x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; MMA warp + 1 epilogue warpgroup(s) x 128 rows (512 tensor-memory columns); cluster 1x1; persistent, group_m 8, 2 accumulator sets (epilogue overlaps the next tile's MMAs)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<K, N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = false>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @kn_pair(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<K, N>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [256, 256]>} {
  // expected-error@+1 {{schedule for sm_100a: tile_m = 256: a CTA pair's MMA reads its rhs K-major, but an rhs is stored [K, N] (use 128, or store it [N, K] and write b^T)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<K, N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = false>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A batched contraction walks its tiles one entry after another, which CTA
// pairs do not take yet.
tile.kernel @batched_pair(%a: tensor<?x?x?xbf16, #tile.dims<B, M, K>>, %b: tensor<?x?x?xbf16, #tile.dims<B, N, K>>) -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> attributes {hints = #tile.hints<tile = [256, 256]>} {
  // expected-error@+1 {{schedule for sm_100a: tile_m = 256: a CTA pair is not implemented yet for a batched contraction (use 128)}}
  %0 = tile.contract(%a, %b : tensor<?x?x?xbf16, #tile.dims<B, M, K>>, tensor<?x?x?xbf16, #tile.dims<B, N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?x?xbf16, #tile.dims<B, M, N>>
}

// -----

// Ping-pong is sm_90a's way to overlap the epilogue; sm_100a has the MMA
// warp and accumulator sets.
tile.kernel @pingpong_sm100(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], pingpong = true>} {
  // expected-error@+1 {{schedule for sm_100a: pingpong is an sm_90a schedule: on sm_100a the MMA warp and two accumulator sets already overlap a tile's epilogue with the next tile's MMAs (acc_stages = 2)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Nor split-K tails.
tile.kernel @split_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<split_k = true>} {
  // expected-error@+1 {{schedule for sm_100a: split_k is not implemented yet on sm_100a (partial tiles of tensor-memory accumulators)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}
