//===- MLIRGen.h - .kiln AST to the tile dialect ----------------*- C++ -*-===//
//
// Emits one tile.kernel per kernel of a checked AST. Elementwise expression
// trees become a single tile.map whose region computes in f32 (i32, index for
// integers) and rounds once to the result type; contractions, reductions and
// masks become their tile ops. Every op carries the location of its token.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_MLIRGEN_H
#define KILN_FRONTEND_MLIRGEN_H

#include "frontend/AST.h"
#include "frontend/SourceLocator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace kiln {

/// Builds the tile IR of `module`, which Sema must have accepted. The result
/// is not verified here.
mlir::OwningOpRef<mlir::ModuleOp> genModule(const ast::Module &module,
                                            const SourceLocator &locator);

} // namespace kiln

#endif // KILN_FRONTEND_MLIRGEN_H
