// RUN: not kiln-opt %s -split-input-file --cta-pipeline 2>/dev/null | FileCheck %s --allow-empty

// Programs cta-pipeline reports as unsupported fail the pass and print no IR
// (regression: the errors were reported but the pass succeeded and printed
// the unpipelined program).

// CHECK-NOT: cta.program

cta.program @several_tile_loops(%M: index {cta.dim = "M"}) {
  cta.tile_loop (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.tile_loop (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
  }
  cta.return
}

// -----

cta.program @several_mainloops(%M: index {cta.dim = "M"}) {
  cta.tile_loop (%M, %M) tile [64, 64] {
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

cta.program @load_outside_mainloop(%a: memref<?x?xf16> {cta.param = "a"}, %M: index {cta.dim = "M"}) {
  %sa = cta.alloc : !cta.buffer<64x64xf16>
  cta.tile_loop (%M, %M) tile [64, 64] {
  ^bb0(%m0: index, %n0: index):
    cta.load %a[%m0, %n0] -> %sa : memref<?x?xf16> -> !cta.buffer<64x64xf16>
  }
  cta.return
}
