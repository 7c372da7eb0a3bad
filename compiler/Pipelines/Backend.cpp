//===- Backend.cpp - NVVM kernels to PTX, cubin and manifest --------------===//

#include "compiler/Pipelines/Backend.h"
#include "compiler/Conversion/CtaToNVVM/CtaToNVVM.h"
#include "compiler/Conversion/CtaToNVVM/ManifestAttr.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace kiln;

/// Folds the manifests of a kernel's variants (entries other than the
/// kernel's own name) into the primary's `variants`, so the runtime gets one
/// manifest per source kernel and picks the variant per launch.
static void mergeVariants(std::vector<Manifest> &manifests) {
  std::vector<Manifest> merged;
  for (Manifest &manifest : manifests)
    if (manifest.entry == manifest.kernel)
      merged.push_back(manifest);
  for (Manifest &manifest : manifests) {
    if (manifest.entry == manifest.kernel)
      continue;
    for (Manifest &primary : merged)
      if (primary.kernel == manifest.kernel)
        primary.variants.push_back({manifest.entry, manifest.tensorMaps,
                                    manifest.kernelArgs, manifest.launch});
  }
  manifests = std::move(merged);
}

FailureOr<KernelArtifacts> kiln::translateToPtx(ModuleOp module) {
  KernelArtifacts artifacts;
  WalkResult walk = module.walk([&](LLVM::LLVMFuncOp func) {
    auto attr = func->getAttrOfType<DictionaryAttr>(kManifestAttrName);
    if (!attr)
      return WalkResult::advance();
    Manifest manifest;
    std::string error;
    if (!manifestFromAttr(attr, manifest, error)) {
      func.emitError() << "internal error: malformed kernel manifest: "
                       << error;
      return WalkResult::interrupt();
    }
    artifacts.manifests.push_back(std::move(manifest));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (artifacts.manifests.empty())
    return module.emitError(
        "no kernels to translate: the module has no lowered kernels");
  mergeVariants(artifacts.manifests);

  PassManager pm(module.getContext());
  GpuModuleToBinaryPassOptions options;
  options.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(options));
  if (failed(pm.run(module)))
    return failure();
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      if (auto gpuObject = llvm::dyn_cast<gpu::ObjectAttr>(object))
        artifacts.ptx += gpuObject.getObject().str();
  });
  if (artifacts.ptx.empty())
    return module.emitError("the NVPTX back end produced no PTX");
  return artifacts;
}

FailureOr<target::PtxasResult> kiln::assemblePtx(StringRef ptx, StringRef chip,
                                                 Location loc,
                                                 unsigned timeoutSeconds,
                                                 StringRef timeoutOption) {
  target::PtxasOptions options;
  options.arch = chip.str();
  options.timeoutSeconds = timeoutSeconds;
  target::ValueOrError<target::PtxasResult> result =
      target::runPtxas(ptx, options);
  if (!result) {
    InFlightDiagnostic diag = emitError(loc)
                              << "ptxas failed: " << result.error();
    if (timeoutSeconds != 0 &&
        StringRef(result.error()).contains("did not finish within"))
      diag << "; raise the limit with " << timeoutOption << "=SECONDS (0: no "
           << "limit)";
    return diag;
  }
  std::vector<std::string> problems = target::checkPtxasPolicy(result->report);
  if (!problems.empty()) {
    InFlightDiagnostic diag = emitError(loc)
                              << "the kernel breaks the resource policy:";
    for (const std::string &problem : problems)
      diag << "\n  " << problem;
    return diag;
  }
  return *result;
}
