// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the cta dialect's types, attributes, parsers
// and verifiers (dialects/Cta/IR/CtaTypes.cpp, CtaOps.cpp), plus the ODS
// constraints that guard them.

//===----------------------------------------------------------------------===//
// !cta.buffer parsing and verification
//===----------------------------------------------------------------------===//

cta.program @p() {
  // expected-error@+1 {{unknown swizzle 'b128'; expected none, 32B, 64B or 128B}}
  %0 = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "b128">
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{unknown buffer parameter 'layout'}}
  %0 = cta.alloc : !cta.buffer<128x64xbf16, layout = "128B">
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{expected '='}}
  %0 = cta.alloc : !cta.buffer<128x64xbf16, stages 4>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{expected static shape}}
  %0 = cta.alloc : !cta.buffer<?x64xbf16>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a buffer is a 2-D tile with positive extents}}
  %0 = cta.alloc : !cta.buffer<2x128x64xbf16>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a buffer is a 2-D tile with positive extents}}
  %0 = cta.alloc : !cta.buffer<128xbf16>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a buffer is a 2-D tile with positive extents}}
  %0 = cta.alloc : !cta.buffer<0x64xbf16>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a buffer has 1 to 16 stages, got 0}}
  %0 = cta.alloc : !cta.buffer<128x64xbf16, stages = 0>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a buffer has 1 to 16 stages, got 1000000}}
  %0 = cta.alloc : !cta.buffer<128x64xbf16, stages = 1000000>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a buffer of 16 stage(s) of 128x64 16-bit elements exceeds the 232448 bytes of shared memory a CTA can have}}
  %0 = cta.alloc : !cta.buffer<128x64xbf16, stages = 16>
  cta.return
}

// -----

cta.program @p() {
  // The size in bits overflows int64; it must be an error, not a wrap.
  // expected-error@+1 {{a buffer of 1 stage(s) of 4611686018427387904x4611686018427387904 16-bit elements exceeds}}
  %0 = cta.alloc : !cta.buffer<4611686018427387904x4611686018427387904xbf16>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a ring has 1 to 16 stages, got 0}}
  %r = cta.ring {consumers = 1 : i64} : !cta.ring<0>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a ring has 1 to 16 stages, got 1000000}}
  %r = cta.ring {consumers = 1 : i64} : !cta.ring<1000000>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{buffer elements must be integers or floats, got 'index'}}
  %0 = cta.alloc : !cta.buffer<128x64xindex>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// !cta.acc
//===----------------------------------------------------------------------===//

cta.program @p() {
  // expected-error@+1 {{an accumulator is a 2-D tile with positive extents}}
  %z = cta.acc_zero : !cta.acc<f32>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{an accumulator is a 2-D tile with positive extents}}
  %z = cta.acc_zero : !cta.acc<2x64x64xf32>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{an accumulator is a 2-D tile with positive extents}}
  %z = cta.acc_zero : !cta.acc<0x64xf32>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{accumulator elements must be integers or floats, got 'index'}}
  %z = cta.acc_zero : !cta.acc<64x64xindex>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// !cta.frag
//===----------------------------------------------------------------------===//

// acc and lhs fragments are 2-D tiles.
// expected-error@+1 {{a fragment in the acc layout has 2 positive extents}}
cta.program @p() attributes {t = !cta.frag<64xf32, acc>} {
  cta.return
}

// -----

// expected-error@+1 {{a fragment in the lhs layout has 2 positive extents}}
cta.program @p() attributes {t = !cta.frag<64x0xbf16, lhs>} {
  cta.return
}

// -----

// rows and cols fragments are vectors.
// expected-error@+1 {{a fragment in the rows layout has 1 positive extents}}
cta.program @p() attributes {t = !cta.frag<64x128xf32, rows>} {
  cta.return
}

// -----

// expected-error@+1 {{a fragment in the cols layout has 1 positive extents}}
cta.program @p() attributes {t = !cta.frag<0xf32, cols>} {
  cta.return
}

// -----

// expected-error@+1 {{fragment elements must be integers or floats, got 'index'}}
cta.program @p() attributes {t = !cta.frag<64x64xindex, acc>} {
  cta.return
}

// -----

// expected-error@+2 {{expected ::kiln::cta::FragLayout to be one of: acc, lhs, rows, cols}}
// expected-error@+1 {{failed to parse Cta_FragType parameter 'layout'}}
cta.program @p() attributes {t = !cta.frag<64x64xf32, tmem>} {
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// #cta.swizzle, #cta.role, #cta.schedule
//===----------------------------------------------------------------------===//

// expected-error@+1 {{unknown swizzle 'b128'; expected none, 32B, 64B or 128B}}
cta.program @p() attributes {s = #cta.swizzle<"b128">} {
  cta.return
}

// -----

// expected-error@+1 {{a role has 1 to 32 warps, got 0}}
cta.program @p() attributes {r = #cta.role<producer, warps = 0>} {
  cta.return
}

// -----

// expected-error@+1 {{a role has 1 to 32 warps, got 33}}
cta.program @p() attributes {r = #cta.role<mma, warps = 33>} {
  cta.return
}

// -----

// expected-error@+1 {{a math role is whole warpgroups (a multiple of 4 warps), got 6}}
cta.program @p() attributes {r = #cta.role<math, warps = 6>} {
  cta.return
}

// -----

// expected-error@+1 {{epilogue role is whole warpgroups (a multiple of 4 warps), got 2}}
cta.program @p() attributes {r = #cta.role<epilogue, warps = 2>} {
  cta.return
}

// -----

// expected-error@+1 {{registers per thread must be a multiple of 8 in [24, 256], got 16}}
cta.program @p() attributes {r = #cta.role<producer, warps = 4, regs = 16>} {
  cta.return
}

// -----

// expected-error@+1 {{registers per thread must be a multiple of 8 in [24, 256], got 236}}
cta.program @p() attributes {r = #cta.role<math, warps = 8, regs = 236>} {
  cta.return
}

// -----

// expected-error@+1 {{registers per thread must be a multiple of 8 in [24, 256], got 264}}
cta.program @p() attributes {r = #cta.role<math, warps = 4, regs = 264>} {
  cta.return
}

// -----

// setmaxnreg resizes whole warpgroups.
// expected-error@+1 {{a role that resizes registers is whole warpgroups, got 1 warps}}
cta.program @p() attributes {r = #cta.role<producer, warps = 1, regs = 40>} {
  cta.return
}

// -----

// expected-error@+2 {{expected ::kiln::cta::RoleKind to be one of: producer, math, mma, epilogue}}
// expected-error@+1 {{failed to parse Cta_RoleAttr parameter 'kind'}}
cta.program @p() attributes {r = #cta.role<consumer, warps = 4>} {
  cta.return
}

// -----

// expected-error@+1 {{stages must be 1 to 16, got 0}}
cta.program @p() attributes {s = #cta.schedule<stages = 0, math_warpgroups = 2>} {
  cta.return
}

// -----

// expected-error@+1 {{stages must be 1 to 16, got 17}}
cta.program @p() attributes {s = #cta.schedule<stages = 17, math_warpgroups = 2>} {
  cta.return
}

// -----

// expected-error@+1 {{math_warpgroups must be 1 to 4, got 0}}
cta.program @p() attributes {s = #cta.schedule<stages = 4, math_warpgroups = 0>} {
  cta.return
}

// -----

// expected-error@+1 {{math_warpgroups must be 1 to 4, got 5}}
cta.program @p() attributes {s = #cta.schedule<stages = 4, math_warpgroups = 5>} {
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.program
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'cta.program' op returns nothing; outputs are memref arguments}}
cta.program @p() -> index {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op tensor argument #0 needs a cta.param}}
cta.program @p(%a: memref<?x?xbf16>) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op index argument #1 needs a cta.dim}}
cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %m: index) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op argument #0 must be a memref or an index, got 'f32'}}
cta.program @p(%x: f32) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op cluster must be two positive extents}}
cta.program @p() attributes {cluster = array<i64: 2>} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op cluster must be two positive extents}}
cta.program @p() attributes {cluster = array<i64: 0, 1>} {
  cta.return
}

// -----

// Each extent is bounded before the product, which would wrap to 0.
// expected-error@+1 {{'cta.program' op cluster must be two positive extents of at most 16 CTAs in all}}
cta.program @p() attributes {cluster = array<i64: 4294967296, 4294967296>} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op block must be three positive extents of at most 1024 threads in all, got array<i64: 0, 1, 1>}}
cta.program @p() attributes {block = array<i64: 0, 1, 1>} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op block must be three positive extents of at most 1024 threads in all}}
cta.program @p() attributes {block = array<i64: 512, 4, 1>} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op block must be three positive extents}}
cta.program @p() attributes {block = array<i64: 128, 1>} {
  cta.return
}

// -----

// expected-error@+1 {{expected input, output or scale, got 'bogus'}}
cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", bogus, [M, K]>}) {
  cta.return
}

// -----

// The runtime ranks variants by tile cost; NaN compares false both ways.
// expected-error@+1 {{'cta.program' op tile_cost must be a positive finite float, got 0x7FF8000000000000 : f64}}
cta.program @p() attributes {tile_cost = 0x7FF8000000000000 : f64} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op tile_cost must be a positive finite float, got -1.000000e+00 : f64}}
cta.program @p() attributes {tile_cost = -1.0 : f64} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op tail_cost must be a finite float >= 0, got 0x7FF0000000000000 : f64}}
cta.program @p() attributes {tail_cost = 0x7FF0000000000000 : f64, tile_cost = 1.0 : f64} {
  cta.return
}

// -----

// The cta passes read only #cta.schedule (a #tile.schedule left over from
// convert-tile-to-cta's input is rejected too).
// expected-error@+1 {{attribute 'schedule' failed to satisfy constraint: how the program overlaps copies and math}}
cta.program @p() attributes {schedule = 4 : i64} {
  cta.return
}

// -----

// expected-error@+1 {{attribute 'schedule' failed to satisfy constraint: how the program overlaps copies and math}}
cta.program @p() attributes {schedule = #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4, cluster_m = 1, cluster_n = 1, consumers = 2, persistent = true, group_m = 8>} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
cta.program @p()

// -----

// Buffers and rings live for the whole program.
cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%m, %m) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{'cta.alloc' op expects parent op 'cta.program'}}
    %0 = cta.alloc : !cta.buffer<64x64xbf16>
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%m, %m) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{'cta.ring' op expects parent op 'cta.program'}}
    %0 = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  }
  cta.return
}

// -----

cta.program @p() {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'cta.yield' op expects parent op to be one of 'cta.tile_loop, cta.mainloop, cta.store, cta.warp_specialize, cta.produce, cta.consume, cta.frag_map, cta.tmem_update'}}
  cta.yield %c0 : index
}

// -----

//===----------------------------------------------------------------------===//
// cta.tile_loop
//===----------------------------------------------------------------------===//

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{expected the tile walk: static, batched, grouped or stream_k}}
  cta.tile_loop (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op needs one tile size per extent, got 1 for 2}}
  cta.tile_loop static (%m, %m) tile [128] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op tile sizes must be positive}}
  cta.tile_loop static (%m, %m) tile [128, 0] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op a static walk tiles 2 axes, got 3}}
  cta.tile_loop static (%m, %m, %m) tile [1, 128, 128] {
  ^bb0(%b: index, %m0: index, %n0: index):
  }
  cta.return
}

// -----

// Batched walks have at least one batch axis before the tile's rows and
// columns.
cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op a batched walk has leading batch axes: needs at least 3 extents, got 2}}
  cta.tile_loop batched (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// Beyond three axes the grid cannot hold the tile counts: persistent only.
cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op a batched walk over 4 axes is persistent (a grid has 3 axes)}}
  cta.tile_loop batched (%m, %m, %m, %m) tile [1, 1, 128, 128] {
  ^bb0(%a: index, %b: index, %m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op a grouped walk needs offsets and a group count}}
  cta.tile_loop grouped (%m, %m) tile [128, 128] {
  ^bb0(%g: index, %m0: index, %n0: index, %m_end: index, %row_tile: index):
  }
  cta.return
}

// -----

cta.program @p(%o: memref<?xi32> {cta.param = #cta.param<"offsets", input, [D0]>}, %m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op only a grouped walk takes offsets}}
  cta.tile_loop static offsets(%o : memref<?xi32>, %m) (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op a stream_k walk tiles M, N and K: needs 3 extents, got 2}}
  cta.tile_loop stream_k (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index, %kb: index, %ke: index):
  } {persistent}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op halves splits the partial last wave of a stream_k walk; this walk is static}}
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {persistent, halves}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op a stream_k walk is persistent: its clusters share tiles, so all must run at once}}
  cta.tile_loop stream_k (%m, %m, %m) tile [128, 128, 64] {
  ^bb0(%m0: index, %n0: index, %kb: index, %ke: index, %p: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op body arguments must be ('index', 'index', 'index', 'index', 'index')}}
  cta.tile_loop stream_k (%m, %m, %m) tile [128, 128, 64] {
  ^bb0(%m0: index, %n0: index):
  } {persistent}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %acc = cta.acc_zero : <64x128xf32>
    // expected-error@+1 {{'cta.stream_k_join' op must be inside a stream_k cta.tile_loop}}
    %s, %d = cta.stream_k_join %acc partial %m0 k [%m0, %n0) of %m : !cta.acc<64x128xf32> -> !cta.acc<64x128xf32>
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>}, %m: index {cta.dim = #cta.dim<M>}) {
  %buf = cta.alloc : <64x128xbf16>
  cta.tile_loop stream_k (%m, %m, %m) tile [128, 128, 64] {
  ^bb0(%m0: index, %n0: index, %kb: index, %ke: index, %p: index):
    %acc = cta.acc_zero : <64x128xf32>
    %s, %d = cta.stream_k_join %acc partial %p k [%kb, %ke) of %m : !cta.acc<64x128xf32> -> !cta.acc<64x128xf32>
    // expected-error@+1 {{'cta.store' op in a stream_k walk must run only when its cta.stream_k_join completes the tile (inside scf.if on its completion flag)}}
    cta.store %s -> %c[%m0, %n0] staging %buf : !cta.acc<64x128xf32> -> memref<?x?xbf16>, !cta.buffer<64x128xbf16> {
    ^bb0(%e: f32):
      %t = arith.truncf %e : f32 to bf16
      cta.yield %t : bf16
    }
  } {persistent}
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>}, %m: index {cta.dim = #cta.dim<M>}) {
  %buf = cta.alloc : <64x128xbf16>
  cta.tile_loop stream_k (%m, %m, %m) tile [128, 128, 64] {
  ^bb0(%m0: index, %n0: index, %kb: index, %ke: index, %p: index):
    %acc = cta.acc_zero : <64x128xf32>
    %s, %d = cta.stream_k_join %acc partial %p k [%kb, %ke) of %m : !cta.acc<64x128xf32> -> !cta.acc<64x128xf32>
    scf.if %d {
      // expected-error@+1 {{'cta.store' op in a stream_k walk must store the sums of one cta.stream_k_join (a tile part holds partial sums)}}
      cta.store %acc -> %c[%m0, %n0] staging %buf : !cta.acc<64x128xf32> -> memref<?x?xbf16>, !cta.buffer<64x128xbf16> {
      ^bb0(%e: f32):
        %t = arith.truncf %e : f32 to bf16
        cta.yield %t : bf16
      }
    }
  } {persistent}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop stream_k (%m, %m, %m) tile [128, 128, 64] {
  ^bb0(%m0: index, %n0: index, %kb: index, %ke: index, %p: index):
    %acc = cta.acc_zero : <64x128xf32>
    // expected-error@+1 {{'cta.stream_k_join' op results must match the accumulators}}
    %s, %d = cta.stream_k_join %acc partial %p k [%kb, %ke) of %m : !cta.acc<64x128xf32> -> !cta.acc<64x64xf32>
  } {persistent}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop stream_k (%m, %m, %m) tile [128, 128, 64] {
  ^bb0(%m0: index, %n0: index, %kb: index, %ke: index, %p: index):
    // expected-error@+1 {{'cta.stream_k_join' op needs at least one accumulator}}
 %d = "cta.stream_k_join"(%p, %kb, %ke, %m) : (index, index, index, index) -> i1
  } {persistent}
  cta.return
}

// -----

cta.program @p(%o: memref<?xi32> {cta.param = #cta.param<"offsets", input, [D0]>}, %m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op a grouped walk tiles rows and columns after any batch axes: needs at least 2 extents, got 1}}
  cta.tile_loop grouped offsets(%o : memref<?xi32>, %m) (%m) tile [128] {
  ^bb0(%g: index, %m0: index, %m_end: index, %row_tile: index):
  }
  cta.return
}

// -----

cta.program @p(%o: memref<?xi64> {cta.param = #cta.param<"offsets", input, [D0]>}, %m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op offsets must be a rank-1 i32 tensor, got 'memref<?xi64>'}}
  cta.tile_loop grouped offsets(%o : memref<?xi64>, %m) (%m, %m) tile [128, 128] {
  ^bb0(%g: index, %m0: index, %n0: index, %m_end: index, %row_tile: index):
  }
  cta.return
}

// -----

cta.program @p(%o: memref<?x?xi32> {cta.param = #cta.param<"offsets", input, [M, K]>}, %m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op offsets must be a rank-1 i32 tensor, got 'memref<?x?xi32>'}}
  cta.tile_loop grouped offsets(%o : memref<?x?xi32>, %m) (%m, %m) tile [128, 128] {
  ^bb0(%g: index, %m0: index, %n0: index, %m_end: index, %row_tile: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op group_m must be at least 1}}
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {group_m = 0 : i64}
  cta.return
}

// -----

// The generated getter is unsigned: -1 read as 2^64 - 1 passed a "< 1" check.
cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op group_m must be at least 1 and at most 2147483647 (the lowering's tile arithmetic is 32-bit), got -1}}
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {group_m = -1 : i64}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op group_m must be at least 1 and at most 2147483647 (the lowering's tile arithmetic is 32-bit), got 4294967296}}
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {group_m = 4294967296 : i64}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op cluster must be [n, 1]: CTAs of a cluster share tile columns}}
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {cluster = array<i64: 1, 2>}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op cluster must be [n, 1]: CTAs of a cluster share tile columns}}
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {cluster = array<i64: 0, 1>}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op cluster must be [n, 1]: CTAs of a cluster share tile columns}}
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {cluster = array<i64: 2>}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op results must match the carried values}}
  %r = cta.tile_loop static (%m, %m) tile [128, 128] iter_args(%m : index) -> (i32) {
  ^bb0(%m0: index, %n0: index, %x: index):
    cta.yield %x : index
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op body arguments must be ('index', 'index', 'index')}}
  %r = cta.tile_loop static (%m, %m) tile [128, 128] iter_args(%m : index) -> (index) {
  ^bb0(%m0: index, %n0: index):
    cta.yield %m0 : index
  }
  cta.return
}

// -----

// A batched walk's body takes one coordinate per axis.
cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op body arguments must be ('index', 'index', 'index')}}
  cta.tile_loop batched (%m, %m, %m) tile [1, 128, 128] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// A grouped walk's body takes the group, then the tile origin, the group's
// end row and the tile's row-tile index.
cta.program @p(%o: memref<?xi32> {cta.param = #cta.param<"offsets", input, [D0]>}, %m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op body arguments must be ('index', 'index', 'index', 'index', 'index')}}
  cta.tile_loop grouped offsets(%o : memref<?xi32>, %m) (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  %c = arith.constant 0 : i32
  // expected-error@+1 {{'cta.tile_loop' op body yields 1 values that do not match the carried types}}
  %r = cta.tile_loop static (%m, %m) tile [128, 128] iter_args(%m : index) -> (index) {
  ^bb0(%m0: index, %n0: index, %x: index):
    cta.yield %c : i32
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op body must end in cta.yield}}
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    cta.return
  }
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.mainloop
//===----------------------------------------------------------------------===//

cta.program @p(%k: index {cta.dim = #cta.dim<K>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op step must be positive and at most 2147483647, got 0}}
  %r = cta.mainloop %k step 0 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%k: index {cta.dim = #cta.dim<K>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op results must match the carried values}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x128xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%k: index {cta.dim = #cta.dim<K>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op body arguments must be ('index', '!cta.acc<64x64xf32>')}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%acc: !cta.acc<64x64xf32>):
    cta.yield %acc : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

// Register fragments are carried like accumulators (attention's running row
// maxima); the body takes them in order.
cta.program @p(%k: index {cta.dim = #cta.dim<K>}) {
  %x = arith.constant 0.0 : f32
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  %m = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
  // expected-error@+1 {{'cta.mainloop' op body arguments must be ('index', '!cta.acc<64x64xf32>', '!cta.frag<64xf32, rows>')}}
  %r:2 = cta.mainloop %k step 64 iter_args(%z, %m : !cta.acc<64x64xf32>, !cta.frag<64xf32, rows>) -> !cta.acc<64x64xf32>, !cta.frag<64xf32, rows> {
  ^bb0(%k0: index, %mm: !cta.frag<64xf32, rows>, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc, %mm : !cta.acc<64x64xf32>, !cta.frag<64xf32, rows>
  }
  cta.return
}

// -----

cta.program @p(%k: index {cta.dim = #cta.dim<K>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op body must end in cta.yield}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
    cta.return
  }
  cta.return
}

// -----

// Regression: an empty body crashed the verifier.
cta.program @p(%k: index {cta.dim = #cta.dim<K>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op body must end in cta.yield}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
  }
  cta.return
}

// -----

cta.program @p(%k: index {cta.dim = #cta.dim<K>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op body yields 2 values that do not match the carried types}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc, %acc : !cta.acc<64x64xf32>, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.load
//===----------------------------------------------------------------------===//

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op needs 2 indices, got 1}}
  cta.load %a[%i] -> %s : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?xbf16> {cta.param = #cta.param<"a", input, [D0]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op copies 2-D tiles of a source of rank 2 to 5, got rank 1}}
  cta.load %a[%i] -> %s : memref<?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?x?x?x?x?xbf16> {cta.param = #cta.param<"a", input, [D0, D1, D2, D3, D4, D5]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op copies 2-D tiles of a source of rank 2 to 5, got rank 6}}
  cta.load %a[%i, %i, %i, %i, %i, %i] -> %s : memref<?x?x?x?x?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op source elements 'f16' differ from buffer elements 'bf16'}}
  cta.load %a[%i, %i] -> %s : memref<?x?xf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

// A copy that reads only the tensor's rows lands whole in one CTA's buffer.
cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op rows_within reads a tile of whole buffer rows from one copy; it cannot be multicast or fill dst_rows}}
  cta.load %a[%i, %i] -> %s rows_within %i {multicast = 2 : i64} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op rows_within reads a tile of whole buffer rows from one copy; it cannot be multicast or fill dst_rows}}
  cta.load %a[%i, %i] -> %s rows_within %i {dst_rows = array<i64: 0, 32>} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op multicast must be 1 to 16, got 0}}
  cta.load %a[%i, %i] -> %s {multicast = 0 : i64} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op multicast must be 1 to 16, got 32}}
  cta.load %a[%i, %i] -> %s {multicast = 32 : i64} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

// The lowering builds the multicast mask as (1 << multicast) - 1: 64 would
// shift past the width.
cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op multicast must be 1 to 16, got 64}}
  cta.load %a[%i, %i] -> %s {multicast = 64 : i64} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op multicast must be 1 to 16, got -1}}
  cta.load %a[%i, %i] -> %s {multicast = -1 : i64} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<256x64xbf16>
  // expected-error@+1 {{'cta.load' op dst_rows must be [begin, end] within the 256 buffer rows}}
  cta.load %a[%i, %i] -> %s {dst_rows = array<i64: 128, 384>} : memref<?x?xbf16> -> !cta.buffer<256x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<256x64xbf16>
  // expected-error@+1 {{'cta.load' op dst_rows must be [begin, end] within the 256 buffer rows}}
  cta.load %a[%i, %i] -> %s {dst_rows = array<i64: 128, 128>} : memref<?x?xbf16> -> !cta.buffer<256x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<256x64xbf16>
  // expected-error@+1 {{'cta.load' op dst_rows must be [begin, end] within the 256 buffer rows}}
  cta.load %a[%i, %i] -> %s {dst_rows = array<i64: 0, 64, 128>} : memref<?x?xbf16> -> !cta.buffer<256x64xbf16>
  cta.return
}

// -----

// Each CTA of a multicast copies an equal share of the rows it fills.
cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op multicast 3 does not divide the 64 rows copied}}
  cta.load %a[%i, %i] -> %s {multicast = 3 : i64} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<256x64xbf16>
  // expected-error@+1 {{'cta.load' op multicast 3 does not divide the 8 rows copied}}
  cta.load %a[%i, %i] -> %s {dst_rows = array<i64: 120, 128>, multicast = 3 : i64} : memref<?x?xbf16> -> !cta.buffer<256x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16, stages = 4>
  // expected-error@+1 {{'cta.load' op buffer has several stages and needs a [slot]}}
  cta.load %a[%i, %i] -> %s : memref<?x?xbf16> -> !cta.buffer<64x64xbf16, stages = 4>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op buffer has one stage and takes no slot}}
  cta.load %a[%i, %i] -> %s[%i] : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.mma with block scales (NVFP4: e2m1 data, 4 atoms of 16-element blocks
// per 128 rows and 256 K)
//===----------------------------------------------------------------------===//

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %b = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %sa = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %sb = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op scale_block and scale_slots need scales}}
  %r = cta.mma %a, %b, %z {transpose_b, scale_block = 16 : i64} : !cta.buffer<128x256xf4E2M1FN>, !cta.buffer<128x256xf4E2M1FN>, !cta.acc<128x128xf32>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %b = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %sa = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %sb = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op scale_block must be 16 or 32 K elements}}
  %r = cta.mma %a, %b, %z scales(%sa, %sb) {transpose_b, scale_block = 8 : i64} : !cta.buffer<128x256xf4E2M1FN>, !cta.buffer<128x256xf4E2M1FN>, !cta.acc<128x128xf32>, !cta.buffer<128x16xf8E4M3FN>, !cta.buffer<128x16xf8E4M3FN>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %b = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %sa = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %sb = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op scale_block must be 16 or 32 K elements}}
  %r = cta.mma %a, %b, %z scales(%sa, %sb) {transpose_b} : !cta.buffer<128x256xf4E2M1FN>, !cta.buffer<128x256xf4E2M1FN>, !cta.acc<128x128xf32>, !cta.buffer<128x16xf8E4M3FN>, !cta.buffer<128x16xf8E4M3FN>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %b = cta.alloc : !cta.buffer<256x128xf4E2M1FN>
  %sa = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %sb = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op block-scaled operands are read K-major (transpose_b)}}
  %r = cta.mma %a, %b, %z scales(%sa, %sb) {scale_block = 16 : i64} : !cta.buffer<128x256xf4E2M1FN>, !cta.buffer<256x128xf4E2M1FN>, !cta.acc<128x128xf32>, !cta.buffer<128x16xf8E4M3FN>, !cta.buffer<128x16xf8E4M3FN>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %b = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %sa = cta.alloc : !cta.buffer<64x16xf8E4M3FN>
  %sb = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op lhs_scale must hold 4 scale-factor atoms as a 128x16 buffer of 8-bit scales, got 64x16x'f8E4M3FN'}}
  %r = cta.mma %a, %b, %z scales(%sa, %sb) {transpose_b, scale_block = 16 : i64} : !cta.buffer<128x256xf4E2M1FN>, !cta.buffer<128x256xf4E2M1FN>, !cta.acc<128x128xf32>, !cta.buffer<64x16xf8E4M3FN>, !cta.buffer<128x16xf8E4M3FN>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %b = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %sa = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %sb = cta.alloc : !cta.buffer<128x16xbf16>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op rhs_scale must hold 4 scale-factor atoms as a 128x16 buffer of 8-bit scales, got 128x16x'bf16'}}
  %r = cta.mma %a, %b, %z scales(%sa, %sb) {transpose_b, scale_block = 16 : i64} : !cta.buffer<128x256xf4E2M1FN>, !cta.buffer<128x256xf4E2M1FN>, !cta.acc<128x128xf32>, !cta.buffer<128x16xf8E4M3FN>, !cta.buffer<128x16xbf16>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %b = cta.alloc : !cta.buffer<128x256xf4E2M1FN>
  %sa = cta.alloc : !cta.buffer<128x16xf8E4M3FN, stages = 2>
  %sb = cta.alloc : !cta.buffer<128x16xf8E4M3FN>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op lhs_scale has several stages and needs a [slot]}}
  %r = cta.mma %a, %b, %z scales(%sa, %sb) {transpose_b, scale_block = 16 : i64} : !cta.buffer<128x256xf4E2M1FN>, !cta.buffer<128x256xf4E2M1FN>, !cta.acc<128x128xf32>, !cta.buffer<128x16xf8E4M3FN, stages = 2>, !cta.buffer<128x16xf8E4M3FN>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.mma
//===----------------------------------------------------------------------===//

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<64x64xbf16, stages = 2>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op lhs has several stages and needs a [slot]}}
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<64x64xbf16, stages = 2>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<64x64xbf16>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op rhs has one stage and takes no slot}}
  %r = cta.mma %a, %b[%i], %z {transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p() {
  %a = cta.alloc : !cta.buffer<64x64xbf16>
  %b = cta.alloc : !cta.buffer<128x32xbf16>
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.mma' op contraction extents differ: K=64 in lhs, K=32 in rhs}}
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<128x32xbf16>, !cta.acc<64x128xf32>
  cta.return
}

// -----

// Without transpose_b the rhs is K x N.
cta.program @p() {
  %a = cta.alloc : !cta.buffer<64x64xbf16>
  %b = cta.alloc : !cta.buffer<128x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op contraction extents differ: K=64 in lhs, K=128 in rhs}}
  %r = cta.mma %a, %b, %z : !cta.buffer<64x64xbf16>, !cta.buffer<128x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p() {
  %a = cta.alloc : !cta.buffer<64x64xbf16>
  %b = cta.alloc : !cta.buffer<256x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.mma' op accumulator has 128 columns but rhs provides 256}}
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<256x64xbf16>, !cta.acc<64x128xf32>
  cta.return
}

// -----

cta.program @p() {
  %a = cta.alloc : !cta.buffer<64x64xbf16>
  %b = cta.alloc : !cta.buffer<128x64xbf16>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op accumulator rows (128) must equal lhs rows (64) or select a slice with 'rows'}}
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<128x64xbf16>, !cta.acc<128x128xf32>
  cta.return
}

// -----

cta.program @p() {
  %a = cta.alloc : !cta.buffer<128x64xbf16>
  %b = cta.alloc : !cta.buffer<128x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.mma' op accumulator rows (64) must equal lhs rows (128) or select a slice with 'rows'}}
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<128x64xbf16>, !cta.acc<64x128xf32>
  cta.return
}

// -----

cta.program @p() {
  %a = cta.alloc : !cta.buffer<64x64xf16>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op lhs elements 'f16' differ from rhs elements 'bf16'}}
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<64x64xf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

// The fp8 formats mix with each other but not with 16-bit types.
cta.program @p() {
  %a = cta.alloc : !cta.buffer<64x128xf8E4M3FN>
  %b = cta.alloc : !cta.buffer<64x128xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op lhs elements 'f8E4M3FN' differ from rhs elements 'bf16'}}
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<64x128xf8E4M3FN>, !cta.buffer<64x128xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

// A register lhs is attention's P: an lhs-layout fragment of the
// accumulator's rows.
cta.program @p() {
  %x = arith.constant 0.0 : bf16
  %p = cta.splat %x : bf16 -> !cta.frag<64x64xbf16, acc>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op a register lhs must be in the lhs layout, got acc}}
  %r = cta.mma %p, %b, %z : !cta.frag<64x64xbf16, acc>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %x = arith.constant 0.0 : bf16
  %p = cta.splat %x : bf16 -> !cta.frag<64x64xbf16, lhs>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op a register lhs takes no slot or rows}}
  %r = cta.mma %p rows %i, %b, %z : !cta.frag<64x64xbf16, lhs>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %x = arith.constant 0.0 : bf16
  %p = cta.splat %x : bf16 -> !cta.frag<64x64xbf16, lhs>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op a register lhs takes no slot or rows}}
  %r = cta.mma %p[%i], %b, %z : !cta.frag<64x64xbf16, lhs>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p() {
  %x = arith.constant 0.0 : bf16
  %p = cta.splat %x : bf16 -> !cta.frag<128x64xbf16, lhs>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op accumulator rows (64) must equal the register lhs rows (128)}}
  %r = cta.mma %p, %b, %z : !cta.frag<128x64xbf16, lhs>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p() {
  %x = arith.constant 0.0 : f16
  %p = cta.splat %x : f16 -> !cta.frag<64x64xf16, lhs>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op lhs elements 'f16' differ from rhs elements 'bf16'}}
  %r = cta.mma %p, %b, %z : !cta.frag<64x64xf16, lhs>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p() {
  %x = arith.constant 0.0 : bf16
  %p = cta.splat %x : bf16 -> !cta.frag<64x128xbf16, lhs>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op contraction extents differ: K=128 in lhs, K=64 in rhs}}
  %r = cta.mma %p, %b, %z : !cta.frag<64x128xbf16, lhs>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p() {
  %a = cta.alloc : !cta.buffer<64x64xbf16>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op failed to verify that all of {acc, result} have same type}}
  %r = "cta.mma"(%a, %b, %z) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0>, transpose_b}>
      : (!cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>) -> !cta.acc<64x64xf16>
  cta.return
}

// -----

// `accumulate` is an i1 flag.
cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %a = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op operand #3 must be 1-bit signless integer, but got 'index'}}
  %r = "cta.mma"(%a, %a, %z, %i) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0>, transpose_b}>
      : (!cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>, index) -> !cta.acc<64x64xf32>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.split_cols
//===----------------------------------------------------------------------===//

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x256xf32>
  // expected-error@+1 {{'cta.split_cols' op splits 256 columns into equal groups, not 3}}
  %a:3 = cta.split_cols %z : !cta.acc<64x256xf32> -> !cta.acc<64x64xf32>, !cta.acc<64x64xf32>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x256xf32>
  // expected-error@+1 {{'cta.split_cols' op splits 256 columns into equal groups, not 0}}
  "cta.split_cols"(%z) : (!cta.acc<64x256xf32>) -> ()
  cta.return
}

// -----

// The parts keep the rows and element type and take an equal share of the
// columns, in order. (The message spells the element type as 'f32' inside
// the type; the patterns accept it with or without the quotes.)
cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x256xf32>
  // expected-error@+1 {{'cta.split_cols' op each part is '!cta.acc<64x128xf32>'}}
  %a:2 = cta.split_cols %z : !cta.acc<64x256xf32> -> !cta.acc<64x192xf32>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x256xf32>
  // expected-error@+1 {{'cta.split_cols' op each part is '!cta.acc<64x128xf32>'}}
  %a:2 = cta.split_cols %z : !cta.acc<64x256xf32> -> !cta.acc<32x128xf32>, !cta.acc<32x128xf32>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x256xf32>
  // expected-error@+1 {{'cta.split_cols' op each part is '!cta.acc<64x128xf32>'}}
  %a:2 = cta.split_cols %z : !cta.acc<64x256xf32> -> !cta.acc<64x128xf32>, !cta.acc<64x128xf16>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.store
//===----------------------------------------------------------------------===//

cta.program @p(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.store' op needs at least one value to store}}
  "cta.store"(%c, %i, %i) <{operandSegmentSizes = array<i32: 0, 0, 1, 2, 0, 0, 0, 0>}> ({
  ^bb0:
    %x = arith.constant 0.0 : f32
    cta.yield %x : f32
  }) : (memref<?x?xf32>, index, index) -> ()
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op stores 2-D tiles with one index per axis of a destination of rank 2 to 5 (a tensor map's)}}
  cta.store %z -> %c[%i] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?xf32> {cta.param = #cta.param<"c", input, [D0]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op stores 2-D tiles with one index per axis of a destination of rank 2 to 5 (a tensor map's)}}
  cta.store %z -> %c[%i] : !cta.acc<64x64xf32> -> memref<?xf32> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?x?x?x?x?xf32> {cta.param = #cta.param<"c", input, [D0, D1, D2, D3, D4, D5]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op stores 2-D tiles with one index per axis of a destination of rank 2 to 5 (a tensor map's)}}
  cta.store %z -> %c[%i, %i, %i, %i, %i, %i] : !cta.acc<64x64xf32> -> memref<?x?x?x?x?x?xf32> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?x?xf32> {cta.param = #cta.param<"c", input, [D0, D1, D2]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op stores 2-D tiles with one index per axis of a destination of rank 2 to 5 (a tensor map's)}}
  cta.store %z -> %c[%i, %i] : !cta.acc<64x64xf32> -> memref<?x?x?xf32> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

// Row vectors and lhs fragments are not tiles to store.
cta.program @p(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %x = arith.constant 0.0 : f32
  %r = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
  // expected-error@+1 {{'cta.store' op stores accumulators or acc fragments, got '!cta.frag<64xf32, rows>'}}
  cta.store %r -> %c[%i, %i] : !cta.frag<64xf32, rows> -> memref<?x?xf32> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %x = arith.constant 0.0 : bf16
  %p = cta.splat %x : bf16 -> !cta.frag<64x64xbf16, lhs>
  // expected-error@+1 {{'cta.store' op stores accumulators or acc fragments, got '!cta.frag<64x64xbf16, lhs>'}}
  cta.store %p -> %c[%i, %i] : !cta.frag<64x64xbf16, lhs> -> memref<?x?xbf16> {
  ^bb0(%e: bf16):
    cta.yield %e : bf16
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  %y = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.store' op stored values must have one 2-D shape}}
  cta.store %z, %y -> %c[%i, %i] : !cta.acc<64x64xf32>, !cta.acc<64x128xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

// An accumulator and an acc fragment of one shape may be stored together,
// but not of different shapes.
cta.program @p(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %x = arith.constant 0.0 : f32
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  %f = cta.splat %x : f32 -> !cta.frag<128x64xf32, acc>
  // expected-error@+1 {{'cta.store' op stored values must have one 2-D shape}}
  cta.store %z, %f -> %c[%i, %i] : !cta.acc<64x64xf32>, !cta.frag<128x64xf32, acc> -> memref<?x?xf32> {
  ^bb0(%e: f32, %g: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%b: memref<?xf32> {cta.param = #cta.param<"b", input, [D0]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op needs one kind per epilogue input, got 0 for 1}}
  "cta.store"(%z, %b, %c, %i, %i) <{input_kinds = [], operandSegmentSizes = array<i32: 1, 1, 1, 2, 0, 0, 0, 0>}> ({
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }) : (!cta.acc<64x64xf32>, memref<?xf32>, memref<?x?xf32>, index, index) -> ()
  cta.return
}

// -----

// Each epilogue input names the kind it is read as.
cta.program @p(%b: memref<?xf32> {cta.param = #cta.param<"b", input, [D0]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{custom op 'cta.store' unknown epilogue input kind 'per_column'; expected scalar, per_row, per_col or tile}}
  cta.store %z inputs(%b per_column : memref<?xf32>) -> %c[%i, %i] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

// A rank-1 input is a bias along the columns or a scalar; a per-row scale
// is [M, 1].
cta.program @p(%b: memref<?xf32> {cta.param = #cta.param<"b", input, [D0]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op epilogue input #0 of rank 1 cannot be read per_row}}
  cta.store %z inputs(%b per_row : memref<?xf32>) -> %c[%i, %i] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

// A per-expert input is read at the tile's group, which the store names.
cta.program @p(%b: memref<?x?xf32> {cta.param = #cta.param<"b", input, [E, N]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, N]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op epilogue input #0 is read per_group_col, which needs the tile's group}}
  cta.store %z inputs(%b per_group_col : memref<?x?xf32>) -> %c[%i, %i] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%b: memref<?x?xf32> {cta.param = #cta.param<"b", input, [M, N]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, N]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op has a group but no epilogue input read per_group or per_group_col}}
  cta.store %z inputs(%b tile : memref<?x?xf32>) -> %c[%i, %i] group %i : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%b: memref<?xf32> {cta.param = #cta.param<"b", input, [E]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, N]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op epilogue input #0 of rank 1 cannot be read per_group}}
  cta.store %z inputs(%b per_group : memref<?xf32>) -> %c[%i, %i] group %i : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%b: memref<?xf32> {cta.param = #cta.param<"b", input, [D0]>}, %r: memref<?x?x?xf32> {cta.param = #cta.param<"r", input, [D0, D1, D2]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op epilogue input #1 of rank 3 cannot be read tile}}
  cta.store %z inputs(%b per_col, %r tile : memref<?xf32>, memref<?x?x?xf32>) -> %c[%i, %i] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32, %f: f32, %g: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

// In the generic form, input kinds are InputKind values (0 to 5).
cta.program @p(%b: memref<?xf32> {cta.param = #cta.param<"b", input, [D0]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op attribute 'input_kinds' failed to satisfy constraint: epilogue input kinds}}
  "cta.store"(%z, %b, %c, %i, %i) <{input_kinds = [7 : i32], operandSegmentSizes = array<i32: 1, 1, 1, 2, 0, 0, 0, 0>}> ({
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }) : (!cta.acc<64x64xf32>, memref<?xf32>, memref<?x?xf32>, index, index) -> ()
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xf32>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op staging elements 'f32' differ from destination elements 'bf16'}}
  cta.store %z -> %c[%i, %i] staging %s : !cta.acc<64x64xf32> -> memref<?x?xbf16>, !cta.buffer<64x64xf32> {
  ^bb0(%e: f32):
    %t = arith.truncf %e : f32 to bf16
    cta.yield %t : bf16
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16, stages = 2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op staging has several stages and needs a [slot]}}
  cta.store %z -> %c[%i, %i] staging %s : !cta.acc<64x64xf32> -> memref<?x?xbf16>, !cta.buffer<64x64xbf16, stages = 2> {
  ^bb0(%e: f32):
    %t = arith.truncf %e : f32 to bf16
    cta.yield %t : bf16
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16, stages = 2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  %slot = arith.constant 2 : index
  // expected-error@+1 {{'cta.store' op staging slot 2 is out of range: the ring has 2 stages}}
  cta.store %z -> %c[%i, %i] staging %s[%slot] : !cta.acc<64x64xf32> -> memref<?x?xbf16>, !cta.buffer<64x64xbf16, stages = 2> {
  ^bb0(%e: f32):
    %t = arith.truncf %e : f32 to bf16
    cta.yield %t : bf16
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16, stages = 2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  %slot = arith.constant -1 : index
  // expected-error@+1 {{'cta.store' op staging slot -1 is out of range: the ring has 2 stages}}
  cta.store %z -> %c[%i, %i] staging %s[%slot] : !cta.acc<64x64xf32> -> memref<?x?xbf16>, !cta.buffer<64x64xbf16, stages = 2> {
  ^bb0(%e: f32):
    %t = arith.truncf %e : f32 to bf16
    cta.yield %t : bf16
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op staging has one stage and takes no slot}}
  cta.store %z -> %c[%i, %i] staging %s[%i] : !cta.acc<64x64xf32> -> memref<?x?xbf16>, !cta.buffer<64x64xbf16> {
  ^bb0(%e: f32):
    %t = arith.truncf %e : f32 to bf16
    cta.yield %t : bf16
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op epilogue takes one element per stored value, then one per epilogue input}}
  cta.store %z, %z -> %c[%i, %i] : !cta.acc<64x64xf32>, !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

// The epilogue reads each input in its own element type, after the stored
// values.
cta.program @p(%b: memref<?xbf16> {cta.param = #cta.param<"b", input, [D0]>}, %c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op epilogue takes one element per stored value, then one per epilogue input}}
  cta.store %z inputs(%b per_col : memref<?xbf16>) -> %c[%i, %i] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op body yields 1 values that do not match the carried types}}
  cta.store %z -> %c[%i, %i] : !cta.acc<64x64xf32> -> memref<?x?xbf16> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %i: index {cta.dim = #cta.dim<M>}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op body must end in cta.yield}}
  cta.store %z -> %c[%i, %i] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32):
    cta.return
  }
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.splat
//===----------------------------------------------------------------------===//

cta.program @p() {
  %x = arith.constant 0.0 : f16
  // expected-error@+1 {{'cta.splat' op splats a 'f16' into a fragment of 'f32'}}
  %f = cta.splat %x : f16 -> !cta.frag<64xf32, rows>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.frag_map
//===----------------------------------------------------------------------===//

// An lhs fragment is made by cta.convert, not computed element by element.
cta.program @p() {
  %x = arith.constant 0.0 : bf16
  %p = cta.splat %x : bf16 -> !cta.frag<64x64xbf16, acc>
  // expected-error@+1 {{'cta.frag_map' op yields an accumulator}}
  %y = cta.frag_map %p : !cta.frag<64x64xbf16, acc> -> !cta.frag<64x64xbf16, lhs> {
  ^bb0(%i: index, %j: index, %v: bf16):
    cta.yield %v : bf16
  }
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.frag_map' op inputs must have the result's shape}}
  %y = cta.frag_map %z : !cta.acc<64x128xf32> -> !cta.frag<64x64xf32, acc> {
  ^bb0(%i: index, %j: index, %v: f32):
    cta.yield %v : f32
  }
  cta.return
}

// -----

// Row vectors have one value per row, column vectors one per column.
cta.program @p() {
  %x = arith.constant 0.0 : f32
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  %r = cta.splat %x : f32 -> !cta.frag<128xf32, rows>
  // expected-error@+1 {{'cta.frag_map' op input '!cta.frag<128xf32, rows>' is neither the result's tile nor one of its row or column vectors}}
  %y = cta.frag_map %z, %r : !cta.acc<64x128xf32>, !cta.frag<128xf32, rows> -> !cta.frag<64x128xf32, acc> {
  ^bb0(%i: index, %j: index, %v: f32, %w: f32):
    cta.yield %v : f32
  }
  cta.return
}

// -----

cta.program @p() {
  %x = arith.constant 0.0 : f32
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  %c = cta.splat %x : f32 -> !cta.frag<64xf32, cols>
  // expected-error@+1 {{'cta.frag_map' op input '!cta.frag<64xf32, cols>' is neither the result's tile nor one of its row or column vectors}}
  %y = cta.frag_map %z, %c : !cta.acc<64x128xf32>, !cta.frag<64xf32, cols> -> !cta.frag<64x128xf32, acc> {
  ^bb0(%i: index, %j: index, %v: f32, %w: f32):
    cta.yield %v : f32
  }
  cta.return
}

// -----

// An lhs fragment is read only by the MMA.
cta.program @p() {
  %x = arith.constant 0.0 : bf16
  %p = cta.splat %x : bf16 -> !cta.frag<64x64xbf16, lhs>
  // expected-error@+1 {{'cta.frag_map' op input '!cta.frag<64x64xbf16, lhs>' is neither the result's tile nor one of its row or column vectors}}
  %y = cta.frag_map %p : !cta.frag<64x64xbf16, lhs> -> !cta.frag<64x64xbf16, acc> {
  ^bb0(%i: index, %j: index, %v: bf16):
    cta.yield %v : bf16
  }
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.frag_map' op body takes (row, col) then one element per input}}
  %y = cta.frag_map %z : !cta.acc<64x64xf32> -> !cta.frag<64x64xf32, acc> {
  ^bb0(%v: f32):
    cta.yield %v : f32
  }
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.frag_map' op body takes (row, col) then one element per input}}
  %y = cta.frag_map %z : !cta.acc<64x64xf32> -> !cta.frag<64x64xf32, acc> {
  ^bb0(%i: index, %j: index, %v: f16):
    %e = arith.extf %v : f16 to f32
    cta.yield %e : f32
  }
  cta.return
}

// -----

// The body yields one element of the result's type.
cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.frag_map' op body yields 1 values that do not match the carried types}}
  %y = cta.frag_map %z : !cta.acc<64x64xf32> -> !cta.frag<64x64xbf16, acc> {
  ^bb0(%i: index, %j: index, %v: f32):
    cta.yield %v : f32
  }
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.frag_map' op body must end in cta.yield}}
  %y = cta.frag_map %z : !cta.acc<64x64xf32> -> !cta.frag<64x64xf32, acc> {
  ^bb0(%i: index, %j: index, %v: f32):
  }
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.scale_rows
//===----------------------------------------------------------------------===//

cta.program @p() {
  %x = arith.constant 2.0 : f32
  %r = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
  // expected-error@+1 {{'cta.scale_rows' op scales an f32 accumulator or acc fragment}}
  %y = cta.scale_rows %r by %r : !cta.frag<64xf32, rows>, !cta.frag<64xf32, rows>
  cta.return
}

// -----

cta.program @p() {
  %x = arith.constant 2.0 : f32
  %h = arith.constant 2.0 : f16
  %p = cta.splat %h : f16 -> !cta.frag<64x128xf16, acc>
  %r = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
  // expected-error@+1 {{'cta.scale_rows' op scales an f32 accumulator or acc fragment}}
  %y = cta.scale_rows %p by %r : !cta.frag<64x128xf16, acc>, !cta.frag<64xf32, rows>
  cta.return
}

// -----

cta.program @p() {
  %x = arith.constant 2.0 : f32
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  %r = cta.splat %x : f32 -> !cta.frag<128xf32, rows>
  // expected-error@+1 {{'cta.scale_rows' op takes one f32 factor per input row: '!cta.frag<64xf32, rows>'}}
  %y = cta.scale_rows %z by %r : !cta.acc<64x128xf32>, !cta.frag<128xf32, rows>
  cta.return
}

// -----

cta.program @p() {
  %x = arith.constant 2.0 : f32
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  %c = cta.splat %x : f32 -> !cta.frag<64xf32, cols>
  // expected-error@+1 {{'cta.scale_rows' op takes one f32 factor per input row: '!cta.frag<64xf32, rows>'}}
  %y = cta.scale_rows %z by %c : !cta.acc<64x128xf32>, !cta.frag<64xf32, cols>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.reduce_rows
//===----------------------------------------------------------------------===//

cta.program @p() {
  %x = arith.constant 0.0 : f32
  %r = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
  // expected-error@+1 {{'cta.reduce_rows' op reduces an accumulator or an acc fragment}}
  %m = cta.reduce_rows max %r : !cta.frag<64xf32, rows> -> !cta.frag<64xf32, rows>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.reduce_rows' op yields one 'f32' per input row: '!cta.frag<64xf32, rows>'}}
  %m = cta.reduce_rows sum %z : !cta.acc<64x128xf32> -> !cta.frag<128xf32, rows>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.reduce_rows' op yields one 'f32' per input row: '!cta.frag<64xf32, rows>'}}
  %m = cta.reduce_rows max %z : !cta.acc<64x128xf32> -> !cta.frag<64xf32, cols>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.reduce_rows' op yields one 'f32' per input row: '!cta.frag<64xf32, rows>'}}
  %m = cta.reduce_rows max %z : !cta.acc<64x128xf32> -> !cta.frag<64xf16, rows>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{custom op 'cta.reduce_rows' expected string or keyword containing one of the following enum values for attribute 'kind' [max, sum]}}
  %m = cta.reduce_rows min %z : !cta.acc<64x128xf32> -> !cta.frag<64xf32, rows>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.convert
//===----------------------------------------------------------------------===//

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x64xf16>
  // expected-error@+1 {{'cta.convert' op converts an f32 accumulator or acc fragment}}
  %p = cta.convert %z : !cta.acc<64x64xf16> -> !cta.frag<64x64xf16, lhs>
  cta.return
}

// -----

cta.program @p() {
  %x = arith.constant 0.0 : f32
  %r = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
  // expected-error@+1 {{'cta.convert' op converts an f32 accumulator or acc fragment}}
  %p = cta.convert %r : !cta.frag<64xf32, rows> -> !cta.frag<64x64xbf16, lhs>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.convert' op yields a bf16 or f16 fragment of the same shape in the lhs layout}}
  %p = cta.convert %z : !cta.acc<64x64xf32> -> !cta.frag<64x64xbf16, acc>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.convert' op yields a bf16 or f16 fragment of the same shape in the lhs layout}}
  %p = cta.convert %z : !cta.acc<64x64xf32> -> !cta.frag<64x128xbf16, lhs>
  cta.return
}

// -----

cta.program @p() {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.convert' op yields a bf16 or f16 fragment of the same shape in the lhs layout}}
  %p = cta.convert %z : !cta.acc<64x64xf32> -> !cta.frag<64x64xf8E4M3FN, lhs>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.ring
//===----------------------------------------------------------------------===//

cta.program @p() {
  // expected-error@+1 {{'cta.ring' op needs 1 to 1024 consumers and a cluster of 1 to 16 CTAs, got 0 and 1}}
  %r = cta.ring {consumers = 0 : i64} : !cta.ring<2>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.ring' op needs 1 to 1024 consumers and a cluster of 1 to 16 CTAs, got 2 and 32}}
  %r = cta.ring {consumers = 2 : i64, cluster_size = 32 : i64} : !cta.ring<2>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.ring' op needs 1 to 1024 consumers and a cluster of 1 to 16 CTAs, got -1 and 1}}
  %r = cta.ring {consumers = -1 : i64} : !cta.ring<2>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.warp_specialize
//===----------------------------------------------------------------------===//

cta.program @p() {
  // expected-error@+1 {{expected a #cta.role, got #cta.schedule<stages = 4, math_warpgroups = 2>}}
  cta.warp_specialize #cta.schedule<stages = 4, math_warpgroups = 2> {
  }
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op needs at least one role}}
  cta.warp_specialize
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op needs one region per role, got 1 for 2}}
  "cta.warp_specialize"() <{roles = [#cta.role<producer, warps = 4>, #cta.role<math, warps = 4>]}> ({
    cta.yield
  }) : () -> ()
  cta.return
}

// -----

// setmaxnreg acts on whole warpgroups: a role that resizes its registers
// starts on a warpgroup boundary.
cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op role #1 runs on whole warpgroups (it resizes registers or owns accumulators), so it must start on a warpgroup; it starts at warp 1}}
  cta.warp_specialize
    #cta.role<mma, warps = 1> {
    }
    #cta.role<producer, warps = 4, regs = 40> {
    }
  cta.return
}

// -----

// Math and epilogue roles own accumulators in whole warpgroups, even when
// they keep their registers.
cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op role #1 runs on whole warpgroups (it resizes registers or owns accumulators), so it must start on a warpgroup; it starts at warp 1}}
  cta.warp_specialize
    #cta.role<producer, warps = 1> {
    }
    #cta.role<math, warps = 4> {
    }
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op role #2 runs on whole warpgroups (it resizes registers or owns accumulators), so it must start on a warpgroup; it starts at warp 2}}
  cta.warp_specialize
    #cta.role<producer, warps = 1> {
    }
    #cta.role<mma, warps = 1> {
    }
    #cta.role<epilogue, warps = 4> {
    }
  cta.return
}

// -----

cta.program @p() {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'cta.warp_specialize' op role regions end in a cta.yield of nothing}}
  cta.warp_specialize
    #cta.role<producer, warps = 4> {
      cta.yield %c0 : index
    }
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op role regions end in a cta.yield of nothing}}
  cta.warp_specialize
    #cta.role<producer, warps = 4> {
      cta.return
    }
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op roles have 36 warps; a CTA has at most 32}}
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
    }
    #cta.role<math, warps = 16, regs = 112> {
    }
    #cta.role<epilogue, warps = 16> {
    }
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.produce and cta.consume
//===----------------------------------------------------------------------===//

cta.program @p(%n: index {cta.dim = #cta.dim<N>}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  // expected-error@+1 {{'cta.produce' op body arguments must be ('index', 'index')}}
  %next = cta.produce %ring at %n count %n : !cta.ring<2> {
  ^bb0(%kb: index):
  }
  cta.return
}

// -----

cta.program @p(%n: index {cta.dim = #cta.dim<N>}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.consume' op results must match the carried values}}
  %r:2 = cta.consume %ring at %n count %n iter_args(%z : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x128xf32> {
  ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%n: index {cta.dim = #cta.dim<N>}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.consume' op body arguments must be ('index', 'index', '!cta.acc<64x64xf32>')}}
  %r:2 = cta.consume %ring at %n count %n iter_args(%z : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x64xf32> {
  ^bb0(%kb: index, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%n: index {cta.dim = #cta.dim<N>}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.consume' op body yields 0 values that do not match the carried types}}
  %r:2 = cta.consume %ring at %n count %n iter_args(%z : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x64xf32> {
  ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
    cta.yield
  }
  cta.return
}

// -----

cta.program @p(%n: index {cta.dim = #cta.dim<N>}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.consume' op body must end in cta.yield}}
  %r:2 = cta.consume %ring at %n count %n iter_args(%z : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x64xf32> {
  ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
    cta.return
  }
  cta.return
}

// -----

// Regression: an empty body crashed the verifier.
cta.program @p(%n: index {cta.dim = #cta.dim<N>}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.consume' op body must end in cta.yield}}
  %r:2 = cta.consume %ring at %n count %n iter_args(%z : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x64xf32> {
  ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
  }
  cta.return
}

// -----

// An empty role block (generic form) is an error, not a read past its end.
// expected-error@+1 {{'cta.warp_specialize' op role regions end in a cta.yield of nothing}}
"cta.warp_specialize"() <{roles = [#cta.role<producer, warps = 4>]}> ({
^bb0:
}) : () -> ()

// -----

cta.program @vector_map_mixed(%M: index {cta.dim = #cta.dim<M>}) {
  %one = arith.constant 1.0 : f32
  %r = cta.splat %one : f32 -> !cta.frag<64xf32, rows>
  %c = cta.splat %one : f32 -> !cta.frag<64xf32, cols>
  // expected-error@+1 {{'cta.frag_map' op a map yielding '!cta.frag<64xf32, rows>' reads vectors of that layout and shape}}
  %m = cta.frag_map %r, %c : !cta.frag<64xf32, rows>, !cta.frag<64xf32, cols> -> !cta.frag<64xf32, rows> {
  ^bb0(%i: index, %j: index, %x: f32, %y: f32):
    cta.yield %x : f32
  }
  cta.return
}

// -----

cta.program @acc_ring_stages() {
  // expected-error@+1 {{an accumulator ring has 1 to 16 stages, got 0}}
  %r = cta.acc_ring {consumers = 1} : !cta.acc_ring<0, [!cta.acc<128x128xf32>]>
  cta.return
}

// -----

// An accumulator ring holds at least one accumulator.
cta.program @acc_ring_empty() {
  // expected-error@+2 {{expected '<'}}
  // expected-error@+1 {{failed to parse Cta_AccRingType parameter 'accs'}}
  %r = cta.acc_ring {consumers = 1} : !cta.acc_ring<2, []>
  cta.return
}

// -----

cta.program @acc_ring_consumers() {
  // expected-error@+1 {{'cta.acc_ring' op needs 1 to 4 consumer warpgroups, got 0}}
  %r = cta.acc_ring {consumers = 0} : !cta.acc_ring<2, [!cta.acc<128x128xf32>]>
  cta.return
}

// -----

cta.program @acc_acquire_types() {
  %c0 = arith.constant 0 : index
  %r = cta.acc_ring {consumers = 1} : !cta.acc_ring<2, [!cta.acc<128x128xf32>]>
  // expected-error@+1 {{'cta.acc_acquire' op results must be the ring's accumulators ('!cta.acc_ring<2, [<128x128xf32>]>'), got 1 value(s)}}
  %a = cta.acc_acquire %r at %c0 : !cta.acc_ring<2, [!cta.acc<128x128xf32>]> -> !cta.acc<128x64xf32>
  cta.return
}

// -----

cta.program @acc_commit_types() {
  %c0 = arith.constant 0 : index
  %r = cta.acc_ring {consumers = 1} : !cta.acc_ring<2, [!cta.acc<128x128xf32>, !cta.acc<128x128xf32>]>
  %a:2 = cta.acc_acquire %r at %c0 : !cta.acc_ring<2, [!cta.acc<128x128xf32>, !cta.acc<128x128xf32>]> -> !cta.acc<128x128xf32>, !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.acc_commit' op operands must be the ring's accumulators}}
  cta.acc_commit %r at %c0, %a#0 : !cta.acc_ring<2, [!cta.acc<128x128xf32>, !cta.acc<128x128xf32>]>, !cta.acc<128x128xf32>
  cta.return
}

// -----

cta.program @acc_wait_types() {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %r = cta.acc_ring {consumers = 1} : !cta.acc_ring<2, [!cta.acc<128x128xf32>]>
  // expected-error@+1 {{'cta.acc_wait' op results must be the ring's accumulators}}
  %a:2 = cta.acc_wait %r at %c0 filled %true : !cta.acc_ring<2, [!cta.acc<128x128xf32>]> -> !cta.acc<128x128xf32>, !cta.acc<128x128xf32>
  cta.return
}

// -----

// expected-error@+1 {{acc_stages must be 1 or 2, got 3}}
cta.program @acc_stages() attributes {schedule = #cta.schedule<stages = 4, math_warpgroups = 1, acc_stages = 3>} {
  cta.return
}

// -----

// expected-error@+1 {{pingpong takes turns between 2 math warpgroups holding their accumulators in registers, got math_warpgroups = 1, acc_stages = 1}}
cta.program @pingpong_one() attributes {schedule = #cta.schedule<stages = 4, math_warpgroups = 1, pingpong = true>} {
  cta.return
}

// -----

cta.program @pair_columns() {
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  %sb = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<128x64xf32>
  // expected-error@+1 {{'cta.mma' op accumulator has 64 columns but rhs provides 128 (twice its rows: a CTA pair)}}
  %r = cta.mma %sa, %sb, %z {cta_pair, transpose_b} : !cta.buffer<128x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<128x64xf32>
  cta.return
}

// -----

cta.program @pair_k_major() {
  %sa = cta.alloc : !cta.buffer<128x64xbf16>
  %sb = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op a CTA pair's MMA reads both operands K-major from shared memory (a buffer lhs, transpose_b)}}
  %r = cta.mma %sa, %sb, %z {cta_pair} : !cta.buffer<128x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<128x128xf32>
  cta.return
}

// -----

cta.program @pair_multicast(%b: memref<?x?xbf16> {cta.param = #cta.param<"b", input, [M, K]>}) {
  %c0 = arith.constant 0 : index
  %sb = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op a CTA pair's copy lands in its own CTA only; it cannot also be multicast}}
  cta.load %b[%c0, %c0] -> %sb {cta_pair, multicast = 2 : i64} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

// The manifest copies the shape, and the runtime checks it against the rank.
// expected-error@+1 {{'cta.program' op tensor argument #0: its cta.param has 1 dim expressions but its memref has rank 2}}
cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M]>}) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op tensor argument #0: its cta.param has 2 dim expressions but its memref has rank 1}}
cta.program @p(%a: memref<?xbf16> {cta.param = #cta.param<"a", input, [M, 1]>}) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op tensor argument #0 has extent 4294967296; kernels index with 32-bit coordinates (at most 2147483647)}}
cta.program @p(%a: memref<4294967296xbf16> {cta.param = #cta.param<"a", input, [4294967296]>}) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op variant_of names 'missing', which is not a cta.program of this module}}
cta.program @p() attributes {variant_of = @missing} {
  cta.return
}

// -----

// expected-error@+1 {{attribute 'variant_of' failed to satisfy constraint: flat symbol reference attribute}}
cta.program @p() attributes {variant_of = 1} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op variant_of must name a primary program, not a variant: 'p'}}
cta.program @p() attributes {variant_of = @p} {
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  cta.return
}
// expected-error@+1 {{'cta.program' op is a variant of 'p' but its signature differs: '() -> ()' vs '(index) -> ()'}}
cta.program @q() attributes {variant_of = @p} {
  cta.return
}

// -----

// A negative trip count wraps and the loop spins: a hung GPU.
cta.program @p() {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %c0 = arith.constant 0 : index
  %neg = arith.constant -1 : index
  // expected-error@+1 {{'cta.produce' op count must not be negative, got -1}}
  %n = cta.produce %ring at %c0 count %neg : !cta.ring<2> {
  ^bb0(%kb: index, %slot: index):
  }
  cta.return
}

// -----

cta.program @p() {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %c0 = arith.constant 0 : index
  %neg = arith.constant -5 : index
  // expected-error@+1 {{'cta.consume' op count must not be negative, got -5}}
  %n = cta.consume %ring at %c0 count %neg : !cta.ring<2> {
  ^bb0(%kb: index, %slot: index):
    cta.yield
  }
  cta.return
}

// -----

// The program boundary's attributes are typed: a chip Kiln knows, a dim
// expression per axis, a dim name, and nothing else in cta.* on an argument.
// expected-error@+1 {{unknown chip 'sm_80'; expected sm_90a or sm_100a}}
cta.program @p() attributes {chip = #cta.chip<sm_80>} {
  cta.return
}

// -----

// expected-error@+1 {{attribute 'chip' failed to satisfy constraint: the chip a program is lowered for}}
cta.program @p() attributes {chip = "sm_90a"} {
  cta.return
}

// -----

// expected-error@+1 {{expected ']'}}
cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [2M, K]>}) {
  cta.return
}

// -----

// expected-error@+1 {{'3M' is not a dim name (a letter or '_', then letters, digits and '_')}}
cta.program @p(%m: index {cta.dim = #cta.dim<"3M">}) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op argument #0: unknown cta attribute 'cta.role'; expected cta.param or cta.dim}}
cta.program @p(%a: memref<?x?xbf16> {cta.role = "input"}) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op argument #0: cta.param must be a #cta.param, got "a"}}
cta.program @p(%a: memref<?x?xbf16> {cta.param = "a"}) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op argument #0: cta.dim must be a #cta.dim, got "M"}}
cta.program @p(%m: index {cta.dim = "M"}) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op index argument #1: dim 'M' is already an argument}}
cta.program @p(%m: index {cta.dim = #cta.dim<M>}, %n: index {cta.dim = #cta.dim<M>}) {
  cta.return
}

// -----

// expected-error@+1 {{a scale tensor, and only one, names the tensor it scales (of = ...) and its block (block = [rows, K])}}
cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a.scale", scale, [M, K]>}) {
  cta.return
}

// -----

cta.program @p() attributes {block = array<i64: 384, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 8, regs = 240> {
    %wg = cta.warpgroup_index : index
    // expected-error@+1 {{'cta.mma_turn' op takes turns among 2 to 8 math warpgroups, got 1}}
    cta.mma_turn wait %wg of 1
  }
  cta.return
}

// -----

cta.program @p() attributes {block = array<i64: 384, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
    %wg = cta.warpgroup_index : index
    // expected-error@+1 {{'cta.mma_turn' op runs in a math role, not a producer role}}
    cta.mma_turn pass %wg of 2
  } #cta.role<math, warps = 8, regs = 240> {
  }
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.mma_turn' op runs in a math role of cta.warp_specialize}}
  cta.mma_turn start %i of 2
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op longest_first orders the row tiles of a batched walk; this walk is static}}
  cta.tile_loop static (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {longest_first}
  cta.return
}

// -----

cta.program @p() attributes {block = array<i64: 384, 1, 1>} {
  %r = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
    %pos = arith.constant 0 : index
    // expected-error@+1 {{'cta.stage_wait' op runs in a math or mma role, not a producer role}}
    %s = cta.stage_wait %r at %pos : !cta.ring<2>
  } #cta.role<math, warps = 4, regs = 240> {
  }
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = #cta.dim<M>}) {
  %r = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  // expected-error@+1 {{'cta.stage_release' op runs in a math or mma role of cta.warp_specialize}}
  cta.stage_release %r at %i : !cta.ring<2>
  cta.return
}

// -----

cta.program @p() attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 8, regs = 240> {
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %s = cta.mma %sa, %sa, %z {transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
    // expected-error@+1 {{'cta.mma_wait' op waits for the result of an asynchronous cta.mma ('async')}}
    %w = cta.mma_wait %s later 0 : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p() attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 8, regs = 240> {
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %s = cta.mma %sa, %sa, %z {async, transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
    %c = arith.constant true
    scf.if %c {
      // expected-error@+1 {{'cta.mma_wait' op must follow its asynchronous MMA in the same block}}
      %w = cta.mma_wait %s later 0 : !cta.acc<64x64xf32>
    }
  }
  cta.return
}

// -----

cta.program @p() attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 8, regs = 240> {
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    %s = cta.mma %sa, %sa, %z {async, transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
    %t = cta.mma %sa, %sa, %z {async, transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
    // expected-error@+1 {{'cta.mma_wait' op 'later' must count the asynchronous MMAs issued between the MMA and this wait (1), got 0}}
    %w = cta.mma_wait %s later 0 : !cta.acc<64x64xf32>
    %v = cta.mma_wait %t later 0 : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p() attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 8, regs = 240> {
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{'cta.mma' op an asynchronous MMA's result is read by one cta.mma_wait and nothing else}}
    %s = cta.mma %sa, %sa, %z {async, transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
    %m = cta.reduce_rows max %s : !cta.acc<64x64xf32> -> !cta.frag<64xf32, rows>
  }
  cta.return
}

// -----

cta.program @p() attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 8, regs = 240> {
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{'cta.mma' op is either part of its stage's batch ('in_stage') or asynchronous ('async'), not both}}
    %s = cta.mma %sa, %sa, %z {async, in_stage, transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
    %w = cta.mma_wait %s later 0 : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xf32> {cta.param = #cta.param<"a", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64x64xf32, acc>
    // expected-error@+1 {{'cta.store_rows' op stores a rows vector of f32, got '!cta.frag<64x64xf32, acc>'}}
    cta.store_rows %v -> %a[%c0, %c0] : !cta.frag<64x64xf32, acc> -> memref<?x?xf32>
  }
  cta.return
}

// -----

// Rows combine (atomically) into f32 only.
cta.program @p(%a: memref<?xbf16> {cta.param = #cta.param<"a", output, [M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
    // expected-error@+1 {{'cta.store_rows' op combines into f32 elements only (an atomic read-modify-write per row), not 'bf16'}}
    cta.store_rows %v -> %a[%c0] combine sum : !cta.frag<64xf32, rows> -> memref<?xbf16>
  }
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xi32> {cta.param = #cta.param<"a", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
    // expected-error@+1 {{'cta.store_rows' op writes f32, bf16 or f16 elements, not 'i32'}}
    cta.store_rows %v -> %a[%c0, %c0] : !cta.frag<64xf32, rows> -> memref<?x?xi32>
  }
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xf32> {cta.param = #cta.param<"a", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
    // expected-error@+1 {{'cta.store_rows' op takes one index per axis of the destination (2), got 1}}
    cta.store_rows %v -> %a[%c0] : !cta.frag<64xf32, rows> -> memref<?x?xf32>
  }
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xf32> {cta.param = #cta.param<"a", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
    // expected-error@+1 {{'cta.store_rows' op runs in a math or epilogue role, not a producer role}}
    cta.store_rows %v -> %a[%c0, %c0] : !cta.frag<64xf32, rows> -> memref<?x?xf32>
  } #cta.role<math, warps = 4, regs = 240> {
  }
  cta.return
}

// -----

cta.program @p(%o: memref<?x?xi32> {cta.param = #cta.param<"o", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'cta.read_index' op reads a rank-1 i32 tensor, got 'memref<?x?xi32>'}}
  %x = cta.read_index %o[%c0] : memref<?x?xi32>
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = #cta.dim<M>}) {
  // expected-error@+1 {{'cta.tile_loop' op band orders the units of a longest_first walk}}
  cta.tile_loop batched (%m, %m, %m) tile [1, 128, 128] band(%m) {
  ^bb0(%b: index, %m0: index, %n0: index):
  } {persistent}
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a tensor-memory tile is a 2-D tile with positive extents}}
  %t = cta.tmem_alloc : !cta.tmem<128xf32>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a tensor-memory tile has one row per lane: 128 rows, not 64}}
  %t = cta.tmem_alloc : !cta.tmem<64x128xf32>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{tensor-memory tiles hold f32, bf16 or f16, not 'f8E4M3FN'}}
  %t = cta.tmem_alloc : !cta.tmem<128x128xf8E4M3FN>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{1 elements of 16 bits do not fill whole 32-bit tensor-memory columns}}
  %t = cta.tmem_alloc : !cta.tmem<128x1xbf16>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a tensor-memory tile of 1024 columns; tensor memory has 512 32-bit columns}}
  %t = cta.tmem_alloc : !cta.tmem<128x1024xf32>
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{a tensor-memory tile of 4096 columns; tensor memory has 512 32-bit columns}}
  %t = cta.tmem_alloc : !cta.tmem<128x4096xbf16>
  cta.return
}

// -----

cta.program @p() {
  %t = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  // expected-error@+1 {{'cta.tmem_acc' op the accumulator of '!cta.tmem<128x128xbf16>' is '!cta.acc<128x128xbf16>' (accumulators hold f32)}}
  %a = cta.tmem_acc %t : !cta.tmem<128x128xbf16> -> !cta.acc<128x128xf32>
  cta.return
}

// -----

cta.program @p() {
  %t = cta.tmem_alloc : !cta.tmem<128x128xf32>
  // expected-error@+1 {{'cta.tmem_acc' op the accumulator of '!cta.tmem<128x128xf32>' is '!cta.acc<128x128xf32>'}}
  %a = cta.tmem_acc %t : !cta.tmem<128x128xf32> -> !cta.acc<128x64xf32>
  cta.return
}

// -----

cta.program @p() {
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    // expected-error@+1 {{'cta.tmem_alloc' op expects parent op 'cta.program'}}
    %t = cta.tmem_alloc : !cta.tmem<128x128xf32>
  }
  cta.return
}

// -----

cta.program @p() {
  %one = arith.constant 1.0 : f32
  %t = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    %v = cta.splat %one : f32 -> !cta.frag<128x64xf32, acc>
    // expected-error@+1 {{'cta.tmem_store' op writes an f32 acc fragment of the tile's shape '!cta.frag<128x128xf32, acc>', got '!cta.frag<128x64xf32, acc>'}}
    cta.tmem_store %v -> %t : !cta.frag<128x64xf32, acc>, !cta.tmem<128x128xbf16>
  }
  cta.return
}

// -----

cta.program @p() {
  %one = arith.constant 1.0 : f32
  %t = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  cta.warp_specialize #cta.role<mma, warps = 1> {
    %v = cta.splat %one : f32 -> !cta.frag<128x128xf32, acc>
    // expected-error@+1 {{'cta.tmem_store' op runs in a math or epilogue role, not a mma role}}
    cta.tmem_store %v -> %t : !cta.frag<128x128xf32, acc>, !cta.tmem<128x128xbf16>
  }
  cta.return
}

// -----

cta.program @p() {
  %t = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    // expected-error@+1 {{'cta.tmem_update' op updates f32 tiles, not '!cta.tmem<128x128xbf16>'}}
    cta.tmem_update %t : !cta.tmem<128x128xbf16> {
    ^bb0(%row: index, %col: index, %x: f32):
      cta.yield %x : f32
    }
  }
  cta.return
}

// -----

cta.program @p() {
  %one = arith.constant 1.0 : f32
  %t = cta.tmem_alloc : !cta.tmem<128x128xf32>
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    %v = cta.splat %one : f32 -> !cta.frag<64xf32, rows>
    // expected-error@+1 {{'cta.tmem_update' op inputs are rows vectors of the tile's 128 rows, got '!cta.frag<64xf32, rows>'}}
    cta.tmem_update %t inputs(%v : !cta.frag<64xf32, rows>) : !cta.tmem<128x128xf32> {
    ^bb0(%row: index, %col: index, %x: f32, %a: f32):
      cta.yield %x : f32
    }
  }
  cta.return
}

// -----

cta.program @p() {
  %t = cta.tmem_alloc : !cta.tmem<128x128xf32>
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    // expected-error@+1 {{'cta.tmem_update' op body takes (row, col, element) then one element per input}}
    cta.tmem_update %t : !cta.tmem<128x128xf32> {
    ^bb0(%row: index, %x: f32):
      cta.yield %x : f32
    }
  }
  cta.return
}

// -----

cta.program @p() {
  %t = cta.tmem_alloc : !cta.tmem<128x128xf32>
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
    // expected-error@+1 {{'cta.tmem_update' op}}
    cta.tmem_update %t : !cta.tmem<128x128xf32> {
    ^bb0(%row: index, %col: index, %x: f32):
      cta.yield %row : index
    }
  }
  cta.return
}

// -----

cta.program @p() {
  %c0 = arith.constant 0 : index
  %ring = cta.ring {consumers = 1} : !cta.ring<1>
  cta.warp_specialize #cta.role<producer, warps = 1> {
    // expected-error@+1 {{'cta.stage_acquire' op runs in a math or epilogue role, not a producer role}}
    %s = cta.stage_acquire %ring at %c0 : !cta.ring<1>
  }
  cta.return
}

// -----

cta.program @p() {
  %c0 = arith.constant 0 : index
  %ring = cta.ring {consumers = 1} : !cta.ring<1>
  // expected-error@+1 {{'cta.stage_commit' op runs in a math or epilogue role of cta.warp_specialize}}
  cta.stage_commit %ring at %c0 : !cta.ring<1>
  cta.return
}

// -----

cta.program @p() {
  %c0 = arith.constant 0 : index
  %sv = cta.alloc : !cta.buffer<128x128xbf16, stages = 2>
  %p = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
  %acc = cta.tmem_acc %o : !cta.tmem<128x128xf32> -> !cta.acc<128x128xf32>
  // expected-error@+1 {{'cta.mma' op a tensor-memory lhs takes no slot or rows}}
  %r = cta.mma %p[%c0], %sv[%c0], %acc : !cta.tmem<128x128xbf16>, !cta.buffer<128x128xbf16, stages = 2>, !cta.acc<128x128xf32>
  cta.return
}

// -----

cta.program @p() {
  %sv = cta.alloc : !cta.buffer<128x128xbf16>
  %p = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  %z = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.mma' op accumulator rows (64) must equal the tensor-memory lhs rows (128)}}
  %r = cta.mma %p, %sv, %z : !cta.tmem<128x128xbf16>, !cta.buffer<128x128xbf16>, !cta.acc<64x128xf32>
  cta.return
}

// -----

// cta.combine_cols reduces the columns of an f32 acc fragment ...
cta.program @p(%a: memref<?xf32> {cta.param = #cta.param<"a", output, [M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64xf32, rows>
    // expected-error@+1 {{'cta.combine_cols' op reduces the columns of an f32 acc fragment, got '!cta.frag<64xf32, rows>'}}
    cta.combine_cols sum %v rows [%c0, %M) -> %a[%c0] : !cta.frag<64xf32, rows> -> memref<?xf32>
  }
  cta.return
}

// -----

// ... into f32 elements ...
cta.program @p(%a: memref<?xbf16> {cta.param = #cta.param<"a", output, [M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64x64xf32, acc>
    // expected-error@+1 {{'cta.combine_cols' op combines into f32 elements only (an atomic read-modify-write per column), not 'bf16'}}
    cta.combine_cols sum %v rows [%c0, %M) -> %a[%c0] : !cta.frag<64x64xf32, acc> -> memref<?xbf16>
  }
  cta.return
}

// -----

// ... at one index per axis of the destination ...
cta.program @p(%a: memref<?x?xf32> {cta.param = #cta.param<"a", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64x64xf32, acc>
    // expected-error@+1 {{'cta.combine_cols' op takes one index per axis of the destination (2), got 1}}
    cta.combine_cols sum %v rows [%c0, %M) -> %a[%c0] : !cta.frag<64x64xf32, acc> -> memref<?x?xf32>
  }
  cta.return
}

// -----

// ... in a math or epilogue role.
cta.program @p(%a: memref<?xf32> {cta.param = #cta.param<"a", output, [M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    %v = cta.splat %x : f32 -> !cta.frag<64x64xf32, acc>
    // expected-error@+1 {{'cta.combine_cols' op runs in a math or epilogue role, not a producer role}}
    cta.combine_cols sum %v rows [%c0, %M) -> %a[%c0] : !cta.frag<64x64xf32, acc> -> memref<?xf32>
  } #cta.role<math, warps = 4, regs = 240> {
  }
  cta.return
}

// -----

// cta.read_vector reads a rows or cols vector ...
cta.program @p(%a: memref<?x?xf32> {cta.param = #cta.param<"a", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'cta.read_vector' op reads a rows or cols vector of f32, got '!cta.frag<64x64xf32, acc>'}}
  %v = cta.read_vector %a[%c0, %c0] : memref<?x?xf32> -> !cta.frag<64x64xf32, acc>
  cta.return
}

// -----

// ... of f32 elements ...
cta.program @p(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'cta.read_vector' op reads f32 elements, not 'bf16'}}
  %v = cta.read_vector %a[%c0, %c0] : memref<?x?xbf16> -> !cta.frag<64xf32, rows>
  cta.return
}

// -----

// ... along the rows of a tensor of rank 2 or more ...
cta.program @p(%a: memref<?xf32> {cta.param = #cta.param<"a", input, [M]>}, %M: index {cta.dim = #cta.dim<M>}) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'cta.read_vector' op reads a tensor of rank 2 or more, got 'memref<?xf32>'}}
  %v = cta.read_vector %a[%c0] : memref<?xf32> -> !cta.frag<64xf32, rows>
  cta.return
}

// -----

// ... at one index per axis; so does cta.read_scalar.
cta.program @p(%a: memref<?x?xf32> {cta.param = #cta.param<"a", input, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'cta.read_scalar' op takes one index per axis of the source (2), got 1}}
  %v = cta.read_scalar %a[%c0] : memref<?x?xf32>
  cta.return
}
