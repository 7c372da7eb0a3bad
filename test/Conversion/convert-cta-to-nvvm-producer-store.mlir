// RUN: kiln-opt %s -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm

// Regression test: a store in the producer role must be the same error as a
// store outside any role. The producer runs on one elected thread, yet a store
// synchronizes with 128-thread named barriers and writes a whole fragment
// (the kernel would hang). checkLoweredAlike checks the role the store runs
// in, not only that it is inside a cta.warp_specialize.

cta.program @f(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 256, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  cta.warp_specialize
    #cta.role<producer, warps = 4, regs = 40> {
      cta.tile_loop static (%M, %M) tile [64, 64] {
      ^bb0(%m0: index, %n0: index):
        %z = cta.acc_zero : !cta.acc<64x64xf32>
        // expected-error@+1 {{convert-cta-to-nvvm: stores run in a math or epilogue role; this one is in a producer role}}
        cta.store %z -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
        ^bb0(%e: f32):
          cta.yield %e : f32
        }
      }
    }
    #cta.role<math, warps = 4, regs = 232> {
    }
  cta.return
}
