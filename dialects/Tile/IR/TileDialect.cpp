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

/// A `tile.*` attribute on a region argument or result: only `tile.param`,
/// holding a #tile.param, exists.
static LogicalResult verifyParamAttribute(Operation *op, NamedAttribute attr) {
  if (attr.getName().getValue() != KernelOp::kParamAttrName)
    return op->emitOpError() << "unknown tile attribute '"
                             << attr.getName().getValue()
                             << "' on a kernel tensor; expected "
                             << KernelOp::kParamAttrName;
  if (!llvm::isa<ParamAttr>(attr.getValue()))
    return op->emitOpError() << KernelOp::kParamAttrName
                             << " must be a #tile.param, got "
                             << attr.getValue();
  return success();
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                    unsigned,
                                                    NamedAttribute attr) {
  return verifyParamAttribute(op, attr);
}

LogicalResult TileDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                       unsigned,
                                                       NamedAttribute attr) {
  return verifyParamAttribute(op, attr);
}
