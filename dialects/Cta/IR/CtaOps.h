//===- CtaOps.h - operations of the cta dialect -----------------*- C++ -*-===//

#ifndef KILN_DIALECTS_CTA_IR_CTAOPS_H
#define KILN_DIALECTS_CTA_IR_CTAOPS_H

#include "dialects/Cta/IR/CtaDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/Cta/IR/CtaOps.h.inc"

namespace kiln::cta {

/// How a cta.store's epilogue input of `kind` is indexed: whether it varies
/// along the output's rows, along its columns, and whether it is read at
/// the tile's group (a grouped walk's per-expert tensor, row `group`).
inline bool readsByRow(InputKind kind) {
  return kind == InputKind::per_row || kind == InputKind::tile;
}
inline bool readsByCol(InputKind kind) {
  return kind == InputKind::per_col || kind == InputKind::tile ||
         kind == InputKind::per_group_col;
}
inline bool readsByGroup(InputKind kind) {
  return kind == InputKind::per_group || kind == InputKind::per_group_col;
}

} // namespace kiln::cta

#endif // KILN_DIALECTS_CTA_IR_CTAOPS_H
