//===- CtaToNVVM.h - cta dialect to NVVM kernels ----------------*- C++ -*-===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_CTATONVVM_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_CTATONVVM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {

/// The symbol of the gpu.module that holds Kiln's kernels.
inline constexpr llvm::StringLiteral kKernelModuleName = "kiln_kernels";
/// The llvm.func attribute that carries a kernel's manifest: a dictionary
/// shaped like the `.kiln.json` file (ManifestAttr.h).
inline constexpr llvm::StringLiteral kManifestAttrName = "kiln.manifest";

/// Lowers every cta.program of `module` for `chip` into an `llvm.func`
/// kernel inside the `kiln_kernels` gpu.module: per program, the KernelABI
/// analysis, then a dialect conversion with the chip-neutral patterns
/// (populateCtaToNVVMCommonPatterns) and the chip's own
/// (populateCtaToSm90Patterns). Reports unsupported chips and ops at the
/// offending op.
mlir::LogicalResult lowerCtaProgramsToNVVM(mlir::ModuleOp module,
                                           llvm::StringRef chip);

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_CTATONVVM_H
