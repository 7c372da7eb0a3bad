// RUN: not kiln-opt %s --pass-pipeline='builtin.module(kiln-compile{stop-after=ptx})' 2>&1 | FileCheck %s

// Regression test (compiler/Pipelines/Pipelines.cpp, registerKilnPipelines): an
// unknown stop-after value is silently replaced by `llvm`
// (parseStage(...).value_or(Stage::Llvm)), so a typo runs the whole pipeline
// and succeeds. It must be an error that names the accepted stages.

// CHECK: error: {{.*}}stop-after{{.*}}tile, cta{{.*}}llvm
tile.kernel @k(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.name = "a"}, %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.name = "b"})
    -> (tensor<?x?xf32, #tile.dims<M, N>> {tile.name = "c"}) {
  %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
  tile.return %0 : tensor<?x?xf32, #tile.dims<M, N>>
}
