// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm

// What the sm_90a patterns cannot lower is reported at the op before the
// conversion starts (not as a generic "failed to legalize" after it, nor as
// wrong code): the wgmma shape and descriptor rules, whole 64-row
// accumulator fragments, the staging blocks a store writes, and the extents
// that clip edge tiles.

// An MMA whose N no wgmma has.
cta.program @n12(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<12x64xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x12xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: wgmma N = 12 is invalid: N must be a multiple of 8 from 8 to 256}}
    %p = cta.mma %sa, %sb, %z {transpose_b} : !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.buffer<12x64xbf16, swizzle = "128B">, !cta.acc<64x12xf32>
  }
  cta.return
}

// -----

// Accumulators are whole 64-row fragments (regression: 32 rows lowered to no
// wgmma at all, 96 rows to 64).
cta.program @rows32(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<16x64xbf16, swizzle = "128B">
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{convert-cta-to-nvvm: a 32-row accumulator; on sm_90a accumulators are whole 64-row wgmma fragments}}
    %z = cta.acc_zero : !cta.acc<32x16xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: a 32-row accumulator; on sm_90a accumulators are whole 64-row wgmma fragments}}
    %p = cta.mma %sa rows %c0, %sb, %z {transpose_b} : !cta.buffer<64x64xbf16, swizzle = "128B">, !cta.buffer<16x64xbf16, swizzle = "128B">, !cta.acc<32x16xf32>
  }
  cta.return
}

// -----

// K must be whole wgmma K steps (16 for bf16).
cta.program @k8(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x8xbf16>
  %sb = cta.alloc : !cta.buffer<64x8xbf16>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: K = 8 is not a multiple of the wgmma's K of 16}}
    %p = cta.mma %sa, %sb, %z {transpose_b} : !cta.buffer<64x8xbf16>, !cta.buffer<64x8xbf16>, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

// A tile that is not whole staging blocks (64 columns of bf16 per 128-byte
// block) would lose columns (regression: a 64x96 tile stored 64).
cta.program @partial_block(%c: memref<?x?xbf16> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 256, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x64xbf16, swizzle = "128B">
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [64, 96] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x96xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: a 64x96 tile cannot be staged through 64x64 buffer blocks of 64 columns}}
      cta.store %z -> %c[%m0, %n0] staging %sc : !cta.acc<64x96xf32> -> memref<?x?xbf16>, !cta.buffer<64x64xbf16, swizzle = "128B"> {
      ^bb0(%e: f32):
        %t = arith.truncf %e : f32 to bf16
        cta.yield %t : bf16
      }
    }
  }
  cta.return
}

// -----

// Edge tiles are clipped to the destination's extents, which must be known
// (a destination without cta.shape).
cta.program @no_shape(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 128, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  cta.warp_specialize #cta.role<math, warps = 4> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: the destination's extents are unknown (each must be a dim, a dim plus a constant, or a constant)}}
      cta.store %z -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%e: f32):
        cta.yield %e : f32
      }
    }
  }
  cta.return
}

// -----

// An extent given by a product (E*2) cannot clip a store yet (E+1 can).
cta.program @expr_shape(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [E*2, M]>}, %M: index {cta.dim = #cta.dim<M>}, %E: index {cta.dim = #cta.dim<E>})
    attributes {block = array<i64: 128, 1, 1>} {
  %sc = cta.alloc : !cta.buffer<64x32xf32, swizzle = "128B">
  cta.warp_specialize #cta.role<math, warps = 4> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: the destination's extents are unknown (each must be a dim, a dim plus a constant, or a constant)}}
      cta.store %z -> %c[%m0, %n0] staging %sc : !cta.acc<64x64xf32> -> memref<?x?xf32>, !cta.buffer<64x32xf32, swizzle = "128B"> {
      ^bb0(%e: f32):
        cta.yield %e : f32
      }
    }
  }
  cta.return
}

// -----

// A store needs a staging buffer.
cta.program @no_staging(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {block = array<i64: 128, 1, 1>} {
  cta.warp_specialize #cta.role<math, warps = 4> {
    cta.tile_loop static (%M, %M) tile [64, 64] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<64x64xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: stores need a staging buffer}}
      cta.store %z -> %c[%m0, %n0] : !cta.acc<64x64xf32> -> memref<?x?xf32> {
      ^bb0(%e: f32):
        cta.yield %e : f32
      }
    }
  }
  cta.return
}

// -----

// wgmma multiplies 16-bit and 8-bit floats.
cta.program @f32(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %sa = cta.alloc : !cta.buffer<64x16xf32>
  %sb = cta.alloc : !cta.buffer<64x16xf32>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: no sm_90a MMA for f32 operands yet}}
    %p = cta.mma %sa, %sb, %z {transpose_b} : !cta.buffer<64x16xf32>, !cta.buffer<64x16xf32>, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

// The lhs is read in whole 64-row blocks, one per accumulator fragment.
cta.program @lhs_rows(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  %c0 = arith.constant 0 : index
  %sa = cta.alloc : !cta.buffer<96x16xbf16>
  %sb = cta.alloc : !cta.buffer<64x16xbf16>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<64x64xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: the lhs has 96 rows; wgmma reads whole 64-row blocks}}
    %p = cta.mma %sa rows %c0, %sb, %z {transpose_b} : !cta.buffer<96x16xbf16>, !cta.buffer<64x16xbf16>, !cta.acc<64x64xf32>
  }
  cta.return
}

// -----

// Accumulators are f32 on every chip.
cta.program @f16acc(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 384, 1, 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{convert-cta-to-nvvm: an accumulator of 'f16' elements; the MMAs of sm_90a accumulate in f32}}
    %z = cta.acc_zero : !cta.acc<64x64xf16>
  }
  cta.return
}

// -----

// Offsets read with plain loads are clipped to their extent, which must be
// known.
cta.program @offsets_extent(%o: memref<?xi32> {cta.param = #cta.param<"o", input, [E*2]>}, %E: index {cta.dim = #cta.dim<E>})
    attributes {block = array<i64: 128, 1, 1>} {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{convert-cta-to-nvvm: the offsets's extents are unknown (each must be a dim, a dim plus a constant, or a constant)}}
  %x = cta.read_index %o[%c0] : memref<?xi32>
  cta.return
}

// -----

// So is the destination of a rows vector.
cta.program @store_rows_extent(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [E, E*2]>}, %E: index {cta.dim = #cta.dim<E>})
    attributes {block = array<i64: 256, 1, 1>} {
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 24> {
  } #cta.role<math, warps = 4, regs = 240> {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %v = cta.splat %one : f32 -> !cta.frag<64xf32, rows>
    // expected-error@+1 {{convert-cta-to-nvvm: the destination's extents are unknown (each must be a dim, a dim plus a constant, or a constant)}}
    cta.store_rows %v -> %c[%c0, %c0] : !cta.frag<64xf32, rows> -> memref<?x?xf32>
  }
  cta.return
}

// -----

// Tensor-memory tiles and an MMA reading its lhs from one are tcgen05's
// (sm_100a); each is reported, none crashes (the MMA's check once cast a
// tensor-memory lhs to a shared buffer).
cta.program @tmem_on_sm90(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_90a>} {
  %sv = cta.alloc : !cta.buffer<128x128xbf16, swizzle = "128B">
  // expected-error@+1 {{convert-cta-to-nvvm: 'cta.tmem_alloc' names a tensor-memory tile; sm_90a has no tensor memory (sm_100a has)}}
  %p = cta.tmem_alloc : !cta.tmem<128x128xbf16>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [128, 128] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<128x128xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: an MMA with its lhs in tensor memory (tcgen05.mma, sm_100a); sm_90a has no tensor memory}}
      %r = cta.mma %p, %sv, %z : !cta.tmem<128x128xbf16>, !cta.buffer<128x128xbf16, swizzle = "128B">, !cta.acc<128x128xf32>
    }
  }
  cta.return
}
