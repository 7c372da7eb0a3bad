//===- CompileHarness.cpp - What the code-generation fuzzers share --------===//

#include "test/fuzz/CompileHarness.h"
#include "test/fuzz/LastInput.h"

#include "compiler/InitAll.h"
#include "compiler/Pipelines/Backend.h"
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/tools/ParserHazards.h"
#include "dialects/Cta/IR/CtaOps.h"
#include "frontend/ImportKiln.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace mlir;

namespace kiln::fuzz {

const DialectRegistry &compileRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    registerAllDialects(*r);
    registerAllPasses();
    return r;
  }();
  return *registry;
}

FindingWatch::FindingWatch(MLIRContext &ctx) : ctx(ctx) {
  handler = ctx.getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error || !finding.empty())
      return success();
    std::string message = diag.str();
    llvm::StringRef text(message);
    if ((text.starts_with("'") && text.contains("' op ")) ||
        text.contains("internal error") || text.contains("failed to legalize"))
      finding = message;
    return success();
  });
}

FindingWatch::~FindingWatch() { ctx.getDiagEngine().eraseHandler(handler); }

void FindingWatch::check() const {
  if (finding.empty())
    return;
  std::fprintf(stderr, "kiln-fuzz: finding: %s\n", finding.c_str());
  std::abort();
}

bool compileToPtx(ModuleOp module, llvm::StringRef chip) {
  PassManager pm(module.getContext());
  // cta IR is pipelined (`--emit=cta`, what `kiln compile x.mlir` reads) or
  // tiled only (a cta.mainloop left, as convert-tile-to-cta writes it): the
  // latter goes through pipelining first, as in buildKilnLoweringPipeline.
  bool tiledOnly =
      module.walk([](cta::MainloopOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (tiledOnly)
    buildKilnCtaPipeline(pm, chip, Stage::Llvm);
  else if (!module.getOps<cta::ProgramOp>().empty())
    buildKilnNVVMPipeline(pm, chip);
  else
    buildKilnCompilePipeline(pm, chip, Stage::Llvm);
  if (failed(pm.run(module)))
    return false;
  return succeeded(translateToPtx(module));
}

OwningOpRef<ModuleOp> importKilnText(MLIRContext &ctx, llvm::StringRef source,
                                     llvm::StringRef name) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  return importKiln(sourceMgr, &ctx);
}

bool frontendAccepts(llvm::StringRef source) {
  MLIRContext ctx(compileRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  return static_cast<bool>(importKilnText(ctx, source, "mutant.kiln"));
}

bool verifierAccepts(llvm::StringRef ir) {
  // The mutator parses its candidates: one that crashes the parser must
  // survive too (LastInput.h), since libFuzzer only saves inputs it runs.
  saveLastInput(reinterpret_cast<const uint8_t *>(ir.data()), ir.size());
  if (findParserHazard(ir))
    return false;
  MLIRContext ctx(compileRegistry(), MLIRContext::Threading::DISABLED);
  ctx.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  ParserConfig config(&ctx);
  return static_cast<bool>(
      parseSourceString<ModuleOp>(ir.str(), config, "mutant.mlir"));
}

size_t mutateUntilAccepted(uint8_t *data, size_t size, size_t maxSize,
                           unsigned seed, unsigned attempts,
                           size_t (*mutate)(uint8_t *, size_t, size_t,
                                            unsigned),
                           bool (*accepts)(llvm::StringRef),
                           bool *accepted) {
  std::vector<uint8_t> original(data, data + size);
  size_t result = size;
  bool ok = false;
  for (unsigned attempt = 0; attempt < attempts && !ok; ++attempt) {
    std::memcpy(data, original.data(), original.size());
    result = mutate(data, original.size(), maxSize, seed + attempt * 7919u);
    ok = accepts(llvm::StringRef(reinterpret_cast<const char *>(data), result));
  }
  if (accepted)
    *accepted = ok;
  return result;
}

llvm::StringRef chipFor(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // Scheduled tile IR compiles for the chip its schedules were chosen for
  // only; it says which on its first line.
  llvm::StringRef named = text;
  if (named.consume_front(kChipLine)) {
    named = named.take_until([](char c) { return c == '\n'; });
    if (named == "sm_90a")
      return "sm_90a";
    if (named == "sm_100a")
      return "sm_100a";
  }
  uint32_t hash = 2166136261u; // FNV-1a
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 16777619u;
  // Block-scaled operands lower on sm_100a only: those inputs go there three
  // times in four (the fourth checks sm_90a's refusal).
  bool blockScaled = text.contains("nvfp4") || text.contains("mxfp") ||
                     text.contains("scaled(") || text.contains("f8E8M0FNU") ||
                     text.contains("f4E2M1FN");
  if (blockScaled)
    return hash % 4 ? "sm_100a" : "sm_90a";
  return hash & 1 ? "sm_100a" : "sm_90a";
}

static void printReach() {
  const Reach &r = reach();
  std::fprintf(stderr,
               "kiln-fuzz: %llu inputs, %llu accepted, %llu reached PTX "
               "(%.1f%%)\n",
               static_cast<unsigned long long>(r.inputs),
               static_cast<unsigned long long>(r.accepted),
               static_cast<unsigned long long>(r.ptx),
               r.inputs ? 100.0 * static_cast<double>(r.ptx) /
                              static_cast<double>(r.inputs)
                        : 0.0);
}

Reach &reach() {
  static Reach *counters = [] {
    std::atexit(printReach);
    return new Reach;
  }();
  return *counters;
}

} // namespace kiln::fuzz
