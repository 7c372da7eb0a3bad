//===- FrontendFuzzer.cpp - libFuzzer entry over the .kiln frontend -------===//
//
// Feeds each input to the frontend as `kiln compile --emit=tile` would: lex,
// parse, Sema, MLIRGen and the tile verifier. Diagnostics are expected and
// dropped; a crash, a sanitizer report, a hang or an op that fails the
// verifier after Sema accepted the program (a frontend bug) is a finding.
// Its mutator is structure-aware (Mutators.h); kiln-fuzz-compile takes the
// same inputs on to PTX. docs/testing.md says how to run it.
//
//===----------------------------------------------------------------------===//

#include "frontend/ImportKiln.h"

#include "dialects/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>

#include "test/fuzz/LastInput.h"
#include "test/fuzz/Mutators.h"

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  return kiln::fuzz::mutateKiln(data, size, maxSize, seed);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::fuzz::saveLastInput(data, size);
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    r->insert<kiln::tile::TileDialect, mlir::arith::ArithDialect,
              mlir::math::MathDialect>();
    return r;
  }();
  // A fresh context per input: uniqued names and types from one input must
  // not accumulate over millions of runs.
  mlir::MLIRContext ctx(*registry, mlir::MLIRContext::Threading::DISABLED);
  bool verifierFailed = false;
  ctx.getDiagEngine().registerHandler([&](mlir::Diagnostic &diag) {
    // Sema's and the parser's own messages are fine; a message of an op
    // verifier ("'tile.x' op ...") means Sema let through what MLIRGen
    // cannot express.
    std::string message = diag.str();
    llvm::StringRef text(message);
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error &&
        text.starts_with("'") && text.contains("' op "))
      verifierFailed = true;
    return mlir::success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.kiln"),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      kiln::importKiln(sourceMgr, &ctx);
  if (verifierFailed)
    std::abort();
  return 0;
}
