//===- Sema.h - name, type and shape checking of .kiln ----------*- C++ -*-===//
//
// Sema walks the AST once, resolving every name, builtin and type in place
// and reporting every violation of the rules in docs/language.md at the token
// responsible, with the dims and dtypes involved. After success, the tree is
// fully typed and MLIRGen cannot fail on user input.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_SEMA_H
#define KILN_FRONTEND_SEMA_H

#include "frontend/AST.h"
#include "frontend/SourceLocator.h"

#include "mlir/Support/LLVM.h"

namespace kiln {

/// Checks every kernel of `module`; reports all errors found and fails if
/// there were any.
mlir::LogicalResult checkModule(ast::Module &module,
                                const SourceLocator &locator);

/// Resolves a declared type (dtype, dims, block scale) into `decl.type`.
/// Outputs may not be block-scaled.
mlir::LogicalResult resolveTensorDecl(ast::TensorDecl &decl, bool isOutput,
                                      const SourceLocator &locator);

/// What a kernel's contractions imply for its schedule hints.
struct ContractionInfo {
  /// Whether the kernel has a matmul at all.
  bool any = false;
  /// The narrowest operand type of any matmul: one MMA's K covers 32 bytes.
  ElemType narrowest = ElemType::BF16;
  /// The block extent along K of block-scaled operands, if any.
  std::optional<int64_t> scaleBlockK;
};

/// Checks `@schedule(...)` hints: known keys, value kinds and ranges, and
/// tile extents the MMA instructions can cover.
mlir::LogicalResult checkSchedule(const ast::Schedule &schedule,
                                  const ContractionInfo &info,
                                  const SourceLocator &locator);

} // namespace kiln

#endif // KILN_FRONTEND_SEMA_H
