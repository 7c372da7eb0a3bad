// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tile dialect's attributes and verifiers.

//===----------------------------------------------------------------------===//
// #tile.dims parsing and verifyEncoding
//===----------------------------------------------------------------------===//

// expected-error@+2 {{expected valid keyword or string}}
// expected-error@+1 {{expected a dim expression (NAME, INT, NAME+INT, NAME-INT, NAME*INT or cdiv(NAME,INT))}}
tile.kernel @f(%a: tensor<?xf32, #tile.dims<[M]>>) {
  tile.return
}

// -----

// A bare identifier may contain '.', which no dim name does.
// expected-error@+1 {{invalid dim expression 'K.x'}}
tile.kernel @f(%a: tensor<?xf32, #tile.dims<K.x>>) {
  tile.return
}

// -----

// expected-error@+1 {{invalid dim expression 'M K': spaces are not allowed}}
tile.kernel @f(%a: tensor<?xf32, #tile.dims<"M K">>) {
  tile.return
}

// -----

// expected-error@+1 {{invalid dim expression 'cdiv(K,0)'}}
tile.kernel @f(%a: tensor<?xf32, #tile.dims<cdiv(K, 0)>>) {
  tile.return
}

// -----

// cdiv takes a name, not another expression.
// expected-error@+1 {{invalid dim expression 'cdiv(K+1,4)': 'K+1' is not a dim name}}
tile.kernel @f(%a: tensor<?xf32, #tile.dims<cdiv(K + 1, 4)>>) {
  tile.return
}

// -----

// A constant extent is written folded (4), not as cdiv(7, 2): constant dims
// are static sizes.
// expected-error@+1 {{invalid dim expression 'cdiv(7,2)': '7' is not a dim name}}
tile.kernel @f(%a: tensor<?xf32, #tile.dims<cdiv(7, 2)>>) {
  tile.return
}

// -----

// expected-error@+1 {{invalid dim expression '99999999999999999999': not an integer that fits 64 bits}}
tile.kernel @f(%a: tensor<?xf32, #tile.dims<"99999999999999999999">>) {
  tile.return
}

// -----

// #tile.dim alone: the structured form, parsed by the same parser.
// expected-error@+1 {{invalid dim expression 'cdiv(K)': cdiv needs two arguments}}
tile.kernel @f() attributes {d = #tile.dim<"cdiv(K)">} {
  tile.return
}

// -----

// expected-error@+1 {{#tile.dims names 2 extents but the tensor has rank 1}}
tile.kernel @f(%a: tensor<?xf32, #tile.dims<M, N>>) {
  tile.return
}

// -----

// expected-error@+1 {{axis 1 has static size ? but #tile.dims says '128'; constant dims must be static and symbolic dims dynamic}}
tile.kernel @f(%a: tensor<?x?xf32, #tile.dims<M, 128>>) {
  tile.return
}

// -----

// expected-error@+1 {{axis 0 has static size 64 but #tile.dims says 'M'; constant dims must be static and symbolic dims dynamic}}
tile.kernel @f(%a: tensor<64xf32, #tile.dims<M>>) {
  tile.return
}

// -----

// expected-error@+1 {{axis 0 has static size 64 but #tile.dims says '128'}}
tile.kernel @f(%a: tensor<64xf32, #tile.dims<128>>) {
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// #tile.schedule
//===----------------------------------------------------------------------===//

tile.kernel @f(%a: tensor<4x4xf16>, %b: tensor<4x4xf16>) -> tensor<4x4xf32> {
  // expected-error@+2 {{tile sizes must be positive, got 128x0x64}}
  %0 = tile.contract(%a, %b : tensor<4x4xf16>, tensor<4x4xf16>) [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
      {schedule = #tile.schedule<tile_m = 128, tile_n = 0, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>}
      -> tensor<4x4xf32> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return %0 : tensor<4x4xf32>
}

// -----

// expected-error@+1 {{stream_k needs persistent = true}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = false, group_m = 8, stream_k = true>

// -----

// expected-error@+1 {{pingpong takes turns between 2 math warpgroups, got consumers = 1}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, pingpong = true>

// -----

// expected-error@+1 {{pingpong and stream_k do not combine}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8, stream_k = true, pingpong = true>

// -----

// expected-error@+1 {{split_k needs persistent = true}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = false, group_m = 8, split_k = true>

// -----

// expected-error@+1 {{pingpong and split_k do not combine}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8, pingpong = true, split_k = true>

// -----

// expected-error@+1 {{stream_k and split_k are two ways to fill a partial last wave: choose one}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8, stream_k = true, split_k = true>

// -----

// expected-error@+1 {{stages must be at least 1, got 0}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 0, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>

// -----

// expected-error@+1 {{cluster dims must be at least 1, got 2x0}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 2, cluster_n = 0, consumers = 2, persistent = true, group_m = 8>

// -----

// expected-error@+1 {{consumers (3) must divide tile_m (128)}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 3, persistent = true, group_m = 8>

// -----

// expected-error@+1 {{consumers (0) must divide tile_m (128)}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 0, persistent = true, group_m = 8>

// -----

// expected-error@+1 {{group_m must be at least 1, got 0}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 0>

// -----

// Regression: 2^32 was truncated to an i32 0 by the lowering.
// expected-error@+1 {{group_m must be at most 2147483647 (the lowering's tile arithmetic is 32-bit), got 4294967296}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 4294967296>

// -----

// Regression: the product 2^32 * 2^32 wrapped to 0.
// expected-error@+1 {{a cluster holds at most 16 CTAs, got 4294967296x4294967296}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 4294967296, cluster_n = 4294967296, consumers = 2, persistent = true, group_m = 8>

// -----

// expected-error@+1 {{a cluster holds at most 16 CTAs, got 4x8}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 4, cluster_m = 4, cluster_n = 8, consumers = 2, persistent = true, group_m = 8>

// -----

// expected-error@+1 {{stages must be at most 16, got 1000000}}
#s = #tile.schedule<tile_m = 128, tile_n = 128, tile_k = 64, stages = 1000000, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>

// -----

// expected-error@+1 {{tile sizes must be at most 2147483647 (the lowering's tile arithmetic is 32-bit), got 128x4294967296x64}}
#s = #tile.schedule<tile_m = 128, tile_n = 4294967296, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>

// -----

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'tile.kernel' op argument #1 must be a ranked tensor, got 'f32'}}
tile.kernel @f(%a: tensor<4xf32>, %b: f32) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op argument #0 must be a ranked tensor, got 'tensor<*xf32>'}}
tile.kernel @f(%a: tensor<*xf32>) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op result #0 must be a ranked tensor, got 'index'}}
tile.kernel @f(%a: tensor<4xf32>) -> index {
  tile.return
}

// -----

// A kernel is a definition, never a declaration.
// expected-error@+1 {{'tile.kernel' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
tile.kernel @f(%a: tensor<4xf32>)

// -----

// A scale tensor names what it scales and its block.
tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
               // expected-error@+1 {{a scale tensor, and only one, names the tensor it scales (of = ...) and its block (block = [rows, K])}}
               %s: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>> {tile.param = #tile.param<"s", scale, block = [1, 128]>}) {
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
               // expected-error@+1 {{a scale tensor, and only one, names the tensor it scales (of = ...) and its block (block = [rows, K])}}
               %s: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>> {tile.param = #tile.param<"s", input, of = "a">}) {
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
               // expected-error@+1 {{a scale block is two positive extents [rows, K]}}
               %s: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>> {tile.param = #tile.param<"s", scale, of = "a", block = [128]>}) {
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
               // expected-error@+1 {{a scale block is two positive extents [rows, K]}}
               %s: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>> {tile.param = #tile.param<"s", scale, of = "a", block = [1, 0]>}) {
  tile.return
}

// -----

// The data must come before its scale.
// expected-error@+1 {{'tile.kernel' op scale argument #0 scales 'a', which is not an earlier input}}
tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>> {tile.param = #tile.param<"a.scale", scale, of = "a", block = [1, 128]>},
               %a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>}) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op scale argument #1 scales 'b', which is not an earlier input}}
tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
               %s: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>> {tile.param = #tile.param<"b.scale", scale, of = "b", block = [1, 128]>}) {
  tile.return
}

// -----

// Inputs and outputs are where they belong.
// expected-error@+1 {{'tile.kernel' op argument #0 is an input or a scale, not an output}}
tile.kernel @f(%a: tensor<4xf32> {tile.param = #tile.param<"a", output>}) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op result #0 is an output, not an input}}
tile.kernel @f(%a: tensor<4xf32>) -> (tensor<4xf32> {tile.param = #tile.param<"c", input>}) {
  tile.return %a : tensor<4xf32>
}

// -----

// expected-error@+1 {{expected input, output or scale, got 'inpu'}}
tile.kernel @f(%a: tensor<4xf32> {tile.param = #tile.param<"a", inpu>}) {
  tile.return
}

// -----

// expected-error@+1 {{a kernel tensor needs a name}}
tile.kernel @f(%a: tensor<4xf32> {tile.param = #tile.param<"", input>}) {
  tile.return
}

// -----

// Only tile.param, a #tile.param, exists on a kernel tensor.
// expected-error@+1 {{'tile.kernel' op unknown tile attribute 'tile.name' on a kernel tensor; expected tile.param}}
tile.kernel @f(%a: tensor<4xf32> {tile.name = "a"}) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op tile.param must be a #tile.param, got "a"}}
tile.kernel @f(%a: tensor<4xf32> {tile.param = "a"}) {
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op tile.param must be a #tile.param, got "c"}}
tile.kernel @f(%a: tensor<4xf32>) -> (tensor<4xf32> {tile.param = "c"}) {
  tile.return %a : tensor<4xf32>
}

// -----

// Schedule hints: the keys and values @schedule(...) takes.
// expected-error@+1 {{unknown schedule hint 'warps'; expected tile, stages, cluster, consumers, persistent, group_m, stream_k, acc_stages, pingpong or split_k}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<warps = 4>} {
  tile.return
}

// -----

// expected-error@+1 {{hint 'stages' given twice}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<stages = 3, stages = 4>} {
  tile.return
}

// -----

// expected-error@+1 {{schedule hint 'tile' takes 2 or 3 extents in [1, 2147483647]}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<tile = [128]>} {
  tile.return
}

// -----

// expected-error@+1 {{schedule hint 'tile' takes 2 or 3 extents in [1, 2147483647]}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<tile = [128, 128, 64, 1]>} {
  tile.return
}

// -----

// expected-error@+1 {{schedule hint 'tile' takes 2 or 3 extents in [1, 2147483647]}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<tile = [128, -64]>} {
  tile.return
}

// -----

// Hints are copied into #tile.schedule; they must fit its 32-bit arithmetic.
// expected-error@+1 {{schedule hint 'group_m' must be in [1, 2147483647], got 4294967296}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<group_m = 4294967296>} {
  tile.return
}

// -----

// expected-error@+1 {{schedule hint 'cluster' takes 1 or 2 extents in [1, 2147483647]}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<cluster = [4294967296, 4294967296]>} {
  tile.return
}

// -----

// expected-error@+1 {{schedule hint 'cluster' takes 1 or 2 extents in [1, 2147483647]}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<cluster = [2, 1, 1]>} {
  tile.return
}

// -----

// expected-error@+1 {{schedule hint 'cluster' takes 1 or 2 extents in [1, 2147483647]}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<cluster = [0, 1]>} {
  tile.return
}

// -----

// expected-error@+1 {{schedule hint 'stages' must be in [1, 2147483647], got 0}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<stages = 0>} {
  tile.return
}

// -----

// expected-error@+1 {{schedule hint 'group_m' must be in [1, 2147483647], got -8}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<group_m = -8>} {
  tile.return
}

// -----

// expected-error@+1 {{expected integer value}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<consumers = "two">} {
  tile.return
}

// -----

// expected-error@+1 {{expected true or false}}
tile.kernel @f(%a: tensor<4xf32>) attributes {hints = #tile.hints<persistent = yes>} {
  tile.return
}

// -----

// Variants are ranked by their tile cost; NaN compares false both ways.
// expected-error@+1 {{'tile.kernel' op tile_cost must be a positive finite float, got 0x7FF8000000000000 : f64}}
tile.kernel @f(%a: tensor<4xf32>) attributes {tile_cost = 0x7FF8000000000000 : f64} {
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op tail_cost must be a finite float >= 0, got -1.000000e+00 : f64}}
tile.kernel @f(%a: tensor<4xf32>) attributes {tail_cost = -1.0 : f64, tile_cost = 2.0 : f64} {
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.return and tile.yield
//===----------------------------------------------------------------------===//

tile.kernel @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error@+1 {{'tile.return' op returns 1 values but the kernel has 2 outputs}}
  tile.return %a : tensor<4xf32>
}

// -----

tile.kernel @f(%a: tensor<?xf32, #tile.dims<M>>) -> tensor<?xf32, #tile.dims<N>> {
  // expected-error@+1 {{'tile.return' op output #0 has type 'tensor<?xf32, #tile.dims<M>>' but the kernel declares 'tensor<?xf32, #tile.dims<N>>'}}
  tile.return %a : tensor<?xf32, #tile.dims<M>>
}

// -----

tile.kernel @f(%a: tensor<4xf32>) {
  %c = arith.constant 0.0 : f32
  // expected-error@+1 {{'tile.yield' op expects parent op to be one of 'tile.map, tile.mask, tile.score_mod, tile.contract, tile.attention'}}
  tile.yield %c : f32
}

// -----

//===----------------------------------------------------------------------===//
// tile.matmul
//===----------------------------------------------------------------------===//

tile.kernel @f(%a: tensor<?xbf16, #tile.dims<K>>, %b: tensor<?x?xbf16, #tile.dims<K, N>>) {
  // expected-error@+1 {{'tile.matmul' op operands must have rank >= 2, got ranks 1 and 2}}
  %0 = tile.matmul %a, %b : tensor<?xbf16, #tile.dims<K>>, tensor<?x?xbf16, #tile.dims<K, N>> -> tensor<?xf32, #tile.dims<N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.matmul' op operand element types differ: 'bf16' and 'f16'; both must match (8-bit floats may mix)}}
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.matmul' op operand element types differ: 'f8E4M3FN' and 'bf16'}}
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xi8, #tile.dims<M, K>>, %b: tensor<?x?xi8, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.matmul' op operand #0 must be ranked tensor of bf16, f16, f32, e4m3, e5m2 or e2m1 values}}
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xi8, #tile.dims<M, K>>, tensor<?x?xi8, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.matmul' op result #0 must be ranked tensor of 32-bit float values}}
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xbf16, #tile.dims<M, N>>
  tile.return
}

// -----

// Without transpose_b, b's rows are the contraction dim.
tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.matmul' op contraction dims differ: K=K from lhs, K=N from rhs}}
  %0 = tile.matmul %a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.matmul' op contraction dims differ: K=M from lhs, K=K from rhs}}
  %0 = tile.matmul %a, %b {transpose_a, transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<K, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?x?xbf16, #tile.dims<B, M, K>>, %b: tensor<?x?x?xbf16, #tile.dims<G, N, K>>) {
  // expected-error@+1 {{'tile.matmul' op cannot broadcast rhs batch [G] to [B]: extent 'G' vs 'B'}}
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?x?xbf16, #tile.dims<B, M, K>>, tensor<?x?x?xbf16, #tile.dims<G, N, K>> -> tensor<?x?x?xf32, #tile.dims<B, M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<1x?x?xbf16, #tile.dims<1, M, K>>, %b: tensor<2x?x?xbf16, #tile.dims<2, N, K>>) {
  // Either side broadcasts along a batch axis: the result takes 2, not 1.
  // expected-error@+1 {{'tile.matmul' op result is [1, M, N], expected [2, M, N] (axis 0)}}
  %0 = tile.matmul %a, %b {transpose_b} : tensor<1x?x?xbf16, #tile.dims<1, M, K>>, tensor<2x?x?xbf16, #tile.dims<2, N, K>> -> tensor<1x?x?xf32, #tile.dims<1, M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?x?xbf16, #tile.dims<H, M, K>>, %b: tensor<?x?x?x?xbf16, #tile.dims<B, G, N, K>>) {
  // expected-error@+1 {{'tile.matmul' op cannot broadcast lhs batch [H] to [B, G]: extent 'H' vs 'G'}}
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?x?xbf16, #tile.dims<H, M, K>>, tensor<?x?x?x?xbf16, #tile.dims<B, G, N, K>> -> tensor<?x?x?x?xf32, #tile.dims<B, G, M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.matmul' op result has rank 3, expected 2 ([M, N])}}
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?x?xf32, #tile.dims<B, M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.matmul' op result is [M, K], expected [M, N] (axis 1)}}
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, K>>
  tile.return
}

// -----

// A static extent without an encoding is its size, so 64 is not 32.
tile.kernel @f(%a: tensor<128x64xf32>, %b: tensor<32x32xf32>) {
  // expected-error@+1 {{'tile.matmul' op contraction dims differ: K=64 from lhs, K=32 from rhs}}
  %0 = tile.matmul %a, %b : tensor<128x64xf32>, tensor<32x32xf32> -> tensor<128x32xf32>
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.scaled_matmul
//===----------------------------------------------------------------------===//

tile.kernel @f(%a: tensor<?x?x?xf8E4M3FN, #tile.dims<B, M, K>>, %as: tensor<?x?xf32, #tile.dims<M, K>>,
               %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op block-scaled operands must have rank 2, got rank 3}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 1>, rhs_block = array<i64: 1, 1>, transpose_b}
      : tensor<?x?x?xf8E4M3FN, #tile.dims<B, M, K>>, tensor<?x?xf32, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<N, K>>
      -> tensor<?x?x?xf32, #tile.dims<B, M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, K>>,
               %b: tensor<?x?xbf16, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op block-scaled operands must be fp8 or fp4, got 'bf16'}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 1>, rhs_block = array<i64: 1, 1>, transpose_b}
      : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<N, K>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>,
               %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<N, cdiv(K, 16)>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op cannot mix fp4 and fp8 operands}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 16>, rhs_block = array<i64: 1, 16>, transpose_b}
      : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<N, cdiv(K, 16)>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, K>>,
               %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op lhs_block must be two positive extents}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1>, rhs_block = array<i64: 1, 1>, transpose_b}
      : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<N, K>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, K>>,
               %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op rhs_block must be two positive extents}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 1>, rhs_block = array<i64: 0, 128>, transpose_b}
      : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<N, K>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 64)>>,
               %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op lhs_scale is [M, cdiv(K,64)], expected [M, cdiv(K,128)] (axis 1)}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 128>, rhs_block = array<i64: 128, 128>, transpose_b}
      : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 64)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<cdiv(N, 128), cdiv(K, 128)>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>,
               %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?xf32, #tile.dims<N>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op rhs_scale has rank 1, expected 2 ([cdiv(N,128), cdiv(K,128)])}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 128>, rhs_block = array<i64: 128, 128>, transpose_b}
      : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?xf32, #tile.dims<N>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

// Constant extents give constant scale extents: cdiv(256, 128) = 2.
tile.kernel @f(%a: tensor<?x256xf8E4M3FN, #tile.dims<M, 256>>, %as: tensor<?x3xf32, #tile.dims<M, 3>>,
               %b: tensor<?x256xf8E4M3FN, #tile.dims<N, 256>>, %bs: tensor<?x2xf32, #tile.dims<N, 2>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op lhs_scale is [M, 3], expected [M, 2] (axis 1)}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 128>, rhs_block = array<i64: 1, 128>, transpose_b}
      : tensor<?x256xf8E4M3FN, #tile.dims<M, 256>>, tensor<?x3xf32, #tile.dims<M, 3>>, tensor<?x256xf8E4M3FN, #tile.dims<N, 256>>, tensor<?x2xf32, #tile.dims<N, 2>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xbf16, #tile.dims<M, K>>,
               %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %bs: tensor<?x?xf32, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op operand #1 must be ranked tensor of f32, e4m3 or ue8m0 values}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 1>, rhs_block = array<i64: 1, 1>, transpose_b}
      : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<N, K>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

// The product rules apply after the scale rules.
tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %as: tensor<?x?xf32, #tile.dims<M, K>>,
               %b: tensor<?x?xf8E4M3FN, #tile.dims<N, J>>, %bs: tensor<?x?xf32, #tile.dims<N, J>>) {
  // expected-error@+1 {{'tile.scaled_matmul' op contraction dims differ: K=K from lhs, K=J from rhs}}
  %0 = tile.scaled_matmul %a, %as, %b, %bs {lhs_block = array<i64: 1, 1>, rhs_block = array<i64: 1, 1>, transpose_b}
      : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, J>>, tensor<?x?xf32, #tile.dims<N, J>>
      -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.grouped_matmul
//===----------------------------------------------------------------------===//

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?xbf16, #tile.dims<N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op expects lhs [T, K], rhs [E, N, K] and offsets [E+1]; got ranks 2, 2, 1}}
  %0 = tile.grouped_matmul %x, %w, %o {transpose_b} : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, K, N>>, %o: tensor<?x2xi32, #tile.dims<E, 2>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op expects lhs [T, K], rhs [E, K, N] and offsets [E+1]; got ranks 2, 3, 2}}
  %0 = tile.grouped_matmul %x, %w, %o : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, K, N>>, tensor<?x2xi32, #tile.dims<E, 2>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op operand element types differ: 'bf16' and 'f16'}}
  %0 = tile.grouped_matmul %x, %w, %o {transpose_b} : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xf16, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op offsets is [E], expected [E+1] (axis 0)}}
  %0 = tile.grouped_matmul %x, %w, %o {transpose_b} : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<8x?x?xbf16, #tile.dims<8, N, K>>, %o: tensor<8xi32>) {
  // expected-error@+1 {{'tile.grouped_matmul' op offsets is [8], expected [9] (axis 0)}}
  %0 = tile.grouped_matmul %x, %w, %o {transpose_b} : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<8x?x?xbf16, #tile.dims<8, N, K>>, tensor<8xi32> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op contraction dims differ: K=K from lhs, K=N from rhs}}
  %0 = tile.grouped_matmul %x, %w, %o : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, K>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op result is [N, T], expected [T, N] (axis 0)}}
  %0 = tile.grouped_matmul %x, %w, %o {transpose_b} : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<N, T>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi64, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op operand #2 must be ranked tensor of 32-bit signless integer values}}
  %0 = tile.grouped_matmul %x, %w, %o {transpose_b} : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>, tensor<?xi64, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.contract
//===----------------------------------------------------------------------===//

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op needs at least one contraction}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>) [] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op result must have rank 2 to 5, got rank 6}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?x?x?x?x?xf32, #tile.dims<A, B, C, D, M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

// Batch axes broadcast: each operand's is the result's or 1.
tile.kernel @f(%a: tensor<?x?x?xbf16, #tile.dims<B, M, K>>, %b: tensor<?x?x?xbf16, #tile.dims<C, N, K>>) {
  // expected-error@+1 {{'tile.contract' op cannot broadcast rhs batch [C] to [B]: extent 'C' vs 'B'}}
  %0 = tile.contract(%a, %b : tensor<?x?x?xbf16, #tile.dims<B, M, K>>, tensor<?x?x?xbf16, #tile.dims<C, N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?x?xf32, #tile.dims<B, M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?xbf16, #tile.dims<K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op contraction #0 operands must have rank >= 2}}
  %0 = tile.contract(%a, %b : tensor<?xbf16, #tile.dims<K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op contraction #0 names operand 2 but there are only 2}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?x?xbf16, #tile.dims<B, M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op cannot broadcast lhs batch [B] to []: rank 1 > 0}}
  %0 = tile.contract(%a, %b : tensor<?x?x?xbf16, #tile.dims<B, M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xf32, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op operand element types differ: 'bf16' and 'f32'}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xf32, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op contraction #0: contraction dims differ: K=K from lhs, K=N from rhs}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = false>] -> tensor<?x?xf32, #tile.dims<M, K>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>,
               %c: tensor<?x?xbf16, #tile.dims<M, J>>, %d: tensor<?x?xbf16, #tile.dims<N, J>>) {
  // expected-error@+1 {{'tile.contract' op contraction #1 has K=J but contraction #0 has K=K; fused contractions share one K loop}}
  %0 = tile.contract(%a, %b, %c, %d : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>,
                     tensor<?x?xbf16, #tile.dims<M, J>>, tensor<?x?xbf16, #tile.dims<N, J>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>,
       #tile.mma<lhs = 2, rhs = 3, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %c: tensor<?x?xbf16, #tile.dims<P, K>>) {
  // expected-error@+1 {{'tile.contract' op result is [M, N], expected [M, P] (axis 1)}}
  %0 = tile.contract(%a, %b, %c : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>, tensor<?x?xbf16, #tile.dims<P, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>,
       #tile.mma<lhs = 0, rhs = 2, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %bias: tensor<?xbf16, #tile.dims<M>>) {
  // expected-error@+1 {{'tile.contract' op cannot broadcast epilogue input #0 [M] to [M, N]: extent 'M' vs 'N'}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%bias : tensor<?xbf16, #tile.dims<M>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32, %v: bf16):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %r: tensor<?x?x?xbf16, #tile.dims<B, M, N>>) {
  // expected-error@+1 {{'tile.contract' op cannot broadcast epilogue input #0 [B, M, N] to [M, N]: rank 3 > 2}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%r : tensor<?x?x?xbf16, #tile.dims<B, M, N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32, %v: bf16):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %bias: tensor<?xbf16, #tile.dims<N>>) {
  // expected-error@+1 {{'tile.contract' op epilogue region takes 1 arguments, expected 2}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%bias : tensor<?xbf16, #tile.dims<N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>, %bias: tensor<?xbf16, #tile.dims<N>>) {
  // expected-error@+1 {{'tile.contract' op epilogue region argument #1 is 'f32', expected 'bf16'}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      epilogue_inputs(%bias : tensor<?xbf16, #tile.dims<N>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32, %v: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op epilogue region must end in tile.yield}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.return
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op epilogue region must yield one 'bf16'}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op epilogue region must yield one 'f32'}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc, %acc : f32, f32
  }
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.map
//===----------------------------------------------------------------------===//

// The custom syntax cannot even spell a map without inputs.
tile.kernel @f() {
  // expected-error@+1 {{'tile.map' op needs at least one input}}
  %0 = "tile.map"() ({
  ^bb0:
    %c = arith.constant 1.0 : f32
    tile.yield %c : f32
  }) : () -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>, %v: tensor<?xf32, #tile.dims<M>>) {
  // expected-error@+1 {{'tile.map' op cannot broadcast input #1 [M] to [M, N]: extent 'M' vs 'N'}}
  %0 = tile.map %x, %v : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?xf32, #tile.dims<M>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.map' op cannot broadcast input #0 [M, N] to [N]: rank 2 > 1}}
  %0 = tile.map %x : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<N>> {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.map' op body region takes 2 arguments, expected 1}}
  %0 = tile.map %x : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.map' op body region argument #0 is 'f32', expected 'bf16'}}
  %0 = tile.map %x : tensor<?x?xbf16, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.map' op body region must end in tile.yield}}
  %0 = tile.map %x : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%a: f32):
    tile.return
  }
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.map' op body region must yield one 'bf16'}}
  %0 = tile.map %x : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.reduce and tile.softmax
//===----------------------------------------------------------------------===//

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+2 {{expected ::kiln::tile::ReduceKind to be one of: sum, max, logsumexp}}
  // expected-error@+1 {{failed to parse Tile_ReduceKindAttr parameter 'value'}}
  %0 = tile.reduce min %x axis = 1 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<M>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.reduce' op axis 2 is out of range for rank 2}}
  %0 = tile.reduce sum %x axis = 2 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<M>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.reduce' op axis -1 is out of range for rank 2}}
  %0 = tile.reduce sum %x axis = -1 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<M>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.reduce' op result element type must match the input's}}
  %0 = tile.reduce max %x axis = 1 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf16, #tile.dims<M>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.reduce' op result is [M], expected [N] (axis 0)}}
  %0 = tile.reduce sum %x axis = 0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<M>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.reduce' op result has rank 2, expected 1 ([M])}}
  %0 = tile.reduce sum %x axis = 1 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<f32>) {
  // expected-error@+1 {{'tile.softmax' op needs a tensor of rank >= 1}}
  %0 = tile.softmax %x : tensor<f32>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xi32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.softmax' op operand #0 must be ranked tensor of floating-point values}}
  %0 = tile.softmax %x : tensor<?x?xi32, #tile.dims<M, N>>
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.mask and tile.score_mod
//===----------------------------------------------------------------------===//

tile.kernel @f(%s: tensor<?xf32, #tile.dims<T>>) {
  // expected-error@+1 {{'tile.mask' op masks apply to score matrices of rank >= 2, got rank 1}}
  %0 = tile.mask %s causal : tensor<?xf32, #tile.dims<T>> {}
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.mask' op needs exactly one of 'causal' or a predicate region}}
  %0 = tile.mask %s : tensor<?x?xf32, #tile.dims<S, T>> {}
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.mask' op needs exactly one of 'causal' or a predicate region}}
  %0 = tile.mask %s causal : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%i: index, %j: index):
    %p = arith.cmpi ule, %j, %i : index
    tile.yield %p : i1
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.mask' op predicate region argument #1 is 'i32', expected 'index'}}
  %0 = tile.mask %s : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%i: index, %j: i32):
    %t = arith.constant true
    tile.yield %t : i1
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.mask' op predicate region must yield one 'i1'}}
  %0 = tile.mask %s : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%i: index, %j: index):
    tile.yield %i : index
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.mask' op failed to verify that all of {scores, result} have same type}}
  %0 = "tile.mask"(%s) <{causal}> ({}) : (tensor<?x?xf32, #tile.dims<S, T>>) -> tensor<?x?xf16, #tile.dims<S, T>>
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?xf32, #tile.dims<T>>) {
  // expected-error@+1 {{'tile.score_mod' op score modifiers apply to score matrices of rank >= 2, got rank 1}}
  %0 = tile.score_mod %s : tensor<?xf32, #tile.dims<T>> {
  ^bb0(%x: f32, %i: index, %j: index):
    tile.yield %x : f32
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.score_mod' op body region takes 1 arguments, expected 3}}
  %0 = tile.score_mod %s : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.score_mod' op body region argument #0 is 'f16', expected 'f32'}}
  %0 = tile.score_mod %s : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%x: f16, %i: index, %j: index):
    %e = arith.extf %x : f16 to f32
    tile.yield %e : f32
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.score_mod' op body region must yield one 'f32'}}
  %0 = tile.score_mod %s : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%x: f32, %i: index, %j: index):
    tile.yield %i : index
  }
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// Empty scalar regions (regression: these crashed the verifier)
//===----------------------------------------------------------------------===//

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  // expected-error@+1 {{'tile.map' op body region must end in tile.yield}}
  %0 = tile.map %x : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%a: f32):
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  // expected-error@+1 {{'tile.contract' op epilogue region must end in tile.yield}}
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.mask' op predicate region must end in tile.yield}}
  %0 = tile.mask %s : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%i: index, %j: index):
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  // expected-error@+1 {{'tile.score_mod' op body region must end in tile.yield}}
  %0 = tile.score_mod %s : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%x: f32, %i: index, %j: index):
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %b: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, %bs: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  // expected-error@+1 {{'tile.contract' op contraction #0 names scales but has no scale_block}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

tile.kernel @f(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %b: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, %bs: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  // expected-error@+1 {{'tile.contract' op contraction #0: rhs_scale names no operand}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 7, scale_block = 16>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

tile.kernel @f(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %b: tensor<?x?xf4E2M1FN, #tile.dims<K, N>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, %bs: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  // expected-error@+1 {{'tile.contract' op contraction #0: block-scaled operands are read K-major (lhs [M, K], rhs [N, K] with transpose_b)}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<K, N>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 16)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = false, lhs_scale = 2, rhs_scale = 3, scale_block = 16>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

tile.kernel @f(%a: tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, %b: tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, %as: tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, %bs: tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 32)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  // expected-error@+1 {{'tile.contract' op rhs_scale}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf4E2M1FN, #tile.dims<M, K>>, tensor<?x?xf4E2M1FN, #tile.dims<N, K>>, tensor<?x?xf8E4M3FN, #tile.dims<M, cdiv(K, 16)>>, tensor<?x?xf8E4M3FN, #tile.dims<N, cdiv(K, 32)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 16>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

// rhs_scale_rows: the rhs scales cover blocks of rows ([cdiv(N, 128), ...]),
// checked like the rest of the scale's shape.
tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, %bs: tensor<?x?xf32, #tile.dims<N, cdiv(K, 128)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  // expected-error@+1 {{'tile.contract' op rhs_scale is [N, cdiv(K,128)], expected [cdiv(N,128), cdiv(K,128)] (axis 0)}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf32, #tile.dims<N, cdiv(K, 128)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128, rhs_scale_rows = 128>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

tile.kernel @f(%a: tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, %b: tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, %as: tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, %bs: tensor<?x?xf32, #tile.dims<N, cdiv(K, 128)>>) -> tensor<?x?xf16, #tile.dims<M, N>> {
  // expected-error@+1 {{'tile.contract' op contraction #0: rhs_scale_rows must be positive}}
  %0 = tile.contract(%a, %b, %as, %bs : tensor<?x?xf8E4M3FN, #tile.dims<M, K>>, tensor<?x?xf8E4M3FN, #tile.dims<N, K>>, tensor<?x?xf32, #tile.dims<M, cdiv(K, 128)>>, tensor<?x?xf32, #tile.dims<N, cdiv(K, 128)>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true, lhs_scale = 2, rhs_scale = 3, scale_block = 128, rhs_scale_rows = 0>] -> tensor<?x?xf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to f16
    tile.yield %t : f16
  }
  tile.return %0 : tensor<?x?xf16, #tile.dims<M, N>>
}

// -----

// expected-error@+1 {{acc_stages must be 1 or 2, got 3}}
#bad_acc_stages = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 1, persistent = true, group_m = 8, acc_stages = 3>

// -----

// Extents reach the manifest, whose kernels index with 32-bit coordinates.
// expected-error@+1 {{'tile.kernel' op argument #0 has extent 9223372036854775807; kernels index with 32-bit coordinates (at most 2147483647)}}
tile.kernel @f(%a: tensor<9223372036854775807xf32, #tile.dims<9223372036854775807>>) {
  tile.return
}

// -----

// (The kernel is verified before its body, which is not reached.)
// expected-error@+1 {{'tile.kernel' op result #0 has extent 2147483648; kernels index with 32-bit coordinates (at most 2147483647)}}
tile.kernel @f() -> tensor<2147483648xf32, #tile.dims<2147483648>> {
  tile.return
}

// -----

// A variant is folded into its primary's manifest.
// expected-error@+1 {{'tile.kernel' op variant_of names 'missing', which is not a tile.kernel of this module}}
tile.kernel @f() attributes {variant_of = @missing} {
  tile.return
}

// -----

// expected-error@+1 {{attribute 'variant_of' failed to satisfy constraint: flat symbol reference attribute}}
tile.kernel @f() attributes {variant_of = 3} {
  tile.return
}

// -----

// expected-error@+1 {{'tile.kernel' op variant_of must name a primary kernel, not a variant: 'f'}}
tile.kernel @f() attributes {variant_of = @f} {
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?xf32, #tile.dims<M>>) {
  tile.return
}
// expected-error@+1 {{'tile.kernel' op is a variant of 'f' but its signature differs: '() -> ()' vs '(tensor<?xf32, #tile.dims<M>>) -> ()'}}
tile.kernel @g() attributes {variant_of = @f} {
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.attention
//===----------------------------------------------------------------------===//

// Rank 2 has no batch or head axis to walk.
tile.kernel @f(%q: tensor<?x128xbf16, #tile.dims<S, 128>>, %k: tensor<?x128xbf16, #tile.dims<T, 128>>, %v: tensor<?x128xbf16, #tile.dims<T, 128>>) {
  // expected-error@+1 {{'tile.attention' op q, k and v must have one rank from 3 to 5, got 2, 2 and 2}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x128xbf16, #tile.dims<S, 128>>, tensor<?x128xbf16, #tile.dims<T, 128>>, tensor<?x128xbf16, #tile.dims<T, 128>> -> tensor<?x128xbf16, #tile.dims<S, 128>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op lse is [B, H, T], expected [B, H, S] (axis 2)}}
  %o, %l = tile.attention %q, %k, %k mask_kind = none, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, lse tensor<?x?x?xf32, #tile.dims<B, H, T>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op q, k and v must have one rank from 3 to 5, got 4, 3 and 4}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op operand element types differ: 'bf16' and 'f16'; both must match (8-bit floats may mix)}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xi8, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op operand #0 must be ranked tensor of bf16, f16, f32, e4m3, e5m2 or e2m1 values}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xi8, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x64xbf16, #tile.dims<B, H, T, 64>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op head dims differ: D=128 from q, D=64 from k}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x64xbf16, #tile.dims<B, H, T, 64>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, U, 128>>) {
  // expected-error@+1 {{'tile.attention' op key lengths differ: T=T from k, T=U from v}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, U, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

// A key/value head axis is q's or 1 (grouped-query attention), nothing else.
tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, G, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op k batch axes [B, G] must be q's [B, H] or 1 (axis 1)}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, G, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<C, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op v batch axes [C, H] must be q's [B, H] or 1 (axis 0)}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<C, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

// The result is [.., S, Dv].
tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op result is [B, H, S, 64], expected [B, H, S, 128] (axis 3)}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x64xbf16, #tile.dims<B, H, S, 64>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op result has rank 3, expected 4 ([B, H, S, 128])}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x128xbf16, #tile.dims<H, S, 128>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op result #0 must be ranked tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<?x?x?x128xf8E4M3FN, #tile.dims<B, H, S, 128>>'}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xf8E4M3FN, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op p_type must be a float type, got 'i32'}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = i32 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

// P @ V is one MMA: P is rounded to v's type.
tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op p_type 'f16' differs from v's element type 'bf16'; the second product multiplies the two}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = f16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+2 {{expected ::kiln::tile::AttentionMask to be one of: none, causal}}
  // expected-error@+1 {{failed to parse Tile_AttentionMaskAttr parameter 'value' which is to be a `::kiln::tile::AttentionMask`}}
  %o = tile.attention %q, %k, %v mask_kind = sliding, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
  tile.return
}

// -----

// The score region is (score, i, j) -> f32.
tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op score region takes 1 arguments, expected 3}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> score {
  ^bb0(%s: f32):
    tile.yield %s : f32
  }
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op score region argument #0 is 'bf16', expected 'f32'}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> score {
  ^bb0(%s: bf16, %i: index, %j: index):
    %x = arith.extf %s : bf16 to f32
    tile.yield %x : f32
  }
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op score region must yield one 'f32'}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> score {
  ^bb0(%s: f32, %i: index, %j: index):
    %x = arith.truncf %s : f32 to bf16
    tile.yield %x : bf16
  }
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op score region must end in tile.yield}}
  %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> score {
  ^bb0(%s: f32, %i: index, %j: index):
  }
  tile.return
}

// -----

// The mask region is (i, j) -> i1.
tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op mask region takes 3 arguments, expected 2}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> mask {
  ^bb0(%x: f32, %i: index, %j: index):
    %p = arith.cmpi ule, %j, %i : index
    tile.yield %p : i1
  }
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op mask region argument #1 is 'i32', expected 'index'}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> mask {
  ^bb0(%i: index, %j: i32):
    %p = arith.constant true
    tile.yield %p : i1
  }
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op mask region must yield one 'i1'}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> mask {
  ^bb0(%i: index, %j: index):
    %d = arith.subi %i, %j : index
    tile.yield %d : index
  }
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, %k: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, %v: tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>) {
  // expected-error@+1 {{'tile.attention' op mask region must end in tile.yield}}
  %o = tile.attention %q, %k, %v mask_kind = none, p_type = bf16 : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>, tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>> -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>> mask {
  ^bb0(%i: index, %j: index):
  }
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, %k: tensor<?x?x64xbf16, #tile.dims<H, T, 64>>,
               %a: tensor<?xi32, #tile.dims<B+1>>, %b: tensor<?xi32, #tile.dims<C+1>>) {
  // expected-error@+1 {{'tile.segmented_matmul' op segment offsets differ in extent: B+1 and C+1}}
  %s = tile.segmented_matmul %q, %k segments(%a, %b) : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<C+1>> -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, %k: tensor<?x?x32xbf16, #tile.dims<H, T, 32>>,
               %a: tensor<?xi32, #tile.dims<B+1>>) {
  // expected-error@+1 {{'tile.segmented_matmul' op contraction dims differ: D=64 from lhs, D=32 from rhs}}
  %s = tile.segmented_matmul %q, %k segments(%a, %a) : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x32xbf16, #tile.dims<H, T, 32>>, tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>> -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, %k: tensor<?x64xbf16, #tile.dims<T, 64>>,
               %a: tensor<?xi32, #tile.dims<B+1>>) {
  // expected-error@+1 {{'tile.segmented_matmul' op lhs and rhs must have one rank of at least 2, got 3 and 2}}
  %s = tile.segmented_matmul %q, %k segments(%a, %a) : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x64xbf16, #tile.dims<T, 64>>, tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>> -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, %k: tensor<?x?x64xbf16, #tile.dims<G, T, 64>>,
               %a: tensor<?xi32, #tile.dims<B+1>>) {
  // expected-error@+1 {{'tile.segmented_matmul' op rhs batch axes [G] must be lhs's [H] or 1 (axis 0)}}
  %s = tile.segmented_matmul %q, %k segments(%a, %a) : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<G, T, 64>>, tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>> -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, %k: tensor<?x?x64xbf16, #tile.dims<H, T, 64>>,
               %a: tensor<?xi32, #tile.dims<B+1>>) {
  // expected-error@+1 {{'tile.segmented_matmul' op result is [H, S, S], expected [H, S, T] (axis 2)}}
  %s = tile.segmented_matmul %q, %k segments(%a, %a) : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>> -> tensor<?x?x?xf32, #tile.dims<H, S, S>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, %k: tensor<?x?x64xbf16, #tile.dims<H, T, 64>>,
               %a: tensor<?xi32, #tile.dims<B+1>>, %b: tensor<?xi32, #tile.dims<C+1>>) {
  // expected-error@+1 {{'tile.attention' op segment offsets differ in extent: B+1 and C+1}}
  %o = tile.attention %q, %k, %k segments(%a, %b : tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<C+1>>) mask_kind = none, p_type = bf16 : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>> -> tensor<?x?x64xbf16, #tile.dims<H, S, 64>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, %k: tensor<?x?x64xbf16, #tile.dims<H, T, 64>>,
               %a: tensor<?xi32, #tile.dims<B+1>>) {
  // expected-error@+1 {{'tile.attention' op takes segment offsets for q and k, or neither}}
  %o = "tile.attention"(%q, %k, %k, %a) <{mask_kind = #tile<attention_mask causal>, p_type = bf16, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> ({}, {}) : (tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?xi32, #tile.dims<B+1>>) -> tensor<?x?x64xbf16, #tile.dims<H, S, 64>>
  tile.return
}

// -----

tile.kernel @f(%q: tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, %k: tensor<?x?x64xbf16, #tile.dims<H, T, 64>>,
               %a: tensor<?x2xi32, #tile.dims<B, 2>>, %b: tensor<?xi32, #tile.dims<B+1>>) {
  // expected-error@+1 {{'tile.segmented_matmul' op segment offsets are i32[B+1], got ranks 2 and 1}}
  %s = tile.segmented_matmul %q, %k segments(%a, %b) : tensor<?x?x64xbf16, #tile.dims<H, S, 64>>, tensor<?x?x64xbf16, #tile.dims<H, T, 64>>, tensor<?x2xi32, #tile.dims<B, 2>>, tensor<?xi32, #tile.dims<B+1>> -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
  tile.return
}

// -----

// A grouped contraction: lhs [T, K], rhs [E, N, K], offsets [E+1].
tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?xbf16, #tile.dims<N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.contract' op contraction #0: grouped operands are lhs [T, K], rhs [E, N, K] and groups [E+1]; got ranks 2, 2, 1}}
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?xbf16, #tile.dims<N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E>>) {
  // expected-error@+1 {{'tile.contract' op offsets is [E], expected [E+1] (axis 0)}}
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<T, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xbf16, #tile.dims<T, K>>, %w: tensor<?x?x?xbf16, #tile.dims<E, N, K>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.contract' op result is [E, N], expected [T, N] (axis 0)}}
  %0 = tile.contract(%x, %w : tensor<?x?xbf16, #tile.dims<T, K>>, tensor<?x?x?xbf16, #tile.dims<E, N, K>>) groups(%o : tensor<?xi32, #tile.dims<E+1>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<E, N>> {
  ^bb0(%acc: f32):
    tile.yield %acc : f32
  }
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, %xs: tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, %w: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, %ws: tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op block scales need both scale tensors and both blocks, or none of them}}
  %y = tile.grouped_matmul %x, %w, %o scales(%xs, %ws : tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>) {transpose_b} : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, %xs: tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, %w: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, %ws: tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op block-scaled experts are read K-major: rhs [E, N, K] with transpose_b}}
  %y = tile.grouped_matmul %x, %w, %o scales(%xs, %ws : tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>) {lhs_block = array<i64: 1, 32>, rhs_block = array<i64: 1, 32>} : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, K>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, %xs: tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, %w: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, %ws: tensor<?x?xf8E8M0FNU, #tile.dims<N, cdiv(K, 32)>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op rhs_scale has rank 2, expected 3 ([E, N, cdiv(K,32)])}}
  %y = tile.grouped_matmul %x, %w, %o scales(%xs, %ws : tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, tensor<?x?xf8E8M0FNU, #tile.dims<N, cdiv(K, 32)>>) {lhs_block = array<i64: 1, 32>, rhs_block = array<i64: 1, 32>, transpose_b} : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%x: tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, %xs: tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, %w: tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, %ws: tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.grouped_matmul' op lhs_scale's block must be two positive extents}}
  %y = tile.grouped_matmul %x, %w, %o scales(%xs, %ws : tensor<?x?xf8E8M0FNU, #tile.dims<T, cdiv(K, 32)>>, tensor<?x?x?xf8E8M0FNU, #tile.dims<E, N, cdiv(K, 32)>>) {lhs_block = array<i64: 32>, rhs_block = array<i64: 1, 32>, transpose_b} : tensor<?x?xf8E4M3FN, #tile.dims<T, K>>, tensor<?x?x?xf8E4M3FN, #tile.dims<E, N, K>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

//===----------------------------------------------------------------------===//
// tile.per_group
//===----------------------------------------------------------------------===//

tile.kernel @f(%b: tensor<?xbf16, #tile.dims<E>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.per_group' op expects input [E, X], offsets [E+1] and a result [T, X]; got ranks 1, 1, 2}}
  %0 = tile.per_group %b, %o : tensor<?xbf16, #tile.dims<E>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xbf16, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%b: tensor<?x?xbf16, #tile.dims<E, N>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.per_group' op result element type 'f32' differs from the input's 'bf16'}}
  %0 = tile.per_group %b, %o : tensor<?x?xbf16, #tile.dims<E, N>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xf32, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%b: tensor<?x?xbf16, #tile.dims<E, N>>, %o: tensor<?xi32, #tile.dims<E>>) {
  // expected-error@+1 {{'tile.per_group' op offsets is [E], expected [E+1] (axis 0)}}
  %0 = tile.per_group %b, %o : tensor<?x?xbf16, #tile.dims<E, N>>, tensor<?xi32, #tile.dims<E>> -> tensor<?x?xbf16, #tile.dims<T, N>>
  tile.return
}

// -----

tile.kernel @f(%b: tensor<?x?xbf16, #tile.dims<E, N>>, %o: tensor<?xi32, #tile.dims<E+1>>) {
  // expected-error@+1 {{'tile.per_group' op result is [T, M], expected [T, N] (axis 1)}}
  %0 = tile.per_group %b, %o : tensor<?x?xbf16, #tile.dims<E, N>>, tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xbf16, #tile.dims<T, M>>
  tile.return
}
