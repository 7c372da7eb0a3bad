//===- InitAll.h - register Kiln's dialects, passes and pipelines -*- C++
//-*-===//
//
// The one place that says what a Kiln tool knows about. Tool mains call these
// and nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_INITALL_H
#define KILN_COMPILER_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace kiln {

/// Kiln's dialects, the upstream dialects its IR uses, and the interfaces
/// needed to translate NVVM kernels to LLVM IR and PTX.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Kiln's passes and pipelines, and the upstream passes its pipeline runs.
void registerAllPasses();

} // namespace kiln

#endif // KILN_COMPILER_INITALL_H
