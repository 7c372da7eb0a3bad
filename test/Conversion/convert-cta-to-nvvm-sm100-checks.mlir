// RUN: kiln-opt %s -split-input-file -verify-diagnostics --cta-allocate-resources --convert-cta-to-nvvm=chip=sm_100a

// What the sm_100a patterns cannot lower is reported at the MMA before the
// conversion starts: planTcgen05Mma decides it, for the check and the
// pattern alike.

// K must be whole tcgen05.mma K steps (16 for bf16).
cta.program @k8(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : !cta.buffer<128x8xbf16, stages = 2, swizzle = "none">
  %sb = cta.alloc : !cta.buffer<128x8xbf16, stages = 2, swizzle = "none">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x128xf32>
    %r:2 = cta.consume %ring at %c0 count %c1 iter_args(%z : !cta.acc<128x128xf32>) : !cta.ring<2> -> !cta.acc<128x128xf32> {
    ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
      // expected-error@+1 {{convert-cta-to-nvvm: K = 8 is not a multiple of the tcgen05.mma's K of 16}}
      %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x8xbf16, stages = 2, swizzle = "none">, !cta.buffer<128x8xbf16, stages = 2, swizzle = "none">, !cta.acc<128x128xf32>
      cta.yield %d : !cta.acc<128x128xf32>
    }
  }
  cta.return
}

// -----


// One thread issues a stage's MMAs: nothing else with effects may run in
// the stage.
cta.program @barrier(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">
  %sb = cta.alloc : !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x128xf32>
    %r:2 = cta.consume %ring at %c0 count %c1 iter_args(%z : !cta.acc<128x128xf32>) : !cta.ring<2> -> !cta.acc<128x128xf32> {
    ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
      // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: 'gpu.barrier' in a pipelined K step (only MMAs)}}
      gpu.barrier
      %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">, !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">, !cta.acc<128x128xf32>
      cta.yield %d : !cta.acc<128x128xf32>
    }
  }
  cta.return
}

// -----


// MMAs run in a pipelined K step, which commits them to the stage.
cta.program @outside(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">
  %sb = cta.alloc : !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x128xf32>
    // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: an MMA outside a pipelined K step}}
    %d = cta.mma %sa[%c0], %sb[%c0], %z {transpose_b} : !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">, !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">, !cta.acc<128x128xf32>
  }
  cta.return
}

// -----


// NVFP4 data multiplies only with its block scales.
cta.program @fp4_unscaled(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : !cta.buffer<128x64xf4E2M1FN, stages = 2, swizzle = "32B">
  %sb = cta.alloc : !cta.buffer<128x64xf4E2M1FN, stages = 2, swizzle = "32B">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x128xf32>
    %r:2 = cta.consume %ring at %c0 count %c1 iter_args(%z : !cta.acc<128x128xf32>) : !cta.ring<2> -> !cta.acc<128x128xf32> {
    ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
      // expected-error@+1 {{convert-cta-to-nvvm: no sm_100a MMA multiplies f4E2M1FN by f4E2M1FN (kind::f16: both bf16 or both f16; kind::f8f6f4: both e4m3/e5m2)}}
      %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x64xf4E2M1FN, stages = 2, swizzle = "32B">, !cta.buffer<128x64xf4E2M1FN, stages = 2, swizzle = "32B">, !cta.acc<128x128xf32>
      cta.yield %d : !cta.acc<128x128xf32>
    }
  }
  cta.return
}

// -----


// No tensor-core kind takes f64.
cta.program @f64(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : !cta.buffer<128x16xf64, stages = 2, swizzle = "none">
  %sb = cta.alloc : !cta.buffer<128x16xf64, stages = 2, swizzle = "none">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x128xf32>
    %r:2 = cta.consume %ring at %c0 count %c1 iter_args(%z : !cta.acc<128x128xf32>) : !cta.ring<2> -> !cta.acc<128x128xf32> {
    ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
      // expected-error@+1 {{convert-cta-to-nvvm: no sm_100a MMA for f64 operands}}
      %d = cta.mma %sa[%slot], %sb[%slot], %acc {transpose_b} : !cta.buffer<128x16xf64, stages = 2, swizzle = "none">, !cta.buffer<128x16xf64, stages = 2, swizzle = "none">, !cta.acc<128x128xf32>
      cta.yield %d : !cta.acc<128x128xf32>
    }
  }
  cta.return
}

// -----


// One tcgen05.mma covers the 128 lanes of tensor memory: the lhs tile has
// 128 rows.
cta.program @lhs_rows(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : !cta.buffer<256x16xbf16, stages = 2, swizzle = "none">
  %sb = cta.alloc : !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x128xf32>
    %r:2 = cta.consume %ring at %c0 count %c1 iter_args(%z : !cta.acc<128x128xf32>) : !cta.ring<2> -> !cta.acc<128x128xf32> {
    ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
      // expected-error@+1 {{convert-cta-to-nvvm: the lhs has 256 rows; tcgen05.mma reads 128}}
      %d = cta.mma %sa[%slot] rows %c0, %sb[%slot], %acc {transpose_b} : !cta.buffer<256x16xbf16, stages = 2, swizzle = "none">, !cta.buffer<128x16xbf16, stages = 2, swizzle = "none">, !cta.acc<128x128xf32>
      cta.yield %d : !cta.acc<128x128xf32>
    }
  }
  cta.return
}

// -----


// MXFP8 scales are ue8m0 per 32 elements; e4m3 scales per 16 are NVFP4's.
cta.program @fp8_scales_per_16(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sa = cta.alloc : !cta.buffer<128x128xf8E4M3FN, stages = 2, swizzle = "128B">
  %s1 = cta.alloc : !cta.buffer<64x16xf8E4M3FN, stages = 2, swizzle = "none">
  %s2 = cta.alloc : !cta.buffer<64x16xf8E4M3FN, stages = 2, swizzle = "none">
  %sb = cta.alloc : !cta.buffer<128x128xf8E4M3FN, stages = 2, swizzle = "128B">
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x128xf32>
    %r:2 = cta.consume %ring at %c0 count %c1 iter_args(%z : !cta.acc<128x128xf32>) : !cta.ring<2> -> !cta.acc<128x128xf32> {
    ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x128xf32>):
      // expected-error@+1 {{convert-cta-to-nvvm: no sm_100a block-scaled MMA for f8E4M3FN data with f8E4M3FN scales per 16 (NVFP4: f4E2M1FN with f8E4M3FN per 16; MXFP8: f8E4M3FN or f8E5M2 with f8E8M0FNU per 32)}}
      %d = cta.mma %sa[%slot], %sb[%slot], %acc scales(%s1, %s2) scale_slots(%slot, %slot) {scale_block = 16 : i64, transpose_b} : !cta.buffer<128x128xf8E4M3FN, stages = 2, swizzle = "128B">, !cta.buffer<128x128xf8E4M3FN, stages = 2, swizzle = "128B">, !cta.acc<128x128xf32>, !cta.buffer<64x16xf8E4M3FN, stages = 2, swizzle = "none">, !cta.buffer<64x16xf8E4M3FN, stages = 2, swizzle = "none">
      cta.yield %d : !cta.acc<128x128xf32>
    }
  }
  cta.return
}

// -----


// Block scales are copied into one CTA's tensor memory; a pair's MMA would
// need them in both.
cta.program @scaled_pair(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>, cluster = array<i64: 2, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s1 = cta.alloc : !cta.buffer<64x16xf8E4M3FN, stages = 2, swizzle = "none">
  %s2 = cta.alloc : !cta.buffer<64x16xf8E4M3FN, stages = 2, swizzle = "none">
  %sa = cta.alloc : !cta.buffer<128x128xf4E2M1FN, stages = 2, swizzle = "64B">
  %sb = cta.alloc : !cta.buffer<128x128xf4E2M1FN, stages = 2, swizzle = "64B">
  %ring = cta.ring {cluster_size = 2 : i64, consumers = 1 : i64} : !cta.ring<2>
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    %z = cta.acc_zero : !cta.acc<128x256xf32>
    %r:2 = cta.consume %ring at %c0 count %c1 iter_args(%z : !cta.acc<128x256xf32>) : !cta.ring<2> -> !cta.acc<128x256xf32> {
    ^bb0(%kb: index, %slot: index, %acc: !cta.acc<128x256xf32>):
      // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: block-scaled MMAs of a CTA pair}}
      %d = cta.mma %sa[%slot], %sb[%slot], %acc scales(%s1, %s2) scale_slots(%slot, %slot) {cta_pair, scale_block = 16 : i64, transpose_b} : !cta.buffer<128x128xf4E2M1FN, stages = 2, swizzle = "64B">, !cta.buffer<128x128xf4E2M1FN, stages = 2, swizzle = "64B">, !cta.acc<128x256xf32>, !cta.buffer<64x16xf8E4M3FN, stages = 2, swizzle = "none">, !cta.buffer<64x16xf8E4M3FN, stages = 2, swizzle = "none">
      cta.yield %d : !cta.acc<128x256xf32>
    }
  }
  cta.return
}

// -----

// Accumulators are f32 on every chip (kiln-fuzz-pipeline mutated one to
// f64, which reached the epilogue's f64 arithmetic with f32 values).
cta.program @f64acc(%M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  cta.tile_loop static (%M, %M) tile [128, 128] {
  ^bb0(%m0: index, %n0: index):
    // expected-error@+1 {{convert-cta-to-nvvm: an accumulator of 'f64' elements; the MMAs of sm_100a accumulate in f32}}
    %z = cta.acc_zero : !cta.acc<128x128xf64>
  }
  cta.return
}

// -----

// A math warpgroup's explicit stage release (attention's key loop on
// sm_90a) does not lower on sm_100a: there the MMA warp releases stages with
// the commit that tracks the MMAs reading them.
cta.program @stages(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  cta.warp_specialize #cta.role<producer, warps = 4, regs = 40> {
  } #cta.role<math, warps = 4, regs = 232> {
    cta.tile_loop static (%M, %M) tile [128, 128] {
    ^bb0(%m0: index, %n0: index):
      %s = cta.stage_wait %ring at %m0 : !cta.ring<2>
      // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: releasing a stage outside the MMA warp (its tcgen05.commit tracks the MMAs that read it)}}
      cta.stage_release %ring at %m0 : !cta.ring<2>
    }
  }
  cta.return
}

// -----

// An MMA warp's results are handed over by rings, not waited for.
cta.program @mma_wait(%c: memref<?x?xf32> {cta.param = #cta.param<"c", output, [M, M]>}, %M: index {cta.dim = #cta.dim<M>}) attributes {block = array<i64: 256, 1, 1>, chip = #cta.chip<sm_100a>} {
  %sa = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  %sb = cta.alloc : !cta.buffer<128x64xbf16, swizzle = "128B">
  cta.warp_specialize #cta.role<epilogue, warps = 4> {
  } #cta.role<mma, warps = 1> {
    cta.tile_loop static (%M, %M) tile [128, 128] {
    ^bb0(%m0: index, %n0: index):
      %z = cta.acc_zero : !cta.acc<128x128xf32>
      %p = cta.mma %sa, %sb, %z {async, transpose_b} : !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.buffer<128x64xbf16, swizzle = "128B">, !cta.acc<128x128xf32>
      // expected-error@+1 {{convert-cta-to-nvvm: not implemented yet on sm_100a: 'cta.mma_wait' (an MMA warp's results are handed over by rings: tcgen05.commit)}}
      %r = cta.mma_wait %p later 0 : !cta.acc<128x128xf32>
    }
  }
  cta.return
}
