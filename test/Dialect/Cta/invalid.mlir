// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the cta dialect's types and verifiers.

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
  // expected-error@+1 {{a buffer needs at least one stage, got 0}}
  %0 = cta.alloc : !cta.buffer<128x64xbf16, stages = 0>
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
// cta.program
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'cta.program' op returns nothing; outputs are memref arguments}}
cta.program @p() -> index {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op tensor argument #0 needs a cta.param name}}
cta.program @p(%a: memref<?x?xbf16>) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op index argument #1 needs a cta.dim name}}
cta.program @p(%a: memref<?x?xbf16> {cta.param = "a"}, %m: index) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op argument #0 must be a memref or an index, got 'f32'}}
cta.program @p(%x: f32) {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op cta.cluster must be two positive extents}}
cta.program @p() attributes {cta.cluster = array<i64: 2>} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op cta.cluster must be two positive extents}}
cta.program @p() attributes {cta.cluster = array<i64: 0, 1>} {
  cta.return
}

// -----

// expected-error@+1 {{'cta.program' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
cta.program @p()

// -----

// Buffers and rings live for the whole program.
cta.program @p(%m: index {cta.dim = "M"}) {
  cta.tile_loop (%m, %m) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{'cta.alloc' op expects parent op 'cta.program'}}
    %0 = cta.alloc : !cta.buffer<64x64xbf16>
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  cta.tile_loop (%m, %m) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{'cta.ring' op expects parent op 'cta.program'}}
    %0 = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  }
  cta.return
}

// -----

cta.program @p() {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'cta.yield' op expects parent op to be one of 'cta.tile_loop, cta.mainloop, cta.store, cta.warp_specialize, cta.produce, cta.consume'}}
  cta.yield %c0 : index
}

// -----

//===----------------------------------------------------------------------===//
// cta.tile_loop
//===----------------------------------------------------------------------===//

cta.program @p(%m: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.tile_loop' op walks 2-D tiles: needs 2 tile sizes}}
  cta.tile_loop (%m, %m) tile [128] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.tile_loop' op tile sizes must be positive}}
  cta.tile_loop (%m, %m) tile [128, 0] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.tile_loop' op group_m must be at least 1}}
  cta.tile_loop (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {group_m = 0 : i64}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.tile_loop' op cluster must be [n, 1]: CTAs of a cluster share tile columns}}
  cta.tile_loop (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {cluster = array<i64: 1, 2>}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.tile_loop' op cluster must be [n, 1]: CTAs of a cluster share tile columns}}
  cta.tile_loop (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {cluster = array<i64: 0, 1>}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.tile_loop' op cluster must be [n, 1]: CTAs of a cluster share tile columns}}
  cta.tile_loop (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
  } {cluster = array<i64: 2>}
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.tile_loop' op results must match the carried values}}
  %r = cta.tile_loop (%m, %m) tile [128, 128] iter_args(%m : index) -> (i32) {
  ^bb0(%m0: index, %n0: index, %x: index):
    cta.yield %x : index
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.tile_loop' op body arguments must be ('index', 'index', 'index')}}
  %r = cta.tile_loop (%m, %m) tile [128, 128] iter_args(%m : index) -> (index) {
  ^bb0(%m0: index, %n0: index):
    cta.yield %m0 : index
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  %c = arith.constant 0 : i32
  // expected-error@+1 {{'cta.tile_loop' op body yields 1 values that do not match the carried types}}
  %r = cta.tile_loop (%m, %m) tile [128, 128] iter_args(%m : index) -> (index) {
  ^bb0(%m0: index, %n0: index, %x: index):
    cta.yield %c : i32
  }
  cta.return
}

// -----

cta.program @p(%m: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.tile_loop' op body must end in cta.yield}}
  cta.tile_loop (%m, %m) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    cta.return
  }
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.mainloop
//===----------------------------------------------------------------------===//

cta.program @p(%k: index {cta.dim = "K"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op step must be positive, got 0}}
  %r = cta.mainloop %k step 0 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%k: index {cta.dim = "K"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op results must match the accumulators}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x128xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%k: index {cta.dim = "K"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op body arguments must be ('index', '!cta.acc<64x64xf32>')}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%acc: !cta.acc<64x64xf32>):
    cta.yield %acc : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%k: index {cta.dim = "K"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op body must end in cta.yield}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
    cta.return
  }
  cta.return
}

// -----

cta.program @p(%k: index {cta.dim = "K"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op body yields 2 values that do not match the carried types}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc, %acc : !cta.acc<64x64xf32>, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%k: index {cta.dim = "K"}) {
  // expected-error@+1 {{'cta.mainloop' op operand #1 must be variadic of}}
  %r = cta.mainloop %k step 64 iter_args(%k : index) -> index {
  ^bb0(%k0: index, %acc: index):
    cta.yield %acc : index
  }
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.load
//===----------------------------------------------------------------------===//

cta.program @p(%a: memref<?x?xbf16> {cta.param = "a"}, %i: index {cta.dim = "M"}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op needs 2 indices, got 1}}
  cta.load %a[%i] -> %s : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?x?xbf16> {cta.param = "a"}, %i: index {cta.dim = "M"}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op copies 2-D tiles, the source has rank 3}}
  cta.load %a[%i, %i, %i] -> %s : memref<?x?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xf16> {cta.param = "a"}, %i: index {cta.dim = "M"}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op source elements 'f16' differ from buffer elements 'bf16'}}
  cta.load %a[%i, %i] -> %s : memref<?x?xf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = "a"}, %i: index {cta.dim = "M"}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op multicast must be at least 1}}
  cta.load %a[%i, %i] -> %s {multicast = 0 : i64} : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = "a"}, %i: index {cta.dim = "M"}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16, stages = 4>
  // expected-error@+1 {{'cta.load' op buffer has several stages and needs a [slot]}}
  cta.load %a[%i, %i] -> %s : memref<?x?xbf16> -> !cta.buffer<64x64xbf16, stages = 4>
  cta.return
}

// -----

cta.program @p(%a: memref<?x?xbf16> {cta.param = "a"}, %i: index {cta.dim = "M"}) {
  %s = cta.alloc : !cta.buffer<64x64xbf16>
  // expected-error@+1 {{'cta.load' op buffer has one stage and takes no slot}}
  cta.load %a[%i, %i] -> %s[%i] : memref<?x?xbf16> -> !cta.buffer<64x64xbf16>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.mma
//===----------------------------------------------------------------------===//

cta.program @p(%i: index {cta.dim = "M"}) {
  %a = cta.alloc : !cta.buffer<64x64xbf16, stages = 2>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op lhs has several stages and needs a [slot]}}
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<64x64xbf16, stages = 2>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>
  cta.return
}

// -----

cta.program @p(%i: index {cta.dim = "M"}) {
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
  %a = cta.alloc : !cta.buffer<64x64xbf16>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mma' op failed to verify that all of {acc, result} have same type}}
  %r = "cta.mma"(%a, %b, %z) <{operandSegmentSizes = array<i32: 1, 0, 0, 1, 0, 1>, transpose_b}>
      : (!cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<64x64xf32>) -> !cta.acc<64x64xf16>
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.store
//===----------------------------------------------------------------------===//

cta.program @p(%c: memref<?x?xf32> {cta.param = "c"}, %i: index {cta.dim = "M"}) {
  // expected-error@+1 {{'cta.store' op needs at least one accumulator}}
  "cta.store"(%c, %i, %i) <{operandSegmentSizes = array<i32: 0, 1, 2, 0, 0>}> ({
  ^bb0:
    %x = arith.constant 0.0 : f32
    cta.yield %x : f32
  }) : (memref<?x?xf32>, index, index) -> ()
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xf32> {cta.param = "c"}, %i: index {cta.dim = "M"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op stores 2-D tiles with one index per axis}}
  cta.store %z -> %c[%i] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?x?xf32> {cta.param = "c"}, %i: index {cta.dim = "M"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op stores 2-D tiles with one index per axis}}
  cta.store %z -> %c[%i, %i, %i] : !cta.acc<64x64xf32> -> memref<?x?x?xf32> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xf32> {cta.param = "c"}, %i: index {cta.dim = "M"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  %y = cta.acc_zero : !cta.acc<64x128xf32>
  // expected-error@+1 {{'cta.store' op accumulators must have the same shape}}
  cta.store %z, %y -> %c[%i, %i] : !cta.acc<64x64xf32>, !cta.acc<64x128xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32, %f: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = "c"}, %i: index {cta.dim = "M"}) {
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

cta.program @p(%c: memref<?x?xbf16> {cta.param = "c"}, %i: index {cta.dim = "M"}) {
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

cta.program @p(%c: memref<?x?xf32> {cta.param = "c"}, %i: index {cta.dim = "M"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op epilogue takes one element per accumulator}}
  cta.store %z, %z -> %c[%i, %i] : !cta.acc<64x64xf32>, !cta.acc<64x64xf32> -> memref<?x?xf32> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xbf16> {cta.param = "c"}, %i: index {cta.dim = "M"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.store' op body yields 1 values that do not match the carried types}}
  cta.store %z -> %c[%i, %i] : !cta.acc<64x64xf32> -> memref<?x?xbf16> {
  ^bb0(%e: f32):
    cta.yield %e : f32
  }
  cta.return
}

// -----

cta.program @p(%c: memref<?x?xf32> {cta.param = "c"}, %i: index {cta.dim = "M"}) {
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
// cta.warp_specialize
//===----------------------------------------------------------------------===//

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op needs 1 to 3 consumer warpgroups, got 0}}
  cta.warp_specialize attributes {consumer_warpgroups = 0 : i64, producer_regs = 40 : i64, consumer_regs = 232 : i64} producer {
  } consumers {
  }
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op needs 1 to 3 consumer warpgroups, got 4}}
  cta.warp_specialize attributes {consumer_warpgroups = 4 : i64, producer_regs = 40 : i64, consumer_regs = 232 : i64} producer {
  } consumers {
  }
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op register counts must be multiples of 8 in [24, 256], got 16}}
  cta.warp_specialize attributes {consumer_warpgroups = 2 : i64, producer_regs = 16 : i64, consumer_regs = 232 : i64} producer {
  } consumers {
  }
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op register counts must be multiples of 8 in [24, 256], got 236}}
  cta.warp_specialize attributes {consumer_warpgroups = 2 : i64, producer_regs = 40 : i64, consumer_regs = 236 : i64} producer {
  } consumers {
  }
  cta.return
}

// -----

cta.program @p() {
  // expected-error@+1 {{'cta.warp_specialize' op register counts must be multiples of 8 in [24, 256], got 264}}
  cta.warp_specialize attributes {consumer_warpgroups = 1 : i64, producer_regs = 40 : i64, consumer_regs = 264 : i64} producer {
  } consumers {
  }
  cta.return
}

// -----

//===----------------------------------------------------------------------===//
// cta.produce and cta.consume
//===----------------------------------------------------------------------===//

cta.program @p(%n: index {cta.dim = "N"}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  // expected-error@+1 {{'cta.produce' op body arguments must be ('index', 'index')}}
  %next = cta.produce %ring at %n count %n : !cta.ring<2> {
  ^bb0(%kb: index):
  }
  cta.return
}

// -----

cta.program @p(%n: index {cta.dim = "N"}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.consume' op results must match the accumulators}}
  %r:2 = cta.consume %ring at %n count %n iter_args(%z : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x128xf32> {
  ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
    cta.yield %acc : !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

cta.program @p(%n: index {cta.dim = "N"}) {
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

cta.program @p(%n: index {cta.dim = "N"}) {
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

cta.program @p(%n: index {cta.dim = "N"}) {
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

//===----------------------------------------------------------------------===//
// Empty bodies and !cta.acc (regression: these crashed the verifier)
//===----------------------------------------------------------------------===//

cta.program @p(%k: index {cta.dim = "K"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.mainloop' op body must end in cta.yield}}
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
  }
  cta.return
}

// -----

cta.program @p(%n: index {cta.dim = "N"}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  // expected-error@+1 {{'cta.consume' op body must end in cta.yield}}
  %r:2 = cta.consume %ring at %n count %n iter_args(%z : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x64xf32> {
  ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
  }
  cta.return
}

// -----

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
// #cta.swizzle
//===----------------------------------------------------------------------===//

// expected-error@+1 {{unknown swizzle 'b128'; expected none, 32B, 64B or 128B}}
cta.program @p() attributes {s = #cta.swizzle<"b128">} {
  cta.return
}
