// tile-apply-fusion-plugins runs what plugins registered for its stage, and
// reports a plugin that misbehaves by name. The test plugin (test/lib)
// registers "test-before" and "test-after"; each of its patterns is switched
// on by an attribute below.

// Without a plugin, the pass changes nothing.
// RUN: kiln-opt %s --split-input-file --tile-apply-fusion-plugins=stage=before --tile-apply-fusion-plugins=stage=after | FileCheck %s --check-prefix=NONE
// NONE-LABEL: tile.kernel @stages(
// NONE-SAME:    attributes {test.after, test.before}
// NONE:         tile.matmul

// Each stage applies only its own registrations.
// RUN: kiln-opt %s --split-input-file --load-pass-plugin=%kiln_test_plugin --tile-apply-fusion-plugins=stage=before | FileCheck %s --check-prefix=BEFORE
// BEFORE-LABEL: tile.kernel @stages(
// BEFORE-SAME:    attributes {test.after, test.before_saw = ["tile.matmul", "tile.map", "tile.return"]}
// RUN: kiln-opt %s --split-input-file --load-pass-plugin=%kiln_test_plugin --tile-apply-fusion-plugins=stage=after | FileCheck %s --check-prefix=AFTER
// AFTER-LABEL: tile.kernel @stages(
// AFTER-SAME:    attributes {test.after_saw = ["tile.matmul", "tile.map", "tile.return"], test.before}

// In the compile pipeline, stage=before sees the frontend's IR and
// stage=after the fused contraction, before the schedule is chosen.
// RUN: kiln-opt %s --split-input-file --load-pass-plugin=%kiln_test_plugin --pass-pipeline='builtin.module(kiln-compile{stop-after=tile})' | FileCheck %s --check-prefix=PIPELINE
// PIPELINE-LABEL: tile.kernel @stages(
// PIPELINE-SAME:    test.after_saw = ["tile.contract", "tile.return"]
// PIPELINE-SAME:    test.before_saw = ["tile.matmul", "tile.map", "tile.return"]
// PIPELINE:         tile.contract

// The same plugin twice is loaded, and runs, once.
// RUN: kiln-opt %s --split-input-file --load-pass-plugin=%kiln_test_plugin --load-pass-plugin=%kiln_test_plugin --tile-apply-fusion-plugins=stage=before | FileCheck %s --check-prefix=BEFORE

tile.kernel @stages(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {test.before, test.after} {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  %1 = tile.map %0 : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %1 : tensor<?x?xbf16, #tile.dims<M, N>>
}
