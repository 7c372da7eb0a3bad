// RUN: kiln-opt %s --tile-select-schedule --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s

// Regression test (dialects/Tile/Transforms/SelectSchedule.cpp, scheduleKernel):
// the small-tile variant of kernel @m is named @m_128x64 without checking
// the symbol table, so a module that already has a kernel of that name ends up
// with two symbols of one name and fails verification after the pass
// ("redefinition of symbol named 'm_128x64'"). The same happens for a .kiln
// file with kernels `m` and `m_128x64`. The variant needs a unique name.

// CHECK-NOT:   error
// CHECK-LABEL: tile.kernel @m_128x64(
// CHECK-LABEL: tile.kernel @m(
// CHECK:       tile.kernel @{{.*}}attributes {{{.*}}tile.variant_of = "m"}
tile.kernel @m_128x64(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> tensor<?x?xbf16, #tile.dims<M, N>> attributes {tile.schedule = {tile = array<i64: 128, 128>}} {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}
tile.kernel @m(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>)
    -> tensor<?x?xbf16, #tile.dims<M, N>> {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xbf16, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
    %t = arith.truncf %acc : f32 to bf16
    tile.yield %t : bf16
  }
  tile.return %0 : tensor<?x?xbf16, #tile.dims<M, N>>
}
