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
} // namespace kiln::tile

#endif // KILN_DIALECTS_TILE_IR_TILEOPS_H
