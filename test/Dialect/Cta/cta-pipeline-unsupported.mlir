// RUN: not kiln-opt %s -split-input-file --cta-pipeline 2>/dev/null | FileCheck %s --allow-empty
// RUN: not kiln-opt %s -split-input-file --cta-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// Programs cta-pipeline reports as unsupported fail the pass and print no IR
// (regression: the errors were reported but the pass succeeded and printed
// the unpipelined program). The second run checks that each program parsed
// and was refused by the pass, in order.

// CHECK-NOT: cta.program

// ERR: error: cta-pipeline: expected one cta.tile_loop, found several
cta.program @several_tile_loops(%M: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

// ERR: error: cta-pipeline: one cta.mainloop per tile is supported
cta.program @several_mainloops(%M: index {cta.dim = #cta.dim<M>}) {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<64x64xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
    ^bb0(%k0: index, %it: !cta.acc<64x64xf32>):
      cta.yield %it : !cta.acc<64x64xf32>
    }
    %acc2 = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
    ^bb0(%k1: index, %it: !cta.acc<64x64xf32>):
      cta.yield %it : !cta.acc<64x64xf32>
    }
  }
  cta.return
}

// -----

// ERR: error: cta-pipeline: copies and MMAs must be inside the cta.mainloop
cta.program @load_outside_mainloop(%a: memref<?x?xf16> {cta.param = #cta.param<"a", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>}) {
  %sa = cta.alloc : !cta.buffer<64x64xf16>
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    cta.load %a[%m0, %n0] -> %sa : memref<?x?xf16> -> !cta.buffer<64x64xf16>
  }
  cta.return
}

// -----

// ERR: error: cta-pipeline: the program has no schedule
cta.program @no_schedule(%M: index {cta.dim = #cta.dim<M>}) attributes {chip = #cta.chip<sm_90a>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<64x64xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
    ^bb0(%k0: index, %it: !cta.acc<64x64xf32>):
      cta.yield %it : !cta.acc<64x64xf32>
    }
  }
  cta.return
}

// -----

// ERR: error: cta-pipeline: the program names no chip
cta.program @unknown_chip(%M: index {cta.dim = #cta.dim<M>})
    attributes { schedule = #cta.schedule<stages = 2, math_warpgroups = 1>} {
  cta.tile_loop static (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<64x64xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
    ^bb0(%k0: index, %it: !cta.acc<64x64xf32>):
      cta.yield %it : !cta.acc<64x64xf32>
    }
  }
  cta.return
}

// -----

// ERR: error: cta-pipeline: staging rows do not split across consumers
cta.program @staging_rows(%c: memref<?x?xf32> {cta.param = #cta.param<"c", input, [M, K]>}, %M: index {cta.dim = #cta.dim<M>})
    attributes {chip = #cta.chip<sm_90a>, schedule = #cta.schedule<stages = 3, math_warpgroups = 2>} {
  %sc = cta.alloc : !cta.buffer<63x64xf32>
  cta.tile_loop static (%M, %M) tile [128, 64] {
  ^bb0(%m0: index, %n0: index):
    %zero = cta.acc_zero : !cta.acc<128x64xf32>
    %acc = cta.mainloop %M step 64 iter_args(%zero : !cta.acc<128x64xf32>) -> !cta.acc<128x64xf32> {
    ^bb0(%k0: index, %it: !cta.acc<128x64xf32>):
      cta.yield %it : !cta.acc<128x64xf32>
    }
    cta.store %acc -> %c[%m0, %n0] staging %sc : !cta.acc<128x64xf32> -> memref<?x?xf32>, !cta.buffer<63x64xf32> {
    ^bb0(%e: f32):
      cta.yield %e : f32
    }
  }
  cta.return
}
