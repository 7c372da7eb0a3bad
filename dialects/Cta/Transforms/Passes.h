//===- Passes.h - passes over the cta dialect -------------------*- C++ -*-===//

#ifndef KILN_DIALECTS_CTA_TRANSFORMS_PASSES_H
#define KILN_DIALECTS_CTA_TRANSFORMS_PASSES_H

#include "dialects/Cta/IR/CtaOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln::cta {

#define GEN_PASS_DECL
#include "dialects/Cta/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/Cta/Transforms/Passes.h.inc"

} // namespace kiln::cta

#endif // KILN_DIALECTS_CTA_TRANSFORMS_PASSES_H
