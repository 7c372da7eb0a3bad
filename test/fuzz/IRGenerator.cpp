//===- IRGenerator.cpp - Tile and cta IR of generated programs ------------===//

#include "test/fuzz/IRGenerator.h"
#include "test/fuzz/CompileHarness.h"

#include "compiler/Conversion/Passes.h"
#include "compiler/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kiln::fuzz {
namespace {

/// Where in the pipeline the IR is taken (IRGenerator.h).
enum class Point { Imported, Scheduled, Tiled, Pipelined };

/// Pipelined cta IR most often: it is closest to code generation, whose
/// coverage the target is for.
Point pickPoint(Random &rng) {
  unsigned r = std::uniform_int_distribution<unsigned>(0, 99)(rng);
  if (r < 20)
    return Point::Imported;
  if (r < 45)
    return Point::Scheduled;
  if (r < 65)
    return Point::Tiled;
  return Point::Pipelined;
}

/// `source` taken to `point` for `chip` and printed; empty when the
/// frontend or a pass refused it.
std::string lower(const std::string &source, Point point,
                  llvm::StringRef chip) {
  MLIRContext ctx(compileRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = importKilnText(ctx, source, "generated.kiln");
  if (!module)
    return {};
  PassManager pm(&ctx);
  switch (point) {
  case Point::Imported:
    break;
  case Point::Scheduled:
    buildKilnCompilePipeline(pm, chip, Stage::Tile);
    break;
  case Point::Tiled:
    buildKilnCompilePipeline(pm, chip, Stage::Tile);
    pm.addPass(createConvertTileToCta({chip.str()}));
    break;
  case Point::Pipelined:
    buildKilnCompilePipeline(pm, chip, Stage::Cta);
    break;
  }
  if (failed(pm.run(*module)))
    return {};
  std::string text;
  if (point == Point::Imported || point == Point::Scheduled)
    text = (kChipLine + chip + "\n").str();
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

} // namespace

std::string generateIR(Random &rng) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::string source = generateProgram(rng);
    // The chip as kiln-fuzz-compile would choose it for the program.
    llvm::StringRef chip = chipFor(
        reinterpret_cast<const uint8_t *>(source.data()), source.size());
    std::string text = lower(source, pickPoint(rng), chip);
    if (!text.empty())
      return text;
  }
  return {};
}

} // namespace kiln::fuzz
