// RUN: kiln-opt %s -verify-diagnostics --convert-cta-to-nvvm

// Regression test (compiler/Conversion/CtaToNVVM/Sm90Lowering.cpp, lowerStore):
// "stores run in the consumer role" is checked as "some warp role is being
// lowered", and the producer role sets roleWarpgroup too (to 0), so a store
// in the producer region lowers silently: only thread 0 runs it, yet it
// synchronizes with 128-thread named barriers and stores a whole fragment
// (the kernel would hang). It must be the same error as a store outside any
// role.

cta.program @f(%c: memref<?x?xf32> {cta.param = "c", cta.role = "output", cta.shape = ["M", "M"]}, %M: index {cta.dim = "M"})
    attributes {cta.block = array<i64: 256, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  cta.warp_specialize attributes {consumer_regs = 232 : i64, consumer_warpgroups = 1 : i64, producer_regs = 40 : i64} producer {
    cta.tile_loop (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: stores run in the consumer role}}
      cta.store %z -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%e: f32):
        cta.yield %e : f32
      }
    }
  } consumers {
  }
  cta.return
}
