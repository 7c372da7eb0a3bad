//===- Pipelines.cpp - Kiln's registered pass pipelines -------------------===//

#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Conversion/Passes.h"
#include "dialects/Cta/Transforms/Passes.h"
#include "dialects/Tile/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {

/// Decides each program's shared memory, tensor memory and role facts in the
/// IR (per program, so programs allocate in parallel).
void addResourceAllocation(OpPassManager &pm) {
  pm.addNestedPass<kiln::cta::ProgramOp>(kiln::cta::createCtaAllocateResources());
}

/// cta programs with their resources decided, to NVVM/LLVM kernels.
void addCtaToNVVMPasses(OpPassManager &pm, StringRef chip, bool lineInfo);

} // namespace

void kiln::buildKilnCompilePipeline(OpPassManager &pm, StringRef chip,
                                    Stage stage, bool lineInfo) {
  // tile: fuse elementwise code into contractions and contractions that
  // share a K loop into one, then choose schedules. Fusion plugins
  // (--load-pass-plugin) see the frontend's IR before Kiln's fusions and the
  // fused IR after them; both runs do nothing without one.
  pm.addPass(tile::createTileApplyFusionPlugins(
      {tile::FusionStage::BeforeBuiltinFusions}));
  // Per kernel (so kernels fuse in parallel): CSE first, since the frontend
  // emits `x @ w^T` once per occurrence and one product must be one
  // accumulator; attention before the epilogue fusion, which would wrap its
  // products in contracts; maps over several outputs of a sibling-fused
  // contraction fuse in the second round.
  OpPassManager &kernel = pm.nest<tile::KernelOp>();
  kernel.addPass(createCSEPass());
  kernel.addPass(tile::createTileFuseAttention());
  kernel.addPass(tile::createTileFuseEpilogues());
  kernel.addPass(tile::createTileFuseSiblings());
  kernel.addPass(tile::createTileFuseEpilogues());
  // Kiln's own fusions end here; plugins see their result.
  pm.addPass(tile::createTileApplyFusionPlugins(
      {tile::FusionStage::AfterBuiltinFusions}));
  pm.addPass(tile::createTileSelectSchedule({chip.str()}));
  if (stage != Stage::Tile)
    buildKilnLoweringPipeline(pm, chip, stage, lineInfo);
}

void kiln::buildKilnLoweringPipeline(OpPassManager &pm, StringRef chip,
                                     Stage stage, bool lineInfo) {
  // cta: tile onto thread blocks; then per program (so programs, a kernel's
  // variants among them, run in parallel) lay out shared memory, pipeline
  // and decide resources.
  pm.addPass(createConvertTileToCta({chip.str()}));
  buildKilnCtaPipeline(pm, chip, stage, lineInfo);
}

void kiln::buildKilnCtaPipeline(OpPassManager &pm, StringRef chip,
                                Stage stage, bool lineInfo) {
  OpPassManager &program = pm.nest<cta::ProgramOp>();
  program.addPass(cta::createCtaAssignLayouts());
  program.addPass(cta::createCtaPipeline());
  program.addPass(createCanonicalizerPass());
  program.addPass(cta::createCtaAllocateResources());
  if (stage == Stage::Cta)
    return;
  addCtaToNVVMPasses(pm, chip, lineInfo);
}

void kiln::buildKilnNVVMPipeline(OpPassManager &pm, StringRef chip,
                                 bool lineInfo) {
  // cta IR from a file: its allocation is decided again (edited IR keeps no
  // stale offsets).
  addResourceAllocation(pm);
  addCtaToNVVMPasses(pm, chip, lineInfo);
}

namespace {

void addCtaToNVVMPasses(OpPassManager &pm, StringRef chip, bool lineInfo) {
  // NVVM: the target-specific lowering, then the standard dialects to LLVM.
  pm.addPass(kiln::createConvertCtaToNVVM({chip.str()}));
  pm.addPass(createSCFToControlFlowPass());
  // arith, math, index and cf to LLVM inside the kernel module; math
  // functions become libdevice calls (NVPTX has no exp or tanh libcalls).
  // First, the math functions whose hardware approximation is accurate
  // enough become that one instruction instead of an inlined expansion.
  pm.addNestedPass<gpu::GPUModuleOp>(kiln::createConvertMathToNVVMApprox());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = true;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNVVM));
  // wgmma, try_wait.parity and predicated ops are inline-asm builders.
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Line tables from the .kiln locations every op carries: the PTX gets
  // .file/.loc directives and nothing else of debug info (no `.target ...,
  // debug`, which ptxas refuses at -O3), and ptxas keeps the lines in the
  // cubin for Nsight Compute's source view. The SASS is the same.
  if (lineInfo)
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(
        {LLVM::DIEmissionKind::DebugDirectivesOnly}));
}

} // namespace

void kiln::registerKilnPipelines() {
  registerPassPipeline(
      "kiln-compile",
      "Compile tile IR to NVVM/LLVM kernels (stop-after=tile|cta|llvm)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        KilnCompileOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        std::string stopAfter = options.stopAfter;
        Stage stage = stopAfter == "tile"  ? Stage::Tile
                      : stopAfter == "cta" ? Stage::Cta
                                           : Stage::Llvm;
        if (stopAfter != "tile" && stopAfter != "cta" && stopAfter != "llvm")
          return errorHandler("kiln-compile: unknown stop-after '" + stopAfter +
                              "'; expected tile, cta or llvm");
        buildKilnCompilePipeline(pm, options.chip, stage, options.lineInfo);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optionsHandler) {
        optionsHandler(KilnCompileOptions());
      });
}
