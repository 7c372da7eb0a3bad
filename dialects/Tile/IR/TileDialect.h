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
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TensorEncoding.h"

#include "dialects/Tile/IR/TileDialect.h.inc"
#include "dialects/Tile/IR/TileEnums.h.inc"

namespace kiln::tile {
/// The parts of `#tile.param` that `#cta.param` shares: the kind keyword
/// (`input`, `output`, `scale`) and the optional `, of = "a", block = [1,
/// 16]` of a scale tensor.
mlir::ParseResult parseParamKind(mlir::AsmParser &parser, ParamKind &kind);
mlir::ParseResult parseParamTail(mlir::AsmParser &parser,
                                 mlir::StringAttr &scaleOf,
                                 llvm::SmallVectorImpl<int64_t> &block);
void printParamTail(mlir::AsmPrinter &printer, mlir::StringAttr scaleOf,
                    llvm::ArrayRef<int64_t> block);
} // namespace kiln::tile

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/IR/TileAttrs.h.inc"

namespace kiln::tile {
/// A list of dim expressions as #tile.dims writes them (`M, K+1,
/// cdiv(K, 16)`), between `delimiter`s; `#cta.param`'s shape shares it.
mlir::ParseResult parseDimList(mlir::AsmParser &parser,
                               mlir::AsmParser::Delimiter delimiter,
                               llvm::SmallVectorImpl<DimExprAttr> &dims);
void printDimList(mlir::AsmPrinter &printer, llvm::ArrayRef<DimExprAttr> dims);
} // namespace kiln::tile



#endif // KILN_DIALECTS_TILE_IR_TILEDIALECT_H
