//===- Backend.cpp - NVVM kernels to PTX, cubin and manifest --------------===//

#include "compiler/Pipelines/Backend.h"
#include "compiler/Conversion/CtaToNVVM/CtaToNVVM.h"
#include "compiler/Conversion/CtaToNVVM/ManifestAttr.h"
#include "compiler/Target/PtxMerge.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Threading.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace kiln;

/// Folds the manifests of a kernel's variants into its primary's
/// `variants`, so the runtime gets one manifest per source kernel and picks
/// the variant per launch. The primary is the entry named as the kernel, or,
/// where the resource policy left that one out, the kernel's first entry.
static void mergeVariants(std::vector<Manifest> &manifests) {
  std::vector<Manifest> merged;
  auto primaryOf = [&](const Manifest &manifest) -> Manifest * {
    for (Manifest &primary : merged)
      if (primary.kernel == manifest.kernel)
        return &primary;
    return nullptr;
  };
  for (Manifest &manifest : manifests)
    if (manifest.entry == manifest.kernel)
      merged.push_back(manifest);
  for (Manifest &manifest : manifests) {
    if (manifest.entry == manifest.kernel)
      continue;
    if (Manifest *primary = primaryOf(manifest))
      primary->variants.push_back({manifest.entry, manifest.tensorMaps,
                                   manifest.kernelArgs, manifest.launch});
    else
      merged.push_back(manifest);
  }
  manifests = std::move(merged);
}

/// The PTX of `module`'s gpu.module (gpu-module-to-binary); consumes it.
static FailureOr<std::string> generateWholePtx(ModuleOp module) {
  PassManager pm(module.getContext());
  GpuModuleToBinaryPassOptions options;
  options.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(options));
  if (failed(pm.run(module)))
    return failure();
  std::string ptx;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      if (auto gpuObject = llvm::dyn_cast<gpu::ObjectAttr>(object))
        ptx += gpuObject.getObject().str();
  });
  if (ptx.empty())
    return module.emitError("the NVPTX back end produced no PTX");
  return ptx;
}

/// The kernel entries of `module` (functions with a manifest) in order, or
/// nothing when the module also defines other functions: those would be
/// defined once per part, so the parts could not be joined.
static SmallVector<LLVM::LLVMFuncOp> independentKernels(ModuleOp module) {
  SmallVector<LLVM::LLVMFuncOp> kernels;
  bool shared = false;
  module.walk([&](LLVM::LLVMFuncOp func) {
    if (func->hasAttr(kManifestAttrName))
      kernels.push_back(func);
    else if (!func.isExternal())
      shared = true;
  });
  if (shared)
    kernels.clear();
  return kernels;
}

/// The PTX of all kernels of `module`; consumes its gpu.module. LLVM's
/// optimizer and NVPTX code generator take most of a compile, and the
/// kernels of a module (a kernel's variants, several kernels of a file) are
/// independent functions: so each is translated in its own copy of the
/// module, in parallel, and the PTX modules joined into one
/// (mergePtxModules), which ptxas assembles as before. Where threading is
/// off, or the parts cannot be joined, the module is translated whole.
static FailureOr<std::string>
generatePtx(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  SmallVector<LLVM::LLVMFuncOp> kernels = independentKernels(module);
  if (!ctx->isMultithreadingEnabled() || kernels.size() < 2)
    return generateWholePtx(module);
  // One copy per kernel, holding only that kernel's function.
  SmallVector<OwningOpRef<ModuleOp>> copies;
  for (LLVM::LLVMFuncOp kernel : kernels) {
    OwningOpRef<ModuleOp> copy = module.clone();
    SmallVector<LLVM::LLVMFuncOp> others;
    copy->walk([&](LLVM::LLVMFuncOp func) {
      if (func->hasAttr(kManifestAttrName) &&
          func.getName() != kernel.getName())
        others.push_back(func);
    });
    for (LLVM::LLVMFuncOp func : others)
      func.erase();
    copies.push_back(std::move(copy));
  }
  std::vector<std::string> parts(copies.size());
  ParallelDiagnosticHandler diagnostics(ctx);
  LogicalResult translated = failableParallelForEachN(
      ctx, 0, copies.size(), [&](size_t i) -> LogicalResult {
        diagnostics.setOrderIDForThread(i);
        FailureOr<std::string> ptx = generateWholePtx(*copies[i]);
        diagnostics.eraseOrderIDForThread();
        if (failed(ptx))
          return failure();
        parts[i] = std::move(*ptx);
        return success();
      });
  if (failed(translated))
    return failure();
  if (std::optional<std::string> merged = target::mergePtxModules(parts))
    return std::move(*merged);
  return generateWholePtx(module);
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

  FailureOr<std::string> ptx = generatePtx(module);
  if (failed(ptx))
    return failure();
  artifacts.ptx = std::move(*ptx);
  return artifacts;
}

/// Runs ptxas on `ptx`; errors (not policy breaks) are reported on `loc`.
static FailureOr<target::PtxasResult> runPtxas(StringRef ptx, StringRef chip,
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
  return *result;
}

static InFlightDiagnostic
reportViolations(Location loc,
                 llvm::ArrayRef<target::PtxasViolation> violations) {
  InFlightDiagnostic diag = emitError(loc)
                            << "the kernel breaks the resource policy:";
  for (const target::PtxasViolation &violation : violations)
    diag << "\n  " << violation.message;
  return diag;
}

FailureOr<target::PtxasResult> kiln::assemblePtx(StringRef ptx, StringRef chip,
                                                 Location loc,
                                                 unsigned timeoutSeconds,
                                                 StringRef timeoutOption) {
  FailureOr<target::PtxasResult> result =
      runPtxas(ptx, chip, loc, timeoutSeconds, timeoutOption);
  if (failed(result))
    return failure();
  std::vector<target::PtxasViolation> violations =
      target::findPtxasViolations(result->report);
  if (!violations.empty())
    return reportViolations(loc, violations);
  return result;
}

/// The source kernel whose entry (primary or variant) is `entry`, or "".
static std::string kernelOfEntry(llvm::ArrayRef<Manifest> manifests,
                                 StringRef entry) {
  for (const Manifest &manifest : manifests) {
    if (manifest.entry == entry)
      return manifest.kernel;
    for (const KernelVariant &variant : manifest.variants)
      if (variant.entry == entry)
        return manifest.kernel;
  }
  return "";
}

/// How many entries (primary and variants) `kernel` has.
static size_t countEntries(llvm::ArrayRef<Manifest> manifests,
                           StringRef kernel) {
  for (const Manifest &manifest : manifests)
    if (manifest.kernel == kernel)
      return 1 + manifest.variants.size();
  return 0;
}

FailureOr<CompiledModule> kiln::compileModule(ModuleOp module, StringRef chip,
                                              Location loc,
                                              unsigned timeoutSeconds,
                                              StringRef timeoutOption) {
  CompiledModule compiled;
  llvm::StringSet<> dropped;
  // Each round leaves out at least one more entry, so this ends.
  while (true) {
    // The module stays as it was: a round that drops an entry starts again
    // from it (ptxas compiles each entry on its own, so the others come out
    // the same).
    OwningOpRef<ModuleOp> work = module.clone();
    SmallVector<LLVM::LLVMFuncOp> leftOut;
    work->walk([&](LLVM::LLVMFuncOp func) {
      if (dropped.contains(func.getName()))
        leftOut.push_back(func);
    });
    for (LLVM::LLVMFuncOp func : leftOut)
      func.erase();
    FailureOr<KernelArtifacts> artifacts = translateToPtx(*work);
    if (failed(artifacts))
      return failure();
    FailureOr<target::PtxasResult> ptxas = runPtxas(
        artifacts->ptx, chip, loc, timeoutSeconds, timeoutOption);
    if (failed(ptxas))
      return failure();
    std::vector<target::PtxasViolation> violations =
        target::findPtxasViolations(ptxas->report);
    if (violations.empty()) {
      compiled.artifacts = std::move(*artifacts);
      compiled.ptxas = std::move(*ptxas);
      return compiled;
    }
    // An entry that breaks the policy is left out when its kernel keeps
    // another entry that does not: the runtime then launches that one for
    // every shape. Anything else fails the compilation as before.
    llvm::StringMap<size_t> breaking; // per kernel, its breaking entries
    llvm::StringSet<> breakingEntries;
    for (const target::PtxasViolation &violation : violations) {
      std::string kernel =
          violation.function.empty()
              ? std::string()
              : kernelOfEntry(artifacts->manifests, violation.function);
      if (kernel.empty())
        return reportViolations(loc, violations);
      if (breakingEntries.insert(violation.function).second)
        ++breaking[kernel];
    }
    for (const auto &entry : breaking)
      if (entry.second >= countEntries(artifacts->manifests, entry.getKey()))
        return reportViolations(loc, violations);
    for (const target::PtxasViolation &violation : violations) {
      dropped.insert(violation.function);
      compiled.droppedEntries.push_back(
          {violation.function, violation.message});
    }
  }
}
