//===- Parser.h - recursive-descent parser for .kiln ------------*- C++ -*-===//
//
// Builds the AST of one buffer following the grammar in docs/language.md. The
// parser stops at the first syntax error: it reports it (with a note at the
// matching opening bracket where one is missing its close) and returns null,
// so later stages never see a partial tree.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_PARSER_H
#define KILN_FRONTEND_PARSER_H

#include "frontend/AST.h"
#include "frontend/SourceLocator.h"

#include <memory>

namespace kiln {

/// Parses the buffer of `locator`; returns null after reporting an error.
std::unique_ptr<ast::Module> parseModule(const SourceLocator &locator);

} // namespace kiln

#endif // KILN_FRONTEND_PARSER_H
