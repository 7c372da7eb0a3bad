// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tile-select-schedule | FileCheck %s
// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tile-select-schedule=chip=sm_90a | FileCheck %s
// RUN: not kiln-opt %s --tile-select-schedule=chip=sm_80 2>&1 | FileCheck %s --check-prefix=CHIP

// CHIP: error: unknown chip 'sm_80'; expected sm_90a or sm_100a

// tile-select-schedule on sm_90a: defaults, the small-tile variant, hints
// from tile.schedule, the remark that explains each choice, and one error per
// budget or shape rule a hint can break.

// Defaults: a 128x256x64 tile (one 128-byte swizzle row of bf16 per K step),
// as many stages as fit (at most 8), two math warpgroups, a 2x1 cluster
// multicasting the rhs tile, persistent with group_m 8. An unpinned kernel
// also gets a 128x64 and a 128x128 variant without a cluster, a 128x128
// ping-pong variant on the default's clusters and 64x64 and 64x32 ping-pong
// variants without a cluster, two swizzle rows per K step (decode shapes);
// each carries its tile cost.
// CHECK-LABEL: tile.kernel @matmul(
// CHECK-SAME:    attributes {tile_cost = 3.276800e+04 : f64}
// CHECK:         tile.contract({{.*}}) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-LABEL: tile.kernel @matmul_128x64(
// CHECK-SAME:    attributes {tile_cost = 12226.{{[0-9]+}} : f64, variant_of = @matmul}
// CHECK:         tile.contract({{.*}}) [{{.*}}] {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 64, stages = 8, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-LABEL: tile.kernel @matmul_128x128(
// CHECK-SAME:    attributes {tile_cost = 18204.{{[0-9]+}} : f64, variant_of = @matmul}
// CHECK:         tile.contract({{.*}}) [{{.*}}] {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 6, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-LABEL: tile.kernel @matmul_128x128pp(
// CHECK-SAME:    attributes {tail_cost = 1261.{{[0-9]+}} : f64, tile_cost = 16943.{{[0-9]+}} : f64, variant_of = @matmul}
// CHECK:         tile.contract({{.*}}) [{{.*}}] {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 5, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8, pingpong = true>}
// CHECK-LABEL: tile.kernel @matmul_128x224(
// CHECK-SAME:    attributes {tile_cost = 29558.{{[0-9]+}} : f64, variant_of = @matmul}
// CHECK:         tile.contract({{.*}}) [{{.*}}] {schedule = #tile.schedule<tile_m = 128, tile_n = 224, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-LABEL: tile.kernel @matmul_128x192(
// CHECK-SAME:    attributes {tile_cost = 28576.{{[0-9]+}} : f64, variant_of = @matmul}
// CHECK:         tile.contract({{.*}}) [{{.*}}] {schedule = #tile.schedule<tile_m = 128, tile_n = 192, tile_k = 64, stages = 5, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-LABEL: tile.kernel @matmul_64x64pp(
// CHECK-SAME:    attributes {tile_cost = 6113.{{[0-9]+}} : f64, variant_of = @matmul}
// CHECK:         tile.contract({{.*}}) [{{.*}}] {schedule = #tile.schedule<tile_m = 64, tile_n = 64, tile_k = 128, stages = 6, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8, pingpong = true>}
// CHECK-LABEL: tile.kernel @matmul_64x32pp(
// CHECK-SAME:    attributes {tile_cost = 3056.{{[0-9]+}} : f64, variant_of = @matmul}
// CHECK:         tile.contract({{.*}}) [{{.*}}] {schedule = #tile.schedule<tile_m = 64, tile_n = 32, tile_k = 128, stages = 8, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8, pingpong = true>}
// CHECK-NOT:     tile.kernel
tile.kernel @matmul(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+8 {{schedule for sm_90a: tile 128x256x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (128 accumulator registers/thread); cluster 2x1 (rhs tile multicast); persistent, group_m 8}}
  // expected-remark@+7 {{schedule for sm_90a: tile 128x64x64, 8 stages of 24 KiB + 16 KiB epilogue staging = 208 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (32 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  // expected-remark@+6 {{schedule for sm_90a: tile 128x128x64, 6 stages of 32 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  // expected-remark@+5 {{schedule for sm_90a: tile 128x128x64, 5 stages of 32 KiB + 64 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 128 rows (128 accumulator registers/thread); cluster 2x1 (rhs tile multicast); persistent, group_m 8, ping-pong (each math warpgroup owns a tile; one's epilogue overlaps the other's MMAs)}}
  // expected-remark@+4 {{schedule for sm_90a: tile 64x64x128, 6 stages of 32 KiB + 16 KiB epilogue staging = 208 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (32 accumulator registers/thread); cluster 1x1; persistent, group_m 8, ping-pong (each math warpgroup owns a tile; one's epilogue overlaps the other's MMAs)}}
  // expected-remark@+3 {{schedule for sm_90a: tile 64x32x128, 8 stages of 24 KiB + 8 KiB epilogue staging = 200 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (16 accumulator registers/thread); cluster 1x1; persistent, group_m 8, ping-pong (each math warpgroup owns a tile; one's epilogue overlaps the other's MMAs)}}
  // expected-remark@+2 {{tile 128x224x64, 4 stages of 44 KiB + 28 KiB epilogue staging}}
  // expected-remark@+1 {{tile 128x192x64, 5 stages of 40 KiB + 24 KiB epilogue staging}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Every hint is applied; a pinned tile means no variant.
// CHECK-LABEL: tile.kernel @pinned(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 3, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = false, group_m = 4>}
// CHECK-NOT:     tile.variant_of
tile.kernel @pinned(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128, 64], stages = 3, cluster = [1], persistent = false, group_m = 4>} {
  // expected-remark@+1 {{schedule for sm_90a: tile 128x128x64, 3 stages of 32 KiB + 32 KiB epilogue staging = 128 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 1x1; one CTA per tile, group_m 4}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A two-element tile keeps the default K step; an f32 output stages 64
// columns (two 128-byte blocks) per consumer.
// CHECK-LABEL: tile.kernel @f32_output(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 6, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
tile.kernel @f32_output(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xf32, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128]>} {
  // expected-remark@+1 {{schedule for sm_90a: tile 128x128x64, 6 stages of 32 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 2x1 (rhs tile multicast); persistent, group_m 8}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    tile.yield %acc0 : f32
  }
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// 8-bit operands take 128 elements per K step.
// CHECK-LABEL: tile.kernel @fp8(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 128, stages = 4,
// CHECK-LABEL: tile.kernel @fp8_128x64(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 128, stages = 8,
tile.kernel @fp8(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+8 {{schedule for sm_90a: tile 128x256x128, 4 stages of 48 KiB + 32 KiB epilogue staging}}
  // expected-remark@+7 {{schedule for sm_90a: tile 128x64x128, 8 stages of 24 KiB + 16 KiB epilogue staging}}
  // expected-remark@+6 {{schedule for sm_90a: tile 128x128x128, 6 stages of 32 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  // expected-remark@+5 {{tile 128x128x128, 5 stages of 32 KiB + 64 KiB epilogue staging}}
  // expected-remark@+4 {{tile 64x64x256, 6 stages}}
  // expected-remark@+3 {{tile 64x32x256, 8 stages}}
  // expected-remark@+2 {{tile 128x224x128, 4 stages of 44 KiB + 28 KiB epilogue staging}}
  // expected-remark@+1 {{tile 128x192x128, 5 stages of 40 KiB + 24 KiB epilogue staging}}
  %0 = tile.contract(%a, %b : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// 32-bit operands take 32 elements per K step.
// CHECK-LABEL: tile.kernel @f32_operands(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 32, stages = 4,
tile.kernel @f32_operands(%a: tensor<?x?xf32, #tile.dims<M, K>>, %b: tensor<?x?xf32, #tile.dims<N, K>>) -> tensor<?x?xf32, #tile.dims<M, N>> {
  // expected-remark@+7 {{schedule for sm_90a: tile 128x256x32, 4 stages of 48 KiB + 32 KiB epilogue staging}}
  // expected-remark@+6 {{schedule for sm_90a: tile 128x64x32, 8 stages of 24 KiB + 32 KiB epilogue staging}}
  // expected-remark@+5 {{schedule for sm_90a: tile 128x128x32, 6 stages of 32 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  // expected-remark@+4 {{tile 128x128x32, 5 stages of 32 KiB + 64 KiB epilogue staging}}
  // expected-remark@+3 {{tile 64x64x64, 6 stages}}
  // expected-remark@+2 {{tile 64x32x64, 8 stages}}
  // expected-remark@+1 {{tile 128x192x32, 4 stages of 40 KiB + 32 KiB epilogue staging}}
  %0 = tile.contract(%a, %b : tensor<?x?xf32, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    tile.yield %acc0 : f32
  }
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// A cluster hint survives in the variant.
// CHECK-LABEL: tile.kernel @cluster4(
// CHECK:         cluster_m = 4, cluster_n = 1
// CHECK-LABEL: tile.kernel @cluster4_128x64(
// CHECK:         tile_n = 64, {{.*}}cluster_m = 4, cluster_n = 1
tile.kernel @cluster4(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<cluster = [4]>} {
  // expected-remark@+8 {{tile 128x256x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (128 accumulator registers/thread); cluster 4x1 (rhs tile multicast); persistent, group_m 8}}
  // expected-remark@+7 {{tile 128x64x64, 8 stages of 24 KiB + 16 KiB epilogue staging = 208 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (32 accumulator registers/thread); cluster 4x1 (rhs tile multicast); persistent, group_m 8}}
  // expected-remark@+6 {{schedule for sm_90a: tile 128x128x64, 6 stages of 32 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 4x1 (rhs tile multicast); persistent, group_m 8}}
  // expected-remark@+5 {{tile 128x128x64, 5 stages of 32 KiB + 64 KiB epilogue staging}}
  // expected-remark@+4 {{tile 64x64x128, 6 stages}}
  // expected-remark@+3 {{tile 64x32x128, 8 stages}}
  // expected-remark@+2 {{tile 128x224x64, 4 stages of 44 KiB + 28 KiB epilogue staging}}
  // expected-remark@+1 {{tile 128x192x64, 5 stages of 40 KiB + 24 KiB epilogue staging}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Two accumulators sharing the lhs (a dual GEMM) each hold tile_n columns.
// A kernel with several contractions gets no variant.
// CHECK-LABEL: tile.kernel @dual(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4,
tile.kernel @dual(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128]>} {
  // expected-remark@+1 {{schedule for sm_90a: tile 128x128x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (128 accumulator registers/thread)}}
  %0 = tile.contract(%a, %b, %b1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A contraction that already has a schedule is left alone (no remark, no
// variant) once it is known to lower on the chip.
// CHECK-LABEL: tile.kernel @scheduled(
// CHECK-NOT:     tile.tile_cost
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 64, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = false, group_m = 1>}
// CHECK-NOT:     tile.kernel
tile.kernel @scheduled(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 64, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = false, group_m = 1>} -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A variant's name never collides with a kernel the user wrote: the next
// free suffix is taken.
// CHECK-LABEL: tile.kernel @m_128x64(
// CHECK-NOT:     tile.variant_of
// CHECK-LABEL: tile.kernel @m(
// CHECK-LABEL: tile.kernel @m_128x64_1(
// CHECK-SAME:    variant_of = @m
tile.kernel @m_128x64(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128]>} {
  // expected-remark@+1 {{schedule for sm_90a: tile 128x128x64, 6 stages}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}
tile.kernel @m(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+8 {{schedule for sm_90a: tile 128x256x64, 4 stages}}
  // expected-remark@+7 {{schedule for sm_90a: tile 128x64x64, 8 stages}}
  // expected-remark@+6 {{schedule for sm_90a: tile 128x128x64, 6 stages of 32 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  // expected-remark@+5 {{tile 128x128x64, 5 stages of 32 KiB + 64 KiB epilogue staging}}
  // expected-remark@+4 {{tile 64x64x128, 6 stages}}
  // expected-remark@+3 {{tile 64x32x128, 8 stages}}
  // expected-remark@+2 {{tile 128x224x64, 4 stages of 44 KiB + 28 KiB epilogue staging}}
  // expected-remark@+1 {{tile 128x192x64, 5 stages of 40 KiB + 24 KiB epilogue staging}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Hints that break a shape rule or a budget are errors on the contraction
// that say which rule, with the numbers.
tile.kernel @consumers_3(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<consumers = 3>} {
  // expected-error@+1 {{schedule for sm_90a: consumers must be 1 or 2, got 3}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @consumers_1(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<consumers = 1>} {
  // expected-error@+1 {{schedule for sm_90a: consumers = 1 is not supported on sm_90a yet (use 2 math warpgroups)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @tile_m(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [96, 128]>} {
  // expected-error@+1 {{schedule for sm_90a: tile_m = 96 must be a multiple of 128 (2 consumer warpgroups x 64-row MMAs)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @tile_n_large(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 320]>} {
  // expected-error@+1 {{schedule for sm_90a: tile_n = 320 must be a multiple of 16 no larger than 256 (the MMA's N limit)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @tile_n_odd(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 72]>} {
  // expected-error@+1 {{schedule for sm_90a: tile_n = 72 must be a multiple of 16 no larger than 256 (the MMA's N limit)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A tile wider than the staging block of its output type must be a whole
// number of blocks: 96 columns of f32 do not stream through 64-column blocks
// (96 columns of bf16 fit one 96-column block).
tile.kernel @tile_n_staging(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xf32, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 96]>} {
  // expected-error@+1 {{schedule for sm_90a: tile_n = 96 does not stream through the epilogue's staging blocks of 64 columns of 32-bit outputs (use a multiple of 64, at most 64)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    tile.yield %acc0 : f32
  }
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// 96 columns of bf16: one 96-column staging block (32B swizzle, chosen later).
// CHECK-LABEL: tile.kernel @tile_n_96(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 96, tile_k = 64,
tile.kernel @tile_n_96(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 96]>} {
  // expected-remark@+1 {{schedule for sm_90a: tile 128x96x64, 7 stages of 28 KiB + 24 KiB epilogue staging}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @tile_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128, 48]>} {
  // expected-error@+1 {{schedule for sm_90a: tile_k = 48 must be a multiple of 64 (one 128-byte swizzle row of 16-bit elements)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @tile_k_fp8(%a: tensor<?x?xf8E5M2, #tile.dims<M, K>>, %b: tensor<?x?xf8E5M2, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128, 64]>} {
  // expected-error@+1 {{schedule for sm_90a: tile_k = 64 must be a multiple of 128 (one 128-byte swizzle row of 8-bit elements)}}
  %0 = tile.contract(%a, %b : tensor<?x?xf8E5M2, #tile.dims<M, K>>, tensor<?x?xf8E5M2, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @cluster_n(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<cluster = [1, 2]>} {
  // expected-error@+1 {{schedule for sm_90a: cluster = [1, 2] is not supported: CTAs of a cluster must share tile columns (use [n, 1])}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @cluster_3(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<cluster = [3, 1]>} {
  // expected-error@+1 {{schedule for sm_90a: cluster = [3, 1]: the cluster size must be 1, 2 or 4}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @registers(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [256, 256]>} {
  // expected-error@+1 {{schedule for sm_90a: a 128x256 accumulator per warpgroup needs 256 registers per thread; at most 168 fit}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @stages_8(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<stages = 8>} {
  // expected-error@+1 {{schedule for sm_90a: 8 stages of 48 KiB plus 32 KiB of epilogue staging need 417 KiB; 227 KiB exist, so 4 stages fit (a pipeline needs 2 to 8)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @stages_1(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<stages = 1>} {
  // expected-error@+1 {{schedule for sm_90a: stages = 1: a pipeline needs 2 to 8 stages}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @stages_6(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<stages = 6>} {
  // expected-error@+1 {{schedule for sm_90a: 6 stages of 48 KiB plus 32 KiB of epilogue staging need 321 KiB; 227 KiB exist, so 4 stages fit (a pipeline needs 2 to 8)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @stages_9(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 64], stages = 9>} {
  // expected-error@+1 {{schedule for sm_90a: stages = 9: a pipeline needs 2 to 8 stages}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @deep_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 256, 256]>} {
  // expected-error@+1 {{schedule for sm_90a: 1 stages of 192 KiB plus 32 KiB of epilogue staging need 225 KiB; 227 KiB exist, so 1 stages fit (a pipeline needs 2 to 8)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Two accumulators: by default the widest tile whose accumulators fit the
// registers, 128x128 (two 64x128 accumulators per warpgroup, as one 64x256
// costs), plus the 128x64 variant, the 7/8-wide 128x112 one (for shapes
// whose 128x128 tiles fill just over a whole number of waves) and the 64x64
// and 64x32 ping-pong ones (decode shapes).
// The widest tile also gets a stream-K tail, the variants do not.
// CHECK-LABEL: tile.kernel @dual_default(
// CHECK-SAME:    tile_cost = 3.2768{{0*}}e+04 : f64
// CHECK:         tile_m = 128, tile_n = 128, {{.*}}, group_m = 8, stream_k = true>}
// CHECK-LABEL: tile.kernel @dual_default_128x64(
// CHECK-SAME:    variant_of = @dual_default
// CHECK:         tile_m = 128, tile_n = 64, tile_k = 64, stages = 6, cluster_m = 1, {{.*}}, group_m = 8>}
// CHECK-LABEL: tile.kernel @dual_default_128x112(
// CHECK-SAME:    tile_cost = 31857.{{[0-9]+}} : f64, variant_of = @dual_default
// CHECK:         tile_m = 128, tile_n = 112, tile_k = 64, stages = 4, cluster_m = 2, {{.*}}, group_m = 8>}
// CHECK-LABEL: tile.kernel @dual_default_64x64pp(
// CHECK:         tile_m = 64, tile_n = 64, tile_k = 128, stages = 4, cluster_m = 1, {{.*}}, pingpong = true>}
// CHECK-LABEL: tile.kernel @dual_default_64x32pp(
// CHECK:         tile_m = 64, tile_n = 32, tile_k = 128, stages = 6, cluster_m = 1, {{.*}}, pingpong = true>}
tile.kernel @dual_default(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+5 {{schedule for sm_90a: tile 128x128x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (128 accumulator registers/thread); cluster 2x1 (rhs tile multicast); persistent, group_m 8, stream-K tail}}
  // expected-remark@+4 {{schedule for sm_90a: tile 128x112x64, 4 stages of 44 KiB + 28 KiB epilogue staging = 204 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (112 accumulator registers/thread); cluster 2x1 (rhs tile multicast); persistent, group_m 8}}
  // expected-remark@+3 {{schedule for sm_90a: tile 128x64x64, 6 stages of 32 KiB + 16 KiB epilogue staging = 208 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  // expected-remark@+2 {{schedule for sm_90a: tile 64x64x128, 4 stages of 48 KiB + 16 KiB epilogue staging = 208 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 1x1; persistent, group_m 8, ping-pong (each math warpgroup owns a tile; one's epilogue overlaps the other's MMAs)}}
  // expected-remark@+1 {{schedule for sm_90a: tile 64x32x128, 6 stages of 32 KiB + 8 KiB epilogue staging = 200 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (32 accumulator registers/thread); cluster 1x1; persistent, group_m 8, ping-pong (each math warpgroup owns a tile; one's epilogue overlaps the other's MMAs)}}
  %0 = tile.contract(%a, %b, %b1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Two accumulators of 256 columns (a pinned tile) need twice the registers.
tile.kernel @dual_registers(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 256]>} {
  // expected-error@+1 {{schedule for sm_90a: a 64x256 accumulator x2 per warpgroup needs 256 registers per thread; at most 168 fit}}
  %0 = tile.contract(%a, %b, %b1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Outputs of two element types each get an epilogue staging buffer.
tile.kernel @two_output_types(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> (tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>) attributes {hints = #tile.hints<tile = [128, 128], cluster = [1, 1]>} {
  // expected-remark@+1 {{schedule for sm_90a: tile 128x128x64, 5 stages of 32 KiB + 64 KiB epilogue staging = 224 KiB of 227 KiB shared memory}}
  %0:2 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t, %acc0 : bf16, f32
  }
  tile.return %0#0, %0#1 : tensor<?x?xbf16, #tile.dims<M, N>>, tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// Hopper has no block-scaled MMA.
tile.kernel @nvfp4(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
                   %b: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %bs: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  // expected-error@+1 {{schedule for sm_90a: block-scaled products (NVFP4, MXFP8) need sm_100a's tcgen05 block-scaled MMA; sm_90a has none}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

// The widest tile of a dual GEMM splits a small last wave's K steps
// (stream-K) unless the kernel says stream_k = false; a walk of one CTA per
// tile cannot.
// CHECK-LABEL: tile.kernel @no_stream_k(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
tile.kernel @no_stream_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %b1: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], stream_k = false>} {
  // expected-remark@+1 {{cluster 2x1 (rhs tile multicast); persistent, group_m 8}}
  %0 = tile.contract(%a, %b, %b1 : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>, #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32, %acc1: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @stream_k_one_cta_per_tile(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], persistent = false, stream_k = true>} {
  // expected-error@+1 {{schedule for sm_90a: stream_k needs a persistent schedule: the clusters that share a tile must run at the same time}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Accumulator sets are a tensor-memory (sm_100a) schedule.
tile.kernel @acc_stages_sm90(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], acc_stages = 2>} {
  // expected-error@+1 {{schedule for sm_90a: acc_stages = 2 needs tensor-memory accumulators (sm_100a); sm_90a keeps accumulators in registers}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// fp8 with f32 block scales (DeepSeek's 1x128 activations, 128x128 weight
// blocks) is scaled in software on sm_90a: one K step per scale block (tile_k
// 128), tiles no wider than a weight block (128, which divides it), twice the
// accumulator registers (each K step's product beside the running sum), no
// scale atoms in shared memory.
// CHECK-LABEL: tile.kernel @fp8_blockwise(
// CHECK:         schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 6, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>
tile.kernel @fp8_blockwise(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>,
                           %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+3 {{schedule for sm_90a: tile 128x128x128, 6 stages of 32 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (128 accumulator registers/thread); cluster 2x1 (rhs tile multicast); persistent, group_m 8}}
  // expected-remark@+2 {{schedule for sm_90a: tile 128x64x128, 8 stages of 24 KiB + 16 KiB epilogue staging = 208 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  // (The 7/8-wide and 64-row variants break the rules above: not built.)
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128, rhs_scale_rows = 128>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Per-row weight scales (1x128 on both): any tile width; the 256-wide tile's
// two accumulators do not fit, so 128.
// CHECK-LABEL: tile.kernel @fp8_row_scales(
// CHECK:         schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128,
tile.kernel @fp8_row_scales(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>,
                            %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<N, cdiv(K, 128)>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-remark@+3 {{tile 128x128x128, 6 stages}}
  // expected-remark@+2 {{tile 128x64x128, 8 stages}}
  // expected-remark@+1 {{tile 128x112x128, 6 stages}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf32, #tile.dims<N, cdiv(K, 128)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Hints that break the software scaling's rules are errors: a K step of
// another length than the scale block ...
tile.kernel @fp8_blockwise_tile_k(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>,
                                  %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128, 256]>} {
  // expected-error@+1 {{schedule for sm_90a: tile_k = 256 must equal the scale block along K (128): each K step's product is scaled once}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128, rhs_scale_rows = 128>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// ... or a tile whose columns span two weight blocks.
tile.kernel @fp8_blockwise_tile_n(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>,
                                  %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<cdiv(N, 64), cdiv(K, 128)>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128, 128]>} {
  // expected-error@+1 {{schedule for sm_90a: tile_n = 128 must divide the rhs scale block's 64 rows: a tile's columns share one weight scale per K step}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf32, #tile.dims<cdiv(N, 64), cdiv(K, 128)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128, rhs_scale_rows = 64>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// An existing schedule meets the rules a chosen one does (kiln-fuzz-pipeline
// found a tile_n of 127 reaching cta.mma's verifier).
tile.kernel @bad_existing(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> {
  // expected-error@+1 {{schedule for sm_90a: tile_n = 127}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] {schedule = #tile.schedule<tile_m = 128, tile_n = 127, tile_k = 64, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = false, group_m = 1>} -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// Attention: the schedule follows from the head dims (AttentionSchedule.h):
// 128 query rows over two math warpgroups, 128 keys per step, a two-stage
// key/value ring, persistent.
// CHECK-LABEL: tile.kernel @attention(
// CHECK: tile.attention {{.*}} {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 128, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>}
tile.kernel @attention(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                       %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                       %v: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  tile.return %o : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}

// -----

// Head dim 64, causal: three math warpgroups and 96 keys as without a mask.
// CHECK-LABEL: tile.kernel @attention_d64_causal(
// CHECK: tile.attention {{.*}} {schedule = #tile.schedule<tile_m = 192, tile_n = 96, tile_k = 64, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 3, persistent = true, group_m = 1>}
tile.kernel @attention_d64_causal(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>> {tile.param = #tile.param<"q", input>},
                                  %k: tensor<?x?x64xbf16, #tile.dims<H, T, 64>> {tile.param = #tile.param<"k", input>},
                                  %v: tensor<?x?x64xbf16, #tile.dims<H, T, 64>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x64xbf16, #tile.dims<H, S, 64>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>> -> tensor<?x?x64xbf16, #tile.dims<H, S, 64>>
  tile.return %o : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>
}

// -----

// A mask region keeps two warpgroups and 128 keys at head dim 64.
// CHECK-LABEL: tile.kernel @attention_d64_mask(
// CHECK: tile.attention {{.*}} {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>}
tile.kernel @attention_d64_mask(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>> {tile.param = #tile.param<"q", input>},
                                %k: tensor<?x?x64xbf16, #tile.dims<H, T, 64>> {tile.param = #tile.param<"k", input>},
                                %v: tensor<?x?x64xbf16, #tile.dims<H, T, 64>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x64xbf16, #tile.dims<H, S, 64>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>> -> tensor<?x?x64xbf16, #tile.dims<H, S, 64>> score {
  ^bb0(%s: f32, %i: index, %j: index):
    tile.yield %s : f32
  } mask {
  ^bb0(%i: index, %j: index):
    %keep = arith.cmpi ule, %j, %i : index
    tile.yield %keep : i1
  }
  tile.return %o : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>
}

// -----

// Head dim 64 without masks: three math warpgroups (192 query rows) and 96
// keys per step, so the third warpgroup's MMAs run while two compute
// exponentials and the fragments fit 160 registers.
// CHECK-LABEL: tile.kernel @attention_narrow(
// CHECK: tile.attention {{.*}} {schedule = #tile.schedule<tile_m = 192, tile_n = 96, tile_k = 64, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 3, persistent = true, group_m = 1>}
tile.kernel @attention_narrow(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>> {tile.param = #tile.param<"q", input>},
                              %k: tensor<?x?x64xbf16, #tile.dims<H, T, 64>> {tile.param = #tile.param<"k", input>},
                              %v: tensor<?x?x64xbf16, #tile.dims<H, T, 64>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x64xbf16, #tile.dims<H, S, 64>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>> -> tensor<?x?x64xbf16, #tile.dims<H, S, 64>>
  tile.return %o : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>
}

// -----

// Head dim 256: 64 keys per step, so that the 64 x 256 output, the scores
// and the previous block's P fit a math warpgroup's 240 registers.
// CHECK-LABEL: tile.kernel @attention_d256(
// CHECK: tile.attention {{.*}} {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 256, stages = 2, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 1>}
tile.kernel @attention_d256(%q: tensor<?x?x256xbf16, #tile.dims<H, S, 256>> {tile.param = #tile.param<"q", input>},
                            %k: tensor<?x?x256xbf16, #tile.dims<H, T, 256>> {tile.param = #tile.param<"k", input>},
                            %v: tensor<?x?x256xbf16, #tile.dims<H, T, 256>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x256xbf16, #tile.dims<H, S, 256>> {tile.param = #tile.param<"o", output>}) {
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x256xbf16, #tile.dims<H, S, 256>>, tensor<?x?x256xbf16, #tile.dims<H, T, 256>>, tensor<?x?x256xbf16, #tile.dims<H, T, 256>> -> tensor<?x?x256xbf16, #tile.dims<H, S, 256>>
  tile.return %o : tensor<?x?x256xbf16, #tile.dims<H, S, 256>>
}

// -----

tile.kernel @attention_d96(%q: tensor<?x?x96xbf16, #tile.dims<H, S, 96>> {tile.param = #tile.param<"q", input>},
                           %k: tensor<?x?x96xbf16, #tile.dims<H, T, 96>> {tile.param = #tile.param<"k", input>},
                           %v: tensor<?x?x96xbf16, #tile.dims<H, T, 96>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x96xbf16, #tile.dims<H, S, 96>> {tile.param = #tile.param<"o", output>}) {
  // expected-error@+1 {{schedule for sm_90a: head dim 96 cannot be tiled: head dims are multiples of 64 up to 256}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x96xbf16, #tile.dims<H, S, 96>>, tensor<?x?x96xbf16, #tile.dims<H, T, 96>>, tensor<?x?x96xbf16, #tile.dims<H, T, 96>> -> tensor<?x?x96xbf16, #tile.dims<H, S, 96>>
  tile.return %o : tensor<?x?x96xbf16, #tile.dims<H, S, 96>>
}

// -----

tile.kernel @attention_symbolic_d(%q: tensor<?x?x?xbf16, #tile.dims<H, S, D>> {tile.param = #tile.param<"q", input>},
                                  %k: tensor<?x?x?xbf16, #tile.dims<H, T, D>> {tile.param = #tile.param<"k", input>},
                                  %v: tensor<?x?x?xbf16, #tile.dims<H, T, D>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x?xbf16, #tile.dims<H, S, D>> {tile.param = #tile.param<"o", output>}) {
  // expected-error@+1 {{schedule for sm_90a: the head dims of q, k and v must be constants}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x?xbf16, #tile.dims<H, S, D>>, tensor<?x?x?xbf16, #tile.dims<H, T, D>>, tensor<?x?x?xbf16, #tile.dims<H, T, D>> -> tensor<?x?x?xbf16, #tile.dims<H, S, D>>
  tile.return %o : tensor<?x?x?xbf16, #tile.dims<H, S, D>>
}

// -----

tile.kernel @attention_hinted(%q: tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"q", input>},
                              %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"k", input>},
                              %v: tensor<?x?x128xbf16, #tile.dims<H, T, 128>> {tile.param = #tile.param<"v", input>})
    -> (tensor<?x?x128xbf16, #tile.dims<H, S, 128>> {tile.param = #tile.param<"o", output>}) attributes {hints = #tile.hints<stages = 3>} {
  // expected-error@+1 {{not implemented yet: schedule hints on an attention kernel (the schedule follows from the head dims)}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  tile.return %o : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
}

// -----

// A grouped contraction (mixture of experts): adjacent row tiles may belong
// to different groups, so no cluster shares an rhs tile; the walk is
// persistent (it scans the offsets on the device) and no narrower variant
// is made (the runtime cannot see the groups' sizes).
// CHECK-LABEL: tile.kernel @grouped(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-NOT:     tile.kernel
tile.kernel @grouped(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xbf16, #tile.dims<T, N>> {
  // expected-remark@+1 {{schedule for sm_90a: tile 128x256x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (128 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

tile.kernel @grouped_cluster(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xbf16, #tile.dims<T, N>> attributes {hints = #tile.hints<cluster = [2]>} {
  // expected-error@+1 {{schedule for sm_90a: cluster = [2, 1]: the row tiles of a grouped contraction may belong to different groups, which share no rhs tile (use [1, 1])}}
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

tile.kernel @grouped_not_persistent(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xbf16, #tile.dims<T, N>> attributes {hints = #tile.hints<persistent = false>} {
  // expected-error@+1 {{schedule for sm_90a: a grouped (mixture-of-experts) contraction needs a persistent schedule: its tiles are found by scanning the offsets on the device}}
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

tile.kernel @grouped_stream_k(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) -> tensor<?x?xbf16, #tile.dims<T, N>> attributes {hints = #tile.hints<stream_k = true>} {
  // expected-error@+1 {{schedule for sm_90a: stream_k is not implemented yet for a grouped (mixture-of-experts) contraction}}
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<T, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<T, N>>
}

// -----

// A batched contraction gets the dense schedule (2x1 clusters, persistent,
// group_m) without stream-K, and the dense variants (128x64 and 128x128
// without a cluster; the runtime's cost rule counts the batch entries'
// tiles): its walk rasters each batch entry's tiles as a static walk does,
// the entries one after the other.
// CHECK-LABEL: tile.kernel @batched(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-LABEL: tile.kernel @batched_128x64(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 64, tile_k = 64, stages = 8, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-LABEL: tile.kernel @batched_128x128(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 6, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
// CHECK-LABEL: tile.kernel @batched_128x128pp(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 5, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8, pingpong = true>}
// CHECK-LABEL: tile.kernel @batched_64x64pp(
// CHECK-LABEL: tile.kernel @batched_64x32pp(
// CHECK-NOT:     tile.kernel
tile.kernel @batched(%a: tensor<?x?x?xbf16, #tile.dims<B, M, K>>, %b: tensor<?x?x?xbf16, #tile.dims<B, N, K>>) -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> {
  // expected-remark@+8 {{schedule for sm_90a: tile 128x256x64, 4 stages of 48 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (128 accumulator registers/thread); cluster 2x1 (rhs tile multicast); persistent, group_m 8}}
  // expected-remark@+7 {{schedule for sm_90a: tile 128x64x64, 8 stages of 24 KiB + 16 KiB epilogue staging = 208 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (32 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  // expected-remark@+6 {{schedule for sm_90a: tile 128x128x64, 6 stages of 32 KiB + 32 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 64 rows (64 accumulator registers/thread); cluster 1x1; persistent, group_m 8}}
  // expected-remark@+5 {{tile 128x128x64, 5 stages of 32 KiB + 64 KiB epilogue staging}}
  // expected-remark@+4 {{tile 64x64x128, 6 stages}}
  // expected-remark@+3 {{tile 64x32x128, 8 stages}}
  // expected-remark@+2 {{tile 128x224x64, 4 stages of 44 KiB + 28 KiB epilogue staging}}
  // expected-remark@+1 {{tile 128x192x64, 5 stages of 40 KiB + 24 KiB epilogue staging}}
  %0 = tile.contract(%a, %b : tensor<?x?x?xbf16, #tile.dims<B, M, K>>, tensor<?x?x?xbf16, #tile.dims<B, N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?x?xbf16, #tile.dims<B, M, N>>
}

// -----

tile.kernel @batched_grid_cluster(%a: tensor<?x?x?xbf16, #tile.dims<B, M, K>>, %b: tensor<?x?x?xbf16, #tile.dims<B, N, K>>) -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> attributes {hints = #tile.hints<persistent = false>} {
  // expected-error@+1 {{schedule for sm_90a: cluster = [2, 1] needs a persistent schedule for a batched contraction (a grid of one CTA per tile spreads its batch axes over the grid's axes)}}
  %0 = tile.contract(%a, %b : tensor<?x?x?xbf16, #tile.dims<B, M, K>>, tensor<?x?x?xbf16, #tile.dims<B, N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?x?xbf16, #tile.dims<B, M, N>>
}

// -----

tile.kernel @batched_stream_k(%a: tensor<?x?x?xbf16, #tile.dims<B, M, K>>, %b: tensor<?x?x?xbf16, #tile.dims<B, N, K>>) -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> attributes {hints = #tile.hints<stream_k = true>} {
  // expected-error@+1 {{schedule for sm_90a: stream_k is not implemented yet for a batched contraction}}
  %0 = tile.contract(%a, %b : tensor<?x?x?xbf16, #tile.dims<B, M, K>>, tensor<?x?x?xbf16, #tile.dims<B, N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?x?xbf16, #tile.dims<B, M, N>>
}

// -----

// Ping-pong: each of the two math warpgroups owns a whole 128x128 tile (128
// accumulator registers), stages its own tile (2 x 32 KiB) and stream-K stays
// off.
// CHECK-LABEL: tile.kernel @pingpong(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 5, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8, pingpong = true>}
tile.kernel @pingpong(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], pingpong = true>} {
  // expected-remark@+1 {{tile 128x128x64, 5 stages of 32 KiB + 64 KiB epilogue staging = 224 KiB of 227 KiB shared memory; 2 math warpgroup(s) x 128 rows (128 accumulator registers/thread); cluster 2x1 (rhs tile multicast); persistent, group_m 8, ping-pong (each math warpgroup owns a tile; one's epilogue overlaps the other's MMAs)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A ping-pong warpgroup holds all of its tile's rows: 128x256 does not fit.
tile.kernel @pingpong_wide(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 256], pingpong = true>} {
  // expected-error@+1 {{schedule for sm_90a: a 128x256 accumulator per warpgroup needs 256 registers per thread; at most 168 fit}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @pingpong_stream_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], stream_k = true, pingpong = true>} {
  // expected-error@+1 {{schedule for sm_90a: pingpong and stream_k do not combine (a part of a split tile is shared by both math warpgroups)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @pingpong_rows(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [96, 128], pingpong = true>} {
  // expected-error@+1 {{schedule for sm_90a: tile_m = 96 must be a multiple of 64 (each ping-pong warpgroup's 64-row MMAs)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}


// -----

// 16-bit outputs also stream through two equal halves of the tile (224 = 2 x
// 112 columns), but 208 columns make halves of 104, not a multiple of 16.
tile.kernel @tile_n_halves(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 208]>} {
  // expected-error@+1 {{schedule for sm_90a: tile_n = 208 does not stream through the epilogue's staging blocks of 128 columns of 16-bit outputs (use a multiple of 128, at most 128, or twice a multiple of 16 no wider than that)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

// A split-K tail on request: the schedule records it (and no stream-K).
// CHECK-LABEL: tile.kernel @split_k(
// CHECK:         {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 1, consumers = 2, persistent = true, group_m = 8, split_k = true>}
tile.kernel @split_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 256], split_k = true>} {
  // expected-remark@+1 {{persistent, group_m 8, split-K tail (a partial last wave's tiles in two K halves)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @split_k_one_cta_per_tile(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], persistent = false, split_k = true>} {
  // expected-error@+1 {{schedule for sm_90a: split_k needs a persistent schedule: the clusters that share a tile must run at the same time}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @split_k_and_stream_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], stream_k = true, split_k = true>} {
  // expected-error@+1 {{schedule for sm_90a: stream_k and split_k are two ways to fill a partial last wave: choose one}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @pingpong_split_k(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {hints = #tile.hints<tile = [128, 128], split_k = true, pingpong = true>} {
  // expected-error@+1 {{schedule for sm_90a: pingpong and split_k do not combine (a part of a split tile is shared by both math warpgroups)}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}

// -----

tile.kernel @batched_split_k(%a: tensor<?x?x?xbf16, #tile.dims<B, M, K>>, %b: tensor<?x?x?xbf16, #tile.dims<B, N, K>>) -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> attributes {hints = #tile.hints<split_k = true>} {
  // expected-error@+1 {{schedule for sm_90a: split_k is not implemented yet for a batched contraction}}
  %0 = tile.contract(%a, %b : tensor<?x?x?xbf16, #tile.dims<B, M, K>>, tensor<?x?x?xbf16, #tile.dims<B, N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?x?xbf16, #tile.dims<B, M, N>> {
  ^bb0(%acc0: f32):
    %t = arith.truncf %acc0 : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?x?xbf16, #tile.dims<B, M, N>>
}
