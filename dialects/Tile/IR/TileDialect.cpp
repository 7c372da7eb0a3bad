//===- TileDialect.cpp - the tile dialect ---------------------------------===//

#include "dialects/Tile/IR/TileDialect.h"
#include "dialects/Tile/IR/TileOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::tile;

#include "dialects/Tile/IR/TileDialect.cpp.inc"

void TileDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Tile/IR/TileOps.cpp.inc"
      >();
}
