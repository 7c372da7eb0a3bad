//===- Pipelines.h - Kiln's registered pass pipelines -----------*- C++ -*-===//
//
// The pass order from tile IR to NVVM is written here and nowhere else: the
// `kiln` driver, the tests and `kiln-opt --pass-pipeline=kiln-compile{...}`
// all call buildKilnCompilePipeline.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_PIPELINES_PIPELINES_H
#define KILN_COMPILER_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace kiln {

/// Where the compile pipeline stops.
enum class Stage { Tile, Cta, Llvm };

struct KilnCompileOptions
    : public mlir::PassPipelineOptions<KilnCompileOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("sm_90a or sm_100a"),
                           llvm::cl::init("sm_90a")};
  Option<std::string> stopAfter{
      *this, "stop-after",
      llvm::cl::desc(
          "last stage: tile (fused and scheduled), cta (pipelined), llvm "
          "(NVVM + LLVM dialects)"),
      llvm::cl::init("llvm")};
  Option<bool> lineInfo{
      *this, "line-info",
      llvm::cl::desc("emit .file/.loc line info in the PTX (the .kiln line of "
                     "each instruction; no effect on the code)"),
      llvm::cl::init(true)};
};

/// tile IR -> (fusion, scheduling) -> cta IR -> (layouts, pipelining) ->
/// NVVM/LLVM dialects in a gpu.module, stopping after `stage`.
/// `lineInfo`: the PTX carries each instruction's .kiln line (.file/.loc),
/// which ptxas keeps in the cubin for profilers; it changes no code.
void buildKilnCompilePipeline(mlir::OpPassManager &pm, llvm::StringRef chip,
                              Stage stage, bool lineInfo = true);

/// The passes after the tile stage, up to `stage` (Cta or Llvm): what
/// buildKilnCompilePipeline adds once schedules are chosen. The driver runs
/// the two halves separately when it reports on the tile stage.
void buildKilnLoweringPipeline(mlir::OpPassManager &pm, llvm::StringRef chip,
                               Stage stage, bool lineInfo = true);

/// The passes buildKilnLoweringPipeline runs after convert-tile-to-cta, up
/// to `stage` (Cta or Llvm): layouts, pipelining and resources of the tiled
/// `cta` programs, then NVVM. kiln-fuzz-pipeline lowers cta IR that is
/// tiled but not yet pipelined with it.
void buildKilnCtaPipeline(mlir::OpPassManager &pm, llvm::StringRef chip,
                          Stage stage, bool lineInfo = true);

/// The passes from pipelined `cta` IR to the llvm stage: resource
/// allocation (again, for IR that may have been edited) and what
/// buildKilnLoweringPipeline ends with; what `kiln compile` runs on a
/// `.mlir` file of `cta.program`s.
void buildKilnNVVMPipeline(mlir::OpPassManager &pm, llvm::StringRef chip,
                           bool lineInfo = true);

/// Registers `kiln-compile{chip=... stop-after=...}`.
void registerKilnPipelines();

} // namespace kiln

#endif // KILN_COMPILER_PIPELINES_PIPELINES_H
