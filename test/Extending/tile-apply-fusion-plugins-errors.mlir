// A plugin whose patterns never converge, or whose result does not verify, is
// an error that names it; an unknown stage is an option error.

// RUN: kiln-opt %s --split-input-file --verify-diagnostics --load-pass-plugin=%kiln_test_plugin --tile-apply-fusion-plugins=stage=before

// A pattern that keeps rewriting its own result is stopped and reported at
// the op it rewrites.
// expected-error@+1 {{fusion plugin 'test-before' did not converge at stage 'before': its patterns keep rewriting this op}}
tile.kernel @diverge(%a: tensor<?x?xf32, #tile.dims<M, N>>) -> tensor<?x?xf32, #tile.dims<M, N>>
    attributes {test.diverge = true} {
  tile.return %a : tensor<?x?xf32, #tile.dims<M, N>>
}

// -----

// IR that does not verify is reported against the plugin that produced it,
// after the verifier's own message.
// expected-error@below {{fusion plugin 'test-before' produced invalid IR at stage 'before'}}
module {
tile.kernel @broken(%a: tensor<?x?xf32, #tile.dims<M, N>>) -> tensor<?x?xf32, #tile.dims<M, N>> {
  // expected-error@+1 {{'tile.map' op body region must yield one 'f64'}}
  %0 = tile.map %a {test.break} : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}
}

// RUN: not kiln-opt %s --tile-apply-fusion-plugins=stage=during 2>&1 | FileCheck %s --check-prefix=STAGE
// STAGE: for the --stage option: Cannot find option named 'during'!
