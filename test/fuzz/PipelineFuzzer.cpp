//===- PipelineFuzzer.cpp - libFuzzer entry from tile/cta IR to PTX -------===//
//
// kiln-fuzz-pipeline: each input is MLIR text of tile IR (as `kiln compile
// --emit=tile` or `kiln-translate --import-kiln` print it) or of cta IR,
// pipelined (`--emit=cta`) or only tiled (as convert-tile-to-cta writes it).
// An input that parses and verifies runs through the rest of the pipeline to
// PTX, as `kiln compile x.mlir --emit=ptx` does: the passes must turn every
// verifier-valid input into PTX or a located error. The mutator changes
// numbers, element types, enum keywords and flags of the IR (Mutators.h) and
// keeps a change the verifiers accept; three times in ten, and whenever no
// change of an input verifies, it writes IR of a generated program instead
// (IRGenerator.h), so that most inputs reach code generation.
// CompileHarness.h lists what is a finding; docs/testing.md says how to run
// it.
//
//===----------------------------------------------------------------------===//

#include "test/fuzz/CompileHarness.h"
#include "test/fuzz/IRGenerator.h"
#include "test/fuzz/LastInput.h"
#include "test/fuzz/Mutators.h"

#include "compiler/tools/ParserHazards.h"
#include "compiler/tools/LargeStack.h"
#include "dialects/Cta/IR/CtaOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cstring>
#include <string>

namespace {

/// Writes IR of a generated program (IRGenerator.h) to `data`, half of the
/// time with one accepted mutation on top; 0 when none came out or it does
/// not fit in `maxSize`.
size_t writeGeneratedIR(uint8_t *data, size_t maxSize,
                        kiln::fuzz::Random &rng) {
  std::string ir = kiln::fuzz::generateIR(rng);
  if (ir.empty() || ir.size() > maxSize)
    return 0;
  std::memcpy(data, ir.data(), ir.size());
  if (rng() % 2) {
    bool accepted = false;
    size_t mutated = kiln::fuzz::mutateUntilAccepted(
        data, ir.size(), maxSize, static_cast<unsigned>(rng()),
        /*attempts=*/3, kiln::fuzz::mutateMlir, kiln::fuzz::verifierAccepts,
        &accepted);
    if (accepted)
      return mutated;
    std::memcpy(data, ir.data(), ir.size());
  }
  return ir.size();
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  kiln::fuzz::Random rng = kiln::fuzz::makeRandom(seed);
  // Three times in ten: generated IR.
  if (rng() % 10 < 3)
    if (size_t written = writeGeneratedIR(data, maxSize, rng))
      return written;
  // Else a mutation of the input that the parser and verifiers accept (what
  // they refuse is kiln-fuzz-ir's to explore); where none is (the seeds
  // include IR that the verifiers reject on purpose), generated IR too.
  bool accepted = false;
  size_t mutated = kiln::fuzz::mutateUntilAccepted(
      data, size, maxSize, static_cast<unsigned>(rng()), /*attempts=*/6,
      kiln::fuzz::mutateMlir, kiln::fuzz::verifierAccepts, &accepted);
  if (!accepted)
    if (size_t written = writeGeneratedIR(data, maxSize, rng))
      return written;
  return mutated;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::fuzz::saveLastInput(data, size);
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  // What crashes MLIR's own parser (ParserHazards.h) is skipped.
  if (kiln::findParserHazard(input))
    return 0;
  kiln::fuzz::Reach &reach = kiln::fuzz::reach();
  ++reach.inputs;
  kiln::runWithLargeStack([&] {
    mlir::MLIRContext ctx(kiln::fuzz::compileRegistry(),
                          mlir::MLIRContext::Threading::DISABLED);
    ctx.allowUnregisteredDialects(false);
    mlir::ParserConfig config(&ctx);
    // The input's own verifier errors are expected: watch only what the
    // passes say about IR that verified.
    std::string text(input);
    mlir::OwningOpRef<mlir::ModuleOp> module;
    {
      mlir::ScopedDiagnosticHandler quiet(
          &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
      module = mlir::parseSourceString<mlir::ModuleOp>(text, config,
                                                       "fuzz.mlir");
    }
    if (!module)
      return 0;
    ++reach.accepted;
    // A cta program names its chip; tile IR gets one by the input's bytes.
    llvm::StringRef chip = kiln::fuzz::chipFor(data, size);
    for (kiln::cta::ProgramOp program : module->getOps<kiln::cta::ProgramOp>())
      if (kiln::cta::ChipAttr named = program.getChipAttr())
        chip = kiln::target::chipName(named.getChip());
    kiln::fuzz::FindingWatch watch(ctx);
    bool ptx = kiln::fuzz::compileToPtx(*module, chip);
    watch.check();
    reach.ptx += ptx;
    return 0;
  });
  return 0;
}
