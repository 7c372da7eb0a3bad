// RUN: not kiln-opt %s -split-input-file 2>&1 | FileCheck %s
// Every case is an error, not a crash:
// CHECK-COUNT-3: error:
// CHECK-NOT: Stack dump

// Regression tests (dialects/Cta/IR/CtaOps.cpp, CtaTypes.td); each case crashes
// kiln-opt (SIGSEGV) instead of reporting an error at the op.

// verifyYield calls Block::getTerminator() on an empty body.
cta.program @p(%k: index {cta.dim = "K"}) {
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  %r = cta.mainloop %k step 64 iter_args(%z : !cta.acc<64x64xf32>) -> !cta.acc<64x64xf32> {
  ^bb0(%k0: index, %acc: !cta.acc<64x64xf32>):
  }
  cta.return
}

// -----

cta.program @p(%n: index {cta.dim = "N"}) {
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %z = cta.acc_zero : !cta.acc<64x64xf32>
  %r:2 = cta.consume %ring at %n count %n iter_args(%z : !cta.acc<64x64xf32>) : !cta.ring<2> -> !cta.acc<64x64xf32> {
  ^bb0(%kb: index, %slot: index, %acc: !cta.acc<64x64xf32>):
  }
  cta.return
}

// -----

// !cta.acc has no verifier, so a rank-0 accumulator parses; MmaOp::verify
// then reads acc.getShape().back() of an empty shape.
cta.program @p() {
  %a = cta.alloc : !cta.buffer<64x64xbf16>
  %b = cta.alloc : !cta.buffer<64x64xbf16>
  %z = cta.acc_zero : !cta.acc<f32>
  %r = cta.mma %a, %b, %z {transpose_b} : !cta.buffer<64x64xbf16>, !cta.buffer<64x64xbf16>, !cta.acc<f32>
  cta.return
}
