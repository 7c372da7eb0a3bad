//===- CtaDialect.h - the cta dialect ---------------------------*- C++ -*-===//

#ifndef KILN_DIALECTS_CTA_IR_CTADIALECT_H
#define KILN_DIALECTS_CTA_IR_CTADIALECT_H

#include "compiler/Target/Chip.h"
#include "compiler/Target/Swizzle.h"
#include "dialects/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Cta/IR/CtaDialect.h.inc"
#include "dialects/Cta/IR/CtaEnums.h.inc"

namespace kiln::cta {
/// `#cta.swizzle<"128B">` and the buffer type's `swizzle = "128B"`: the
/// names of compiler/Target's swizzleName, printed quoted (128B would lex as
/// a number and a keyword); `none` also parses bare.
mlir::ParseResult parseSwizzleMode(mlir::AsmParser &parser,
                                   target::SwizzleMode &mode);
void printSwizzleMode(mlir::AsmPrinter &printer, target::SwizzleMode mode);
/// `#cta.chip<sm_90a>`: compiler/Target's chip names, bare.
mlir::ParseResult parseChipName(mlir::AsmParser &parser, target::Chip &chip);
void printChipName(mlir::AsmPrinter &printer, target::Chip chip);
} // namespace kiln::cta

#define GET_ATTRDEF_CLASSES
#include "dialects/Cta/IR/CtaAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Cta/IR/CtaTypes.h.inc"

#endif // KILN_DIALECTS_CTA_IR_CTADIALECT_H
