// RUN: not kiln-opt %s -split-input-file 2>&1 | FileCheck %s
// Every case is an error, not a crash:
// CHECK-COUNT-4: error:
// CHECK-NOT: Stack dump

// Regression test: the verifiers of tile ops with scalar regions (verifyScalarRegion
// in dialects/Tile/IR/TileOps.cpp) call Block::getTerminator() without
// checking that the block has an operation, so an empty region reads past the
// block and kiln-opt crashes (SIGSEGV) instead of reporting an error. Each
// case below must be an error at the op.

tile.kernel @f(%x: tensor<?x?xf32, #tile.dims<M, N>>) {
  %0 = tile.map %x : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%a: f32):
  }
  tile.return
}

// -----

tile.kernel @f(%a: tensor<?x?xbf16, #tile.dims<M, K>>, %b: tensor<?x?xbf16, #tile.dims<N, K>>) {
  %0 = tile.contract(%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>, tensor<?x?xbf16, #tile.dims<N, K>>)
      [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>] -> tensor<?x?xf32, #tile.dims<M, N>> {
  ^bb0(%acc: f32):
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  %0 = tile.mask %s : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%i: index, %j: index):
  }
  tile.return
}

// -----

tile.kernel @f(%s: tensor<?x?xf32, #tile.dims<S, T>>) {
  %0 = tile.score_mod %s : tensor<?x?xf32, #tile.dims<S, T>> {
  ^bb0(%x: f32, %i: index, %j: index):
  }
  tile.return
}
