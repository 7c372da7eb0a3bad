//===- TileShapes.h - symbolic extents of tile tensors ----------*- C++ -*-===//
//
// Tile tensors name their extents with dim expressions (`M`, `128`, `E+1`,
// `cdiv(K,128)`) in a #tile.dims encoding of #tile.dim attributes, which hold
// kiln::DimExpr values (runtime/DimExpr.h, the parser the runtime shares).
// These helpers read them back in their canonical spelling, so that verifiers
// and passes compare extents symbolically (two extents are the same exactly
// when their spellings are) and report them by name.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TILE_IR_TILESHAPES_H
#define KILN_DIALECTS_TILE_IR_TILESHAPES_H

#include "dialects/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace kiln::tile {

/// A dim expression that stands for "unknown" (a dynamic extent without a
/// #tile.dims encoding); it agrees with every other extent.
inline constexpr llvm::StringLiteral kUnknownDim = "?";

/// The constant value of a dim expression, if it is an integer.
std::optional<int64_t> getConstantDim(llvm::StringRef expr);

/// The dim expression of each axis of `type`: its #tile.dims entry if it has
/// one, else its static size, else "?".
llvm::SmallVector<std::string> getDimExprs(mlir::RankedTensorType type);

/// Whether two extents are known to be the same or may be ("?" agrees with
/// anything).
bool dimsAgree(llvm::StringRef a, llvm::StringRef b);

/// The extent of a block-scale tensor axis covering `dim` in blocks of
/// `block`: `dim` itself for blocks of 1, a folded constant, or cdiv(dim,N).
std::string getScaleDim(llvm::StringRef dim, int64_t block);

/// The dim expression of each axis of `type` as attributes: its #tile.dims
/// entry, else its static size; null for a dynamic axis without one.
llvm::SmallVector<DimExprAttr> getDimAttrs(mlir::RankedTensorType type);

/// `ceil(dim / per)` as a dim expression: a folded constant, or
/// `cdiv(dim,per)` of a name (nullptr for an expression, which has no
/// ceiling-divided form).
DimExprAttr getCeilDivDim(DimExprAttr dim, int64_t per);

/// "[M, K]" for diagnostics.
std::string formatDims(llvm::ArrayRef<std::string> dims);

/// A ranked tensor type with `dims` (valid dim expressions, as the frontend
/// always writes) as its extents: static where a dim is a constant, with a
/// #tile.dims encoding whenever any dim is symbolic.
mlir::RankedTensorType makeTileTensorType(mlir::MLIRContext *ctx,
                                          llvm::ArrayRef<std::string> dims,
                                          mlir::Type elementType);

} // namespace kiln::tile

#endif // KILN_DIALECTS_TILE_IR_TILESHAPES_H
