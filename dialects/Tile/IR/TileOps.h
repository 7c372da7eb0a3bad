//===- TileOps.h - operations of the tile dialect ---------------*- C++ -*-===//

#ifndef KILN_DIALECTS_TILE_IR_TILEOPS_H
#define KILN_DIALECTS_TILE_IR_TILEOPS_H

#include "dialects/Tile/IR/TileDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/Tile/IR/TileOps.h.inc"

namespace kiln::tile {
/// Whether a result of `op` reaches, through any chain of users, a product
/// (tile.matmul, tile.scaled_matmul or tile.contract): what makes a softmax,
/// mask or score modifier part of attention.
bool feedsProduct(mlir::Operation *op);

/// Whether `reduce` is a reduction of a product as a kernel output: a `sum`
/// or `max` of a tile.contract result over its last axis (a row reduction,
/// `r = sum(y, axis = -1)`) or the one before it (a column reduction,
/// `c = sum(y, axis = -2)`), returned by the kernel as it is. The GEMM
/// lowering computes it per tile and combines the tiles of a row (column)
/// band into it; the contraction result itself is stored only where the
/// kernel returns it too.
bool isProductReduction(ReduceOp reduce);

/// Whether `reduce`, a reduction of a product, reduces the product's rows
/// (its last axis) rather than its columns.
bool reducesRows(ReduceOp reduce);

/// Whether a tile.contract result is written to memory: the kernel returns
/// it (a result that only reductions read is reduced in registers).
bool isStoredOutput(mlir::Value output);
} // namespace kiln::tile

#endif // KILN_DIALECTS_TILE_IR_TILEOPS_H
