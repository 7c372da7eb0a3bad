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

#endif // KILN_DIALECTS_CTA_IR_CTAOPS_H
