//===- IRFuzzer.cpp - libFuzzer entry over tile and cta IR parsing --------===//
//
// Parses each input as MLIR with Kiln's dialects registered, as kiln-opt
// does before it runs a pass: the custom parsers, attribute and type
// verifiers and op verifiers of `tile` and `cta` must reject every malformed
// input with a diagnostic. A module that parses is printed and parsed again:
// what Kiln prints it must read back. docs/testing.md says how to run it.
//
//===----------------------------------------------------------------------===//

#include "dialects/Cta/IR/CtaDialect.h"
#include "dialects/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

#include "compiler/tools/ParserHazards.h"
#include "compiler/tools/LargeStack.h"
#include "test/fuzz/LastInput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::fuzz::saveLastInput(data, size);
  // Known crashes of MLIR's own parser, not of Kiln's code: a dense array of
  // `index` (`array<index: 1>`, also spelled `array< index: 1>`) and a huge
  // result number (`%r#2147483648`; mlir-opt 22.1 crashes on both).
  // Skipped so that the fuzzer keeps looking at Kiln's parsers
  // (docs/testing.md; the tools refuse such input,
  // compiler/tools/ParserHazards.h).
  if (kiln::findParserHazard(
          llvm::StringRef(reinterpret_cast<const char *>(data), size)))
    return 0;
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    r->insert<kiln::tile::TileDialect, kiln::cta::CtaDialect,
              mlir::arith::ArithDialect, mlir::math::MathDialect,
              mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
    return r;
  }();
  // As in kiln-opt: MLIR's parser recurses once per nesting level, which
  // the 8 MiB main stack cannot hold for deep inputs (LargeStack.h).
  kiln::runWithLargeStack([&] {
    mlir::MLIRContext ctx(*registry, mlir::MLIRContext::Threading::DISABLED);
    // Unknown dialects would make any op parse; Kiln's tools reject them too.
    ctx.allowUnregisteredDialects(false);
    ctx.getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
    mlir::ParserConfig config(&ctx);
    // MLIR's lexer reads up to a NUL after the buffer, as every file and
    // string it is given in the tools has; libFuzzer's bytes have none.
    std::string text(reinterpret_cast<const char *>(data), size);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz.mlir");
    if (!module)
      return 0;
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    mlir::OwningOpRef<mlir::ModuleOp> again =
        mlir::parseSourceString<mlir::ModuleOp>(printed, config, "printed.mlir");
    if (!again)
      std::abort();
    return 0;
  });
  return 0;
}
