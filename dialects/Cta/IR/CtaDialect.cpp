//===- CtaDialect.cpp - the cta dialect -----------------------------------===//

#include "dialects/Cta/IR/CtaDialect.h"
#include "dialects/Cta/IR/CtaOps.h"

using namespace mlir;
using namespace kiln::cta;

#include "dialects/Cta/IR/CtaDialect.cpp.inc"

void CtaDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Cta/IR/CtaOps.cpp.inc"
      >();
}
