//===- Backend.h - NVVM kernels to PTX, cubin and manifest ------*- C++ -*-===//
//
// After the pass pipeline, a module holds `llvm.func` kernels in a gpu.module.
// The back end translates them to PTX (LLVM's NVPTX target through
// gpu-module-to-binary), assembles the PTX with ptxas (checking its resource
// report), and collects each kernel's manifest.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_PIPELINES_BACKEND_H
#define KILN_COMPILER_PIPELINES_BACKEND_H

#include "compiler/Target/Ptxas.h"
#include "runtime/Manifest.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace kiln {

/// The kernels of a lowered module.
struct KernelArtifacts {
  /// PTX of the whole kernel module.
  std::string ptx;
  /// One manifest per kernel (`cubin` and `source` left empty).
  std::vector<Manifest> manifests;
};

/// Reads the manifests and produces PTX from a module lowered to the llvm
/// stage. Consumes the gpu.module (it becomes a gpu.binary).
mlir::FailureOr<KernelArtifacts> translateToPtx(mlir::ModuleOp module);

/// Assembles `ptx` for `chip` and enforces the resource policy (no spills, no
/// ignored setmaxnreg, no serialized wgmma). Problems are reported on `loc`.
/// ptxas is stopped after `timeoutSeconds` (0: never); the error names
/// `timeoutOption`, the setting that raises the limit.
mlir::FailureOr<target::PtxasResult>
assemblePtx(llvm::StringRef ptx, llvm::StringRef chip, mlir::Location loc,
            unsigned timeoutSeconds = 0,
            llvm::StringRef timeoutOption = "--ptxas-timeout");

/// An entry the resource policy left out of the cubin.
struct DroppedEntry {
  std::string entry;
  /// What it broke, as ptxas reported it.
  std::string reason;
};

/// A module compiled to a cubin.
struct CompiledModule {
  /// The PTX and manifests of what the cubin holds.
  KernelArtifacts artifacts;
  target::PtxasResult ptxas;
  /// Entries left out because they broke the policy, in order.
  std::vector<DroppedEntry> droppedEntries;
};

/// translateToPtx and assemblePtx together, except that an entry breaking
/// the resource policy (a spill, a serialized wgmma pipeline) is left out
/// and the rest assembled again, as long as its kernel keeps another entry
/// (a variant with another tile): a variant is a choice, and a kernel must
/// not fail because one choice does. `module` is not changed.
mlir::FailureOr<CompiledModule>
compileModule(mlir::ModuleOp module, llvm::StringRef chip, mlir::Location loc,
              unsigned timeoutSeconds = 0,
              llvm::StringRef timeoutOption = "--ptxas-timeout");

} // namespace kiln

#endif // KILN_COMPILER_PIPELINES_BACKEND_H
