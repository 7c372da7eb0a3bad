//===- ASTPrinter.h - textual dump of a checked .kiln AST -------*- C++ -*-===//
//
// `kiln compile --emit=ast` prints the tree after Sema, one node per line with
// its inferred type and line:col, so that users can see how an expression was
// parsed and typed (and tests can check it).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_ASTPRINTER_H
#define KILN_FRONTEND_ASTPRINTER_H

#include "frontend/AST.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {

/// Prints `module`, with positions resolved through `sm`.
void printAST(const ast::Module &module, const llvm::SourceMgr &sm,
              llvm::raw_ostream &os);

} // namespace kiln

#endif // KILN_FRONTEND_ASTPRINTER_H
