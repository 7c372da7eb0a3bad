// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-cta-to-nvvm

// convert-cta-to-nvvm lowers what cta-allocate-resources decided; a program
// it has not run on is an error at the program, an op added after it ran an
// error at that op.

// expected-error@+1 {{convert-cta-to-nvvm: no shared memory allocated; run cta-allocate-resources (on a program whose chip is the target's) first}}
cta.program @unallocated(%arg0: memref<?x?xf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, 64]>}, %arg1: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, M]>}, %arg2: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>} {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = cta.alloc : <64x64xf16, stages = 2, swizzle = "128B">
  %1 = cta.alloc : <64x32xf32, swizzle = "128B">
  %2 = cta.ring {consumers = 1 : i64} : <2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
    %3 = cta.tile_loop static (%arg2, %arg2) tile [64, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %carried: index):
      %4 = cta.produce %2 at %carried count %c1 : <2> {
      ^bb0(%kb: index, %slot: index):
        %5 = arith.muli %kb, %c64 : index
        cta.load %arg0[%m0, %5] -> %0[%slot] signal %2 : memref<?x?xf16, strided<[?, 1]>> -> <64x64xf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %4 : index
    }
  } #cta.role<math, warps = 4, regs = 240> {
    %3 = cta.tile_loop static (%arg2, %arg2) tile [64, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %carried: index):
      %4 = cta.warpgroup_index : index
      %5 = arith.muli %4, %c64 : index
      %6 = cta.acc_zero : <64x64xf32>
      %7:2 = cta.consume %2 at %carried count %c1 iter_args(%6 : !cta.acc<64x64xf32>) : <2> -> !cta.acc<64x64xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
        %9 = cta.mma %0[%slot] rows %5, %0[%slot], %acc {transpose_b} : !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, <64x64xf16, stages = 2, swizzle = "128B">, <64x64xf32>
        cta.yield %9 : !cta.acc<64x64xf32>
      }
      %8 = arith.addi %m0, %5 : index
      cta.store %7#1 -> %arg1[%8, %n0] staging %1 : !cta.acc<64x64xf32> -> memref<?x?xf32, strided<[?, 1]>>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%arg3: f32):
        cta.yield %arg3 : f32
      }
      cta.yield %7#0 : index
    }
  }
  cta.return
}

// -----

cta.program @added_later(%arg0: memref<?x?xf16, strided<[?, 1]>> {cta.param = #cta.param<"a", input, [M, 64]>}, %arg1: memref<?x?xf32, strided<[?, 1]>> {cta.param = #cta.param<"c", output, [M, M]>}, %arg2: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, smem_bytes = 16384 : i64} {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = cta.alloc {smem_offset = 0 : i64} : <64x64xf16, stages = 2, swizzle = "128B">
  // expected-error@+1 {{convert-cta-to-nvvm: no shared memory allocated}}
  %1 = cta.alloc : <64x32xf32, swizzle = "128B">
  %2 = cta.ring {consumers = 1 : i64, smem_offset = 16384 : i64} : <2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
    %3 = cta.tile_loop static (%arg2, %arg2) tile [64, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %carried: index):
      %4 = cta.produce %2 at %carried count %c1 : <2> {
      ^bb0(%kb: index, %slot: index):
        %5 = arith.muli %kb, %c64 : index
        cta.load %arg0[%m0, %5] -> %0[%slot] signal %2 : memref<?x?xf16, strided<[?, 1]>> -> <64x64xf16, stages = 2, swizzle = "128B">, !cta.ring<2>
      }
      cta.yield %4 : index
    }
  } #cta.role<math, warps = 4, regs = 240> {
    %3 = cta.tile_loop static (%arg2, %arg2) tile [64, 64] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %carried: index):
      %4 = cta.warpgroup_index : index
      %5 = arith.muli %4, %c64 : index
      %6 = cta.acc_zero : <64x64xf32>
      %7:2 = cta.consume %2 at %carried count %c1 iter_args(%6 : !cta.acc<64x64xf32>) : <2> -> !cta.acc<64x64xf32> {
      ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
        %9 = cta.mma %0[%slot] rows %5, %0[%slot], %acc {transpose_b} : !cta.buffer<64x64xf16, stages = 2, swizzle = "128B">, <64x64xf16, stages = 2, swizzle = "128B">, <64x64xf32>
        cta.yield %9 : !cta.acc<64x64xf32>
      }
      %8 = arith.addi %m0, %5 : index
      cta.store %7#1 -> %arg1[%8, %n0] staging %1 : !cta.acc<64x64xf32> -> memref<?x?xf32, strided<[?, 1]>>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%arg3: f32):
        cta.yield %arg3 : f32
      }
      cta.yield %7#0 : index
    }
  }
  cta.return
}
