// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tile-select-schedule=chip=sm_100a | FileCheck %s

// tile-select-schedule on sm_100a (tcgen05 + tensor memory).

// sm_100a: one math warpgroup with 128-row MMAs and no cluster by default;
// accumulators live in tensor memory, so no register budget applies, and no
// small-tile variant is made.
// CHECK-LABEL: tile.kernel @defaults(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8>}
// CHECK-NOT:     tile.kernel
tile.kernel @defaults(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+1 {{schedule for sm_100a: tile 128x256x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 1 math warpgroup(s) x 128 rows (256 tensor-memory columns); cluster 1x1; persistent, group_m 8}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Two 256-column accumulators fit the 512 tensor-memory columns.
// CHECK-LABEL: tile.kernel @dual(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 1,
tile.kernel @dual(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+1 {{schedule for sm_100a: tile 128x256x64, 2 stages of 80 KiB + 32 KiB epilogue staging = 192 KiB of 227 KiB shared memory; 1 math warpgroup(s) x 128 rows}}
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
  // expected-remark@+1 {{schedule for sm_100a: tile 128x128x64, 3 stages of 64 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 1 math warpgroup(s) x 128 rows (384 tensor-memory columns)}}
  %0 = tile.contract(%a, %b, %b1, %b2 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 3, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32, %acc2: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @tmem(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>, %b2: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {tile.schedule = {tile = array<i64: 128, 256>}} {
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

tile.kernel @tile_m(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {tile.schedule = {tile = array<i64: 64, 128>}} {
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

tile.kernel @consumers(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {tile.schedule = {consumers = 2}} {
  // expected-error@+1 {{schedule for sm_100a: tile_m = 128 must be a multiple of 256 (2 consumer warpgroups x 128-row MMAs)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// One CTA's tcgen05 MMA covers 128 rows; a 256-row tile would need a CTA pair.
tile.kernel @rows256(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {tile.schedule = {tile = array<i64: 256, 128, 64>}} {
  // expected-error@+1 {{schedule for sm_100a: tile_m = 256 must be 128 (one CTA's tcgen05 MMA; CTA pairs are not supported)}}
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
  // expected-remark@+1 {{schedule for sm_100a: tile 128x128x256, 3 stages of 54 KiB + 32 KiB epilogue staging = 194 KiB of 227 KiB shared memory; 1 math warpgroup(s) x 128 rows (400 tensor-memory columns)}}
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
                             %b2: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %b2s: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> attributes {tile.schedule = {tile = array<i64: 128, 256>}} {
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

// Stream-K tails are not implemented for tensor-memory accumulators: the
// default leaves them off, a hint is an error.
tile.kernel @stream_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {tile.schedule = {stream_k = true}} {
  // expected-error@+1 {{schedule for sm_100a: stream_k is not implemented yet on sm_100a (partial tiles of tensor-memory accumulators)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}
