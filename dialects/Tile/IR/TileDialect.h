//===- TileDialect.h - the tile dialect -------------------------*- C++ -*-===//
//
// Include this to use the tile dialect, its attributes and its ops.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TILE_IR_TILEDIALECT_H
#define KILN_DIALECTS_TILE_IR_TILEDIALECT_H

#include "runtime/DimExpr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/TensorEncoding.h"

#include "dialects/Tile/IR/TileDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/IR/TileAttrs.h.inc"

#endif // KILN_DIALECTS_TILE_IR_TILEDIALECT_H
