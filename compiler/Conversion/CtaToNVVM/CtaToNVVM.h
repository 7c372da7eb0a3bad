//===- CtaToNVVM.h - cta dialect to NVVM kernels ----------------*- C++ -*-===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_CTATONVVM_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_CTATONVVM_H

#include "llvm/ADT/StringRef.h"

namespace kiln {

/// The symbol of the gpu.module that holds Kiln's kernels.
inline constexpr llvm::StringLiteral kKernelModuleName = "kiln_kernels";
/// The llvm.func attribute that carries a kernel's manifest: a dictionary
/// shaped like the `.kiln.json` file (ManifestAttr.h).
inline constexpr llvm::StringLiteral kManifestAttrName = "kiln.manifest";

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_CTATONVVM_H
