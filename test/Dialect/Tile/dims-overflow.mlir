// RUN: kiln-opt %s -verify-diagnostics

// Regression test (dialects/Tile/IR/TileShapes.cpp, getConstantDim): a dim that is
// an integer too large for int64 parses (as a uint64) and is then treated as
// a symbolic name, so it is accepted on a dynamic axis and later reaches the
// manifest as a "dim" made of digits. It must be rejected like any other
// malformed dim.

// expected-error@+1 {{18446744073709551615}}
tile.kernel @f(%a: tensor<?xf32, #tile.dims<18446744073709551615>>) {
  tile.return
}
