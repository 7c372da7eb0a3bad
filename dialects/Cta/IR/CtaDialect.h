//===- CtaDialect.h - the cta dialect ---------------------------*- C++ -*-===//

#ifndef KILN_DIALECTS_CTA_IR_CTADIALECT_H
#define KILN_DIALECTS_CTA_IR_CTADIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Cta/IR/CtaDialect.h.inc"
#include "dialects/Cta/IR/CtaEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Cta/IR/CtaAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Cta/IR/CtaTypes.h.inc"

#endif // KILN_DIALECTS_CTA_IR_CTADIALECT_H
