//===- ImportKiln.h - the frontend's entry points ---------------*- C++ -*-===//
//
// What tools call: import a .kiln buffer as tile IR, print its AST, and the
// `--import-kiln` translation of kiln-translate. Every error is reported
// through the MLIRContext's diagnostic engine at a FileLineColLoc of the
// buffer, so SourceMgr handlers show the line with a caret and
// `-verify-diagnostics` can match `// expected-error` comments in .kiln files.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_IMPORTKILN_H
#define KILN_FRONTEND_IMPORTKILN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {

/// Parses, checks and lowers the main buffer of `sm` to a verified module of
/// tile.kernel ops. Returns null after reporting errors.
mlir::OwningOpRef<mlir::ModuleOp> importKiln(llvm::SourceMgr &sm,
                                             mlir::MLIRContext *ctx);

/// Parses and checks the main buffer of `sm`, then prints its typed AST to
/// `os`. Returns false after reporting errors.
bool printKilnAST(llvm::SourceMgr &sm, mlir::MLIRContext *ctx,
                  llvm::raw_ostream &os);

/// Registers `--import-kiln` (.kiln to tile IR) and `--kiln-ast` (.kiln to its
/// typed AST, as text) with mlir-translate's registry. Safe to call more than
/// once.
void registerImportKilnTranslation();

} // namespace kiln

#endif // KILN_FRONTEND_IMPORTKILN_H
